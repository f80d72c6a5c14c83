#!/usr/bin/env bash
# Retrieval-quality evaluation on real GitHub issues (SWE-bench Lite/Verified tasks).
#
#   scripts/eval.sh [TASKS.jsonl ...] [-- extra cocosearch-eval flags]
#   EVAL_BACKEND=sqlite scripts/eval.sh      # the embedded store instead of PostgreSQL
#   EVAL_EMBEDDER=minilm scripts/eval.sh     # in-process MiniLM (COCOSEARCH_TEST_MINILM_DIR)
#   EVAL_EMBEDDER=static scripts/eval.sh     # the static model (COCOSEARCH_TEST_STATIC_MODEL)
#   EVAL_EMBEDDER=none scripts/eval.sh -- --mode keyword   # no embedder: keyword mode only
#   EVAL_SUITE=semble EVAL_BACKEND=sqlite EVAL_EMBEDDER=static scripts/eval.sh
#       # the multi-language benchmark of short questions ($SHARED_EVAL/semble, file NDCG@10)
#   EVAL_SUITE=commits EVAL_BACKEND=sqlite EVAL_EMBEDDER=none scripts/eval.sh -- --mode keyword
#       # commit messages -> the files they modified ($SHARED_EVAL/commits/dev.jsonl, 168 tasks in
#       # 19 languages): file Acc@5 and Recall@10 overall, by language, by message_names_gold_file
#   scripts/eval.sh -- --agent-cost      # (swebench or commits) also the scripted agent's tokens:
#       # search_code limit 10, else grep and read (<work>/predictions-agent-<mode>.jsonl)
#
# EVAL_EMBEDDER=server (the default) is the MiniLM embedding server. Each embedder and backend
# has its own work directory, so their indexes never meet. Keyword results must not depend on
# the embedder: when another embedder's run over the same tasks left keyword predictions, the
# two are compared at the end.
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
suite=${EVAL_SUITE:-swebench}
suite_args=()
case "$suite" in
  swebench) prefix=.work/eval ;;
  semble) prefix=.work/semble ;;
  commits) prefix=.work/commits; suite_args=(--commits) ;;
  *) echo "EVAL_SUITE must be swebench, semble or commits" >&2; exit 2 ;;
esac
if [ ${#tasks[@]} -eq 0 ]; then
  if [ "$suite" = commits ]; then
    # The repositories' mirrors: `fetch` each line of $SHARED_EVAL/semble/fetch_list.txt.
    tasks=("$SHARED_EVAL/commits/dev.jsonl")
  else
    tasks=("$SHARED_EVAL/requests.jsonl" "$SHARED_EVAL/pytest.jsonl" "$SHARED_EVAL/pylint.jsonl")
  fi
fi
eval "$(python3 scripts/testenv.py up)"
backend=${EVAL_BACKEND:-postgres}
embedder=${EVAL_EMBEDDER:-server}
case "$embedder" in
  server) work=$prefix-$backend ;;
  minilm|static|none) work=$prefix-$backend-$embedder ;;
  *) echo "EVAL_EMBEDDER must be server, minilm, static or none" >&2; exit 2 ;;
esac
mkdir -p "$work"
case "$backend" in
  postgres)
    # One database per embedder: an index keeps the model it was built with.
    url=$COCOSEARCH_TEST_DATABASE_URL
    if [ "$embedder" != server ]; then
      db=cocosearch_eval_$embedder
      if [ -z "$(psql "$url" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
        psql "$url" -qc "CREATE DATABASE $db"
      fi
      url=${url%/*}/$db
    fi
    export COCOSEARCH_DATABASE_BACKEND=postgres COCOSEARCH_DATABASE_URL="$url" ;;
  sqlite) export COCOSEARCH_DATABASE_BACKEND=sqlite COCOSEARCH_DATABASE_PATH="$PWD/$work/store" ;;
  *) echo "EVAL_BACKEND must be postgres or sqlite" >&2; exit 2 ;;
esac
case "$embedder" in
  server)
    export COCOSEARCH_EMBEDDING_PROVIDER=ollama COCOSEARCH_OLLAMA_URL="$COCOSEARCH_TEST_OLLAMA_URL"
    export COCOSEARCH_EMBEDDING_MODEL=all-minilm ;;
  minilm)
    export COCOSEARCH_EMBEDDING_PROVIDER=builtin COCOSEARCH_EMBEDDING_MODEL=all-minilm-l6-v2
    export COCOSEARCH_EMBEDDING_MODEL_PATH="$COCOSEARCH_TEST_MINILM_DIR" ;;
  static)
    export COCOSEARCH_EMBEDDING_PROVIDER=builtin COCOSEARCH_EMBEDDING_MODEL_PATH="$COCOSEARCH_TEST_STATIC_MODEL" ;;
  none) export COCOSEARCH_EMBEDDING_PROVIDER=none ;;
esac
if [ "$suite" = semble ]; then
  # Its repositories' mirrors: `fetch` each line of $SHARED_EVAL/semble/fetch_list.txt.
  exec cargo run --release --quiet --bin cocosearch-eval -- --semble "$SHARED_EVAL/semble" \
    --mirrors "${MIRRORS:-/work/.mirror}" --work-dir "$work" --out "$work/predictions" "$@"
fi
cat "${tasks[@]}" > "$work/tasks.jsonl"
args=()
for t in "${tasks[@]}"; do args+=(--tasks "$t"); done
cargo run --release --quiet --bin cocosearch-eval -- "${args[@]}" ${suite_args[@]+"${suite_args[@]}"} \
  --mirrors "${MIRRORS:-/work/.mirror}" --work-dir "$work" --out "$work/predictions" "$@"
if [ -f "$SHARED_EVAL/score.py" ]; then
  echo
  echo "Reference scorer ($SHARED_EVAL/score.py), $backend, embedder $embedder, pooled over $(wc -l < "$work/tasks.jsonl") tasks:"
  for mode in keyword vector hybrid; do
    f=$work/predictions-$mode.jsonl
    [ -f "$f" ] || continue
    echo "  $mode file:     $(python3 "$SHARED_EVAL/score.py" "$work/tasks.jsonl" "$f" --level file)"
    # Commit tasks have no gold functions.
    [ "$suite" = commits ] && continue
    echo "  $mode function: $(python3 "$SHARED_EVAL/score.py" "$work/tasks.jsonl" "$f" --level function)"
  done
fi
# Keyword predictions of the same tasks with another embedder (or none) must be identical.
mine=$work/predictions-keyword.jsonl
if [ -f "$mine" ]; then
  for other in $prefix-$backend $prefix-$backend-*; do
    [ "$other" = "$work" ] || [ ! -f "$other/predictions-keyword.jsonl" ] && continue
    cmp -s "$other/tasks.jsonl" "$work/tasks.jsonl" || continue
    # Only a finished run of the same tasks compares.
    [ "$(wc -l < "$other/predictions-keyword.jsonl")" = "$(wc -l < "$mine")" ] || continue
    files='import json,sys; print(sorted((p["instance_id"], p["files"]) for p in map(json.loads, open(sys.argv[1]))))'
    if [ "$(python3 -c "$files" "$other/predictions-keyword.jsonl")" = "$(python3 -c "$files" "$mine")" ]; then
      echo "keyword file predictions identical to $other's"
    else
      echo "keyword file predictions differ from $other's: keyword results depend on the embedder" >&2
    fi
  done
fi
