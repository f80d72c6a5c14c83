#!/usr/bin/env python3
"""Mine training pairs for the learned ranking: a commit's message -> the source files it modified.

    MIRRORS=/work/.mirror python3 scripts/ranker/mine.py --out scripts/ranker/train.jsonl

The repositories are the short-question benchmark's 21 development repositories
($SHARED_EVAL/semble/repos.json) — the held-out rule allows them, and never the benchmark's other
repositories nor SWE-bench's. requests, pytest and pylint are not mined either: the public
SWE-bench tasks stay unseen by the fit. Per repository, the commits taken are *older* than every
task of the commit evaluation ($SHARED_EVAL/commits/dev.jsonl), so a fitted model never saw the
code state or the message of a task it is scored on.

A commit qualifies as in the commit evaluation: one parent, a subject of 4+ words that is not a
merge/release/chore/docs/style line, a message under 2,000 characters, 1-3 non-test source files
of the repository's language modified (none added or deleted), at most 12 files touched. The
output has the evaluation's fields, so `cocosearch-eval --commits --tasks` reads it.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

EXTS = {"python": ["py"], "javascript": ["js", "jsx", "mjs", "cjs"], "typescript": ["ts", "tsx"], "go": ["go"],
        "rust": ["rs"], "java": ["java"], "kotlin": ["kt", "kts"], "ruby": ["rb"], "php": ["php"], "c": ["c", "h"],
        "cpp": ["cpp", "cc", "cxx", "hpp", "hh", "h"], "csharp": ["cs"], "swift": ["swift"], "scala": ["scala"],
        "elixir": ["ex", "exs"], "lua": ["lua"], "bash": ["sh", "bash"], "zig": ["zig"], "haskell": ["hs"]}
TEST = re.compile(r"(^|/)(tests?|testing|spec|specs|__tests__|test-?data|fixtures?|benchmarks?|examples?|docs?)/"
                  r"|(^|/)test_[^/]*$|_test\.[a-z]+$|\.test\.[a-z]+$|\.spec\.[a-z]+$|Tests?\.(java|kt|swift|cs|scala)$"
                  r"|Spec\.(scala|kt)$|_spec\.rb$|Test[^/]*\.(java|kt)$", re.I)
SKIP_SUBJECT = re.compile(r"^(merge|revert|bump|release|version|v?\d+\.\d+|prepare|update (changelog|readme|deps|dependencies)"
                          r"|chore|ci|build|docs?|style|format|lint|typo|wip|fixup|squash)\b", re.I)
TRAILER = re.compile(r"^(signed-off-by|co-authored-by|reviewed-by|acked-by|change-id|cc|fixes|closes|refs?)\s*:.*$",
                     re.I | re.M)


def git(mirror, *args):
    return subprocess.run(["git", "--git-dir", str(mirror), *args], capture_output=True, text=True,
                          errors="replace").stdout


def clean(message):
    message = TRAILER.sub("", message)
    message = re.sub(r"\(#\d+\)|#\d+", "", message)
    return re.sub(r"\n{3,}", "\n\n", message).strip()


def qualifying(mirror, language, excluded):
    """(sha, parent, message, gold files) of the commits that qualify, newest first, after the
    newest commit in `excluded` has been passed (everything before it is skipped)."""
    exts = set(EXTS[language])
    log = git(mirror, "log", "--no-merges", "-n", "6000", "--format=%H%x00%P%x00%B%x1e", "HEAD")
    remaining = set(excluded)
    for record in log.split("\x1e"):
        parts = record.strip("\n").split("\x00")
        if len(parts) != 3:
            continue
        sha, parents, body = parts
        if remaining:
            remaining.discard(sha)
            continue
        if len(parents.split()) != 1:
            continue
        message = clean(body)
        subject = message.splitlines()[0] if message else ""
        if len(subject.split()) < 4 or SKIP_SUBJECT.match(subject) or len(message) > 2000:
            continue
        status = git(mirror, "diff-tree", "--no-commit-id", "-r", "--name-status", sha).splitlines()
        changes = [line.split("\t") for line in status if line.strip()]
        source = [c for c in changes if c[-1].rsplit(".", 1)[-1] in exts and not TEST.search(c[-1])]
        if not source or any(c[0] != "M" for c in source) or len(source) > 3 or len(changes) > 12:
            continue
        yield sha, parents.split()[0], message, [c[-1] for c in source]


def main():
    shared = Path(os.environ.get("SHARED_EVAL", "../shared/eval"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--repos-json", default=shared / "semble/repos.json")
    ap.add_argument("--evaluation", default=shared / "commits/dev.jsonl", help="tasks whose commits come after")
    ap.add_argument("--per-repo", type=int, default=20)
    ap.add_argument("--min-words", type=int, default=21,
                    help="only messages of this many words: the learned ranking weighs long questions only")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    mirrors = Path(os.environ.get("MIRRORS", "/work/.mirror"))
    evaluation = [json.loads(line) for line in open(args.evaluation)]
    tasks = []
    for spec in json.loads(Path(args.repos_json).read_text()):
        match = re.search(r"github\.com/([^/]+)/(.+?)(\.git)?$", spec["url"])
        owner_repo = f"{match.group(1)}/{match.group(2)}"
        mirror = mirrors / owner_repo.replace("/", "+") / "repo"
        if not mirror.exists():
            sys.exit(f"{owner_repo}: no mirror at {mirror} (fetch github:{owner_repo})")
        excluded = {t["commit"] for t in evaluation if t["repo"] == owner_repo}
        picked = []
        for sha, parent, message, gold in qualifying(mirror, spec["language"], excluded):
            if len(message.split()) < args.min_words:
                continue
            date = git(mirror, "show", "-s", "--format=%cI", parent).strip()
            stems = {Path(g).stem.lower() for g in gold}
            named = any(len(s) > 2 and re.search(r"\b" + re.escape(s) + r"\b", message.lower()) for s in stems)
            picked.append({"instance_id": f"train-{spec['name']}__{sha[:10]}", "repo": owner_repo,
                           "base_commit": parent, "base_commit_date": date, "query": message + "\n",
                           "gold_files": gold, "gold_functions": [], "language": spec["language"],
                           "semble_repo": spec["name"], "commit": sha, "message_names_gold_file": named})
            if len(picked) >= args.per_repo:
                break
        print(f"{spec['name']:22s} {spec['language']:11s} {len(picked)} tasks", file=sys.stderr)
        tasks.extend(picked)
    with open(args.out, "w") as out:
        for task in tasks:
            out.write(json.dumps(task) + "\n")
    print(f"wrote {len(tasks)} tasks to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
