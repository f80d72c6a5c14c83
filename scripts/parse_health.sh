#!/usr/bin/env bash
# Parse health per language over the short-question benchmark's 21 development repositories,
# each whole at its revision: the share of chunks whose parse is partial or an error.
#
#   SHARED_EVAL=../shared/eval [MIRRORS=/work/.mirror] scripts/parse_health.sh
#
# Needs the repositories' git mirrors (`fetch` each line of $SHARED_EVAL/semble/fetch_list.txt)
# and a release build (`cargo build --release`). Uses its own store under .work/parse-health.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SHARED_EVAL:?set SHARED_EVAL to the evaluation data (../shared/eval)}"
mirrors=${MIRRORS:-/work/.mirror}
work=.work/parse-health
bin=$PWD/target/release/cocosearch
rm -rf "$work" && mkdir -p "$work"
export COCOSEARCH_DATABASE_BACKEND=sqlite COCOSEARCH_DATABASE_PATH=$PWD/$work/db COCOSEARCH_EMBEDDING_PROVIDER=none
python3 - "$SHARED_EVAL/semble/repos.json" <<'PY' > "$work/repos.txt"
import json, sys
for r in json.load(open(sys.argv[1])):
    slug = r["url"].split("github.com/")[1].removesuffix(".git").replace("/", "+")
    print(r["name"], slug, r["revision"])
PY
while read -r name slug revision; do
  dir=$work/$name && mkdir -p "$dir"
  mirror=$mirrors/$slug/repo
  if ! git -C "$mirror" cat-file -e "$revision^{commit}" 2>/dev/null; then
    echo "$name: the mirror lacks $revision; using its default branch" >&2
    revision=HEAD
  fi
  git -C "$mirror" archive "$revision" | tar x -C "$dir"
  (cd "$dir" && "$bin" index -q --no-embed --fresh >/dev/null && "$bin" stats --json) |
    python3 -c "import json, sys; [print(json.dumps({'repo': '$name', **l})) for l in json.load(sys.stdin)['parse_health']['languages']]" \
    >> "$work/health.jsonl"
  rm -rf "$dir"
done < "$work/repos.txt"
python3 - "$work/health.jsonl" <<'PY'
import collections, json, sys
totals = collections.defaultdict(lambda: [0, 0])
for row in map(json.loads, open(sys.argv[1])):
    bad = row["partial"] + row["error"]
    totals[row["language"]][0] += row["ok"] + bad
    totals[row["language"]][1] += bad
print(f"{'language':12} {'chunks':>8} {'partial %':>9}")
for language, (chunks, bad) in sorted(totals.items()):
    if chunks:
        print(f"{language:12} {chunks:8} {100 * bad / chunks:9.2f}")
PY
