#!/usr/bin/env python3
"""Fit the learned file ranking of long questions (`src/search/learned.rs`).

    python3 scripts/ranker/fit.py TRAIN.jsonl [--test NAME=FILE ...] [--l2 0.01]

Each input line is one task as `cocosearch-eval --features` writes it: the candidate files of the
question (the first fused order's first 30), each with its evidence features (0..1), and the gold
files. The model is linear, s(file) = w . x, fitted with a listwise loss: per task, the
negative log of the softmax probability the model gives to the gold files among the candidates
(tasks whose gold files are all outside the candidates carry no gradient). L2 keeps weights
small; plain full-batch gradient descent with Adam, pure Python (no dependency).

Prints, for the training set and each test set, file Acc@1/@5 and Recall@10 of the fused order
(the candidates as they came) and of the model's order, and the weights as the Rust constant to
paste into `learned::FITTED`. Reproduce the training rows with

    SHARED_EVAL=... EVAL_SUITE=commits EVAL_BACKEND=sqlite EVAL_EMBEDDER=none \\
        scripts/eval.sh scripts/ranker/train.jsonl -- --mode keyword --features
"""
import argparse
import json
import math


def load(path):
    """The tasks of `path` that are long questions (those with candidate files) and the
    feature names."""
    tasks, names = [], None
    for line in open(path):
        t = json.loads(line)
        names = names or t["features"]
        if not t["files"]:
            continue
        gold = set(t["gold_files"])
        tasks.append((t["instance_id"], t["files"], t["x"], [f in gold for f in t["files"]], len(gold)))
    return tasks, names


def scores(w, xs):
    return [sum(a * b for a, b in zip(w, x)) for x in xs]


def metrics(tasks, order_of):
    acc1 = acc5 = rec10 = 0.0
    for _, files, xs, gold, n_gold in tasks:
        order = order_of(xs)
        ranks = [r for r, i in enumerate(order) if gold[i]]
        acc1 += len([r for r in ranks if r < 1]) == n_gold
        acc5 += len([r for r in ranks if r < 5]) == n_gold
        rec10 += len([r for r in ranks if r < 10]) / max(n_gold, 1)
    n = max(len(tasks), 1)
    return f"Acc@1 {100 * acc1 / n:5.1f}  Acc@5 {100 * acc5 / n:5.1f}  R@10 {100 * rec10 / n:5.1f}  (n={len(tasks)})"


def fused_order(xs):
    return list(range(len(xs)))


def model_order(w):
    return lambda xs: sorted(range(len(xs)), key=lambda i: (-scores(w, [xs[i]])[0], i))


def loss_and_gradient(w, tasks, l2, prior):
    total, grad = 0.0, [0.0] * len(w)
    used = 0
    for _, _, xs, gold, _ in tasks:
        if not any(gold) or not xs:
            continue
        used += 1
        s = scores(w, xs)
        top = max(s)
        e = [math.exp(v - top) for v in s]
        z = sum(e)
        zg = sum(v for v, g in zip(e, gold) if g)
        total += -math.log(zg / z)
        for i, x in enumerate(xs):
            coefficient = e[i] / z - (e[i] / zg if gold[i] else 0.0)
            if coefficient:
                for j, xj in enumerate(x):
                    grad[j] += coefficient * xj
    used = max(used, 1)
    penalty = l2 * sum((wi - pi) ** 2 for wi, pi in zip(w, prior))
    return total / used + penalty, [g / used + 2 * l2 * (wi - pi) for g, wi, pi in zip(grad, w, prior)]


def fit(tasks, dims, l2, steps, prior=None):
    """The weights minimising the listwise loss plus l2 times their squared distance from
    `prior` (zeros by default)."""
    prior = prior or [0.0] * dims
    w = list(prior)
    m, v = [0.0] * dims, [0.0] * dims
    rate, b1, b2 = 0.05, 0.9, 0.999
    for step in range(1, steps + 1):
        loss, g = loss_and_gradient(w, tasks, l2, prior)
        for j in range(dims):
            m[j] = b1 * m[j] + (1 - b1) * g[j]
            v[j] = b2 * v[j] + (1 - b2) * g[j] * g[j]
            w[j] -= rate * (m[j] / (1 - b1 ** step)) / (math.sqrt(v[j] / (1 - b2 ** step)) + 1e-8)
    return w, loss


def rotation(tasks, names, a):
    """Held-out rotation over repositories (a task id is `train-<repository>__<commit>`): each
    fold's tasks are scored by a model fitted on the other folds'."""
    repository = lambda task: task[0].split("__")[0]
    repositories = sorted({repository(t) for t in tasks})
    held_out = []
    for fold in range(a.rotation):
        out = set(repositories[fold::a.rotation])
        w, _ = fit([t for t in tasks if repository(t) not in out], len(names), a.l2, a.steps)
        order = model_order(w)
        held_out += [(t, order) for t in tasks if repository(t) in out]
    fused = metrics([t for t, _ in held_out], fused_order)
    print(f"rotation over {len(repositories)} repositories in {a.rotation} folds:")
    print(f"  held out   fused  {fused}")
    acc1 = acc5 = rec10 = 0.0
    for t, order in held_out:
        line = metrics([t], order)
        values = [float(v) for v in line.split() if v.replace(".", "").isdigit()][:3]
        acc1, acc5, rec10 = acc1 + values[0], acc5 + values[1], rec10 + values[2]
    n = max(len(held_out), 1)
    print(f"  held out   model  Acc@1 {acc1 / n:5.1f}  Acc@5 {acc5 / n:5.1f}  R@10 {rec10 / n:5.1f}  (n={n})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("train")
    ap.add_argument("--test", action="append", default=[], help="NAME=FILE")
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--rotation", type=int, default=0, metavar="FOLDS",
                    help="also fit on all but a fold of the repositories and score the fold, for each fold")
    a = ap.parse_args()
    train, names = load(a.train)
    if a.rotation:
        rotation(train, names, a)
    w, loss = fit(train, len(names), a.l2, a.steps)
    print(f"fitted on {len(train)} long questions, loss {loss:.3f}, l2 {a.l2}")
    sets = [("train", train)] + [(spec.split("=", 1)[0], load(spec.split("=", 1)[1])[0]) for spec in a.test]
    for name, tasks in sets:
        print(f"  {name:10s} fused  {metrics(tasks, fused_order)}")
        print(f"  {name:10s} model  {metrics(tasks, model_order(w))}")
    print("pub const FITTED: Model = Model {\n    weights: [")
    for n, wi in zip(names, w):
        print(f"        {wi:.4f}, // {n}")
    print("    ],\n};")


if __name__ == "__main__":
    main()
