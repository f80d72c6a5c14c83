#!/usr/bin/env bash
# Retrieval-quality evaluation on real GitHub issues (SWE-bench Lite/Verified tasks).
#
#   scripts/eval.sh [TASKS.jsonl ...] [-- extra cocosearch-eval flags]
#   EVAL_BACKEND=sqlite scripts/eval.sh      # the embedded store instead of PostgreSQL
#
# Defaults to the 62 public tasks in ../shared/eval. Needs git mirrors of the repositories
# (psf/requests, pytest-dev/pytest, pylint-dev/pylint) under $MIRRORS (default /work/.mirror,
# laid out as owner+name/repo). Brings up the test services (PostgreSQL + pgvector, the MiniLM
# embedding server with its persistent cache), runs every mode, and scores the predictions with
# the reference scorer when it is available.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED_EVAL=${SHARED_EVAL:-../shared/eval}
tasks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do tasks+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ${#tasks[@]} -eq 0 ]; then
  tasks=("$SHARED_EVAL/requests.jsonl" "$SHARED_EVAL/pytest.jsonl" "$SHARED_EVAL/pylint.jsonl")
fi
eval "$(python3 scripts/testenv.py up)"
backend=${EVAL_BACKEND:-postgres}
work=.work/eval-$backend
mkdir -p "$work"
case "$backend" in
  postgres) export COCOSEARCH_DATABASE_BACKEND=postgres COCOSEARCH_DATABASE_URL="$COCOSEARCH_TEST_DATABASE_URL" ;;
  sqlite) export COCOSEARCH_DATABASE_BACKEND=sqlite COCOSEARCH_DATABASE_PATH="$PWD/$work/store" ;;
  *) echo "EVAL_BACKEND must be postgres or sqlite" >&2; exit 2 ;;
esac
export COCOSEARCH_OLLAMA_URL="$COCOSEARCH_TEST_OLLAMA_URL"
export COCOSEARCH_EMBEDDING_MODEL=all-minilm
cat "${tasks[@]}" > "$work/tasks.jsonl"
args=()
for t in "${tasks[@]}"; do args+=(--tasks "$t"); done
cargo run --release --quiet --bin cocosearch-eval -- "${args[@]}" --mirrors "${MIRRORS:-/work/.mirror}" \
  --work-dir "$work" --out "$work/predictions" "$@"
if [ -f "$SHARED_EVAL/score.py" ]; then
  echo
  echo "Reference scorer ($SHARED_EVAL/score.py), $backend, pooled over $(wc -l < "$work/tasks.jsonl") tasks:"
  for mode in keyword vector hybrid; do
    f=$work/predictions-$mode.jsonl
    [ -f "$f" ] || continue
    echo "  $mode file:     $(python3 "$SHARED_EVAL/score.py" "$work/tasks.jsonl" "$f" --level file)"
    echo "  $mode function: $(python3 "$SHARED_EVAL/score.py" "$work/tasks.jsonl" "$f" --level function)"
  done
fi
