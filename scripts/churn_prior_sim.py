#!/usr/bin/env python3
"""Simulates a change-history prior on the keyword ranking's files, before building it.

For each task, the first 30 files of the keyword predictions are re-ranked by
    -ln(rank) + beta * ln(1 + commits touching the file in the last N commits before the base)
and scored at file level (Acc@k: every gold file within k; MRR of the first).

usage: scripts/churn_prior_sim.py swebench|commits [--mirrors /work/.mirror] [--shared-eval ../shared/eval]
Reads the tasks and predictions the evaluations leave (`scripts/eval.sh` with
EVAL_EMBEDDER=none, `--mode keyword`) and the git mirrors (owner+name/repo).
"""
import argparse
import collections
import json
import math
import subprocess

SUITES = {
    "swebench": (".work/eval-sqlite-none/tasks.jsonl", ".work/eval-sqlite-none/predictions-keyword.jsonl"),
    "commits": (None, ".work/commits-sqlite-none/predictions-keyword.jsonl"),
}


def load(path):
    return [json.loads(line) for line in open(path)]


def churn(mirror, base, n, files):
    log = subprocess.run(
        ["git", "-C", mirror, "log", "-n", str(n), "--name-only", "--format=format:@@", base],
        capture_output=True, text=True, check=False,
    ).stdout  # a mirror lacking old objects ends the log early: what it printed still counts
    counts = collections.Counter(line for line in log.splitlines() if line and line != "@@")
    return {f: counts.get(f, 0) for f in files}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("suite", choices=SUITES)
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--shared-eval", default="../shared/eval")
    args = parser.parse_args()
    tasks_path, predictions_path = SUITES[args.suite]
    tasks = load(tasks_path or f"{args.shared_eval}/commits/dev.jsonl")
    predictions = {p["instance_id"]: p["files"][:30] for p in load(predictions_path)}
    for n in (500, 2000):
        touched = {
            t["instance_id"]: churn(
                f"{args.mirrors}/{t['repo'].replace('/', '+')}/repo", t["base_commit"], n, predictions[t["instance_id"]]
            )
            for t in tasks
        }
        for beta in (0.0, 0.1, 0.2, 0.3, 0.5):
            acc = {k: 0 for k in (1, 3, 5, 10)}
            mrr = 0.0
            for t in tasks:
                files = predictions[t["instance_id"]]
                counts = touched[t["instance_id"]]
                score = {f: -math.log(i + 1) + beta * math.log(1 + counts[f]) for i, f in enumerate(files)}
                order = sorted(files, key=lambda f: -score[f])
                ranks = [order.index(g) + 1 if g in order else 99 for g in t["gold_files"]]
                for k in acc:
                    acc[k] += max(ranks) <= k
                mrr += 1 / min(ranks)
            figures = " ".join(f"Acc@{k} {100 * v / len(tasks):.1f}" for k, v in acc.items())
            print(f"last {n} commits, beta {beta}: {figures} MRR {100 * mrr / len(tasks):.1f}")


if __name__ == "__main__":
    main()
