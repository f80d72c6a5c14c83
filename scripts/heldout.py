#!/usr/bin/env python3
"""Held-out rotation over the output of `cocosearch-eval --variants`.

    python3 scripts/heldout.py EVAL_OUTPUT [--metric 5] [--prefix hybrid|keyword]

For each repository R: the variant with the best file Acc@k pooled over the *other*
repositories is chosen, and its Acc@k on R is reported (R held out). A change that helps the
pooled figure but loses on the rotation is tuning to these tasks, not an improvement.
Variants compared are those whose name starts with `keyword` (with --prefix keyword) or the
others (hybrid-family, the default).
"""
import argparse
import re
import sys
from collections import defaultdict

ROW = re.compile(r"^\s+(\S+)\s+(\S+)\s+n=(\d+)\s+Acc@1\s+([\d.]+) @3\s+([\d.]+) @5\s+([\d.]+) @10\s+([\d.]+)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("output")
    ap.add_argument("--metric", type=int, default=5, choices=[1, 3, 5, 10])
    ap.add_argument("--prefix", default="hybrid", choices=["hybrid", "keyword"])
    ap.add_argument("--section", default="File level")
    args = ap.parse_args()
    col = {1: 3, 3: 4, 5: 5, 10: 6}[args.metric]
    table = defaultdict(dict)  # mode -> repo -> (n, acc)
    section = None
    for line in open(args.output):
        if line and not line.startswith(" "):
            section = line.strip()
            continue
        m = ROW.match(line)
        if not m or not (section or "").startswith(args.section):
            continue
        mode, repo, n = m.group(1), m.group(2), int(m.group(3))
        acc = float(m.group(col + 1))
        table[mode][repo] = (n, acc)
    keyword_family = lambda mode: mode.startswith("keyword")
    modes = [m for m in table if keyword_family(m) == (args.prefix == "keyword") and m != "vector"]
    repos = sorted({r for m in modes for r in table[m] if r != "pooled"})
    if not modes or not repos:
        sys.exit("no rows found: is this the output of cocosearch-eval --variants?")

    def pooled_over(mode, subset):
        hits = sum(table[mode][r][0] * table[mode][r][1] / 100 for r in subset)
        n = sum(table[mode][r][0] for r in subset)
        return 100 * hits / n

    print(f"{args.section}, Acc@{args.metric}, {args.prefix} variants: {', '.join(sorted(modes))}")
    held_hits = 0.0
    held_n = 0
    for held in repos:
        train = [r for r in repos if r != held]
        best = max(modes, key=lambda m: (pooled_over(m, train), m == args.prefix))
        n, acc = table[best][held]
        held_hits += n * acc / 100
        held_n += n
        print(f"  held out {held:<22} chosen on the others: {best:<18} -> {acc:5.1f} (n={n})"
              f"   default {args.prefix}: {table[args.prefix][held][1]:5.1f}")
    print(f"  held-out rotation pooled: {100 * held_hits / held_n:5.1f} (n={held_n})")
    best = max(modes, key=lambda m: table[m]["pooled"][1])
    print(f"  best pooled: {best} {table[best]['pooled'][1]:5.1f}; default {args.prefix}: "
          f"{table[args.prefix]['pooled'][1]:5.1f}")


if __name__ == "__main__":
    main()
