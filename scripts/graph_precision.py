#!/usr/bin/env python3
"""Precision and recall of cocosearch's Python code graph against an independent extractor.

The reference is built here from Python's own rules with the standard library's `ast`
module, sharing nothing with the Rust code:

* file dependencies: every `import a.b` / `from a.b import c` / `from . import c` of every
  Python file, resolved against the tree (package roots are the parents of the outermost
  packages, and a file's own directory for a file outside any package); `from M import n`
  depends on the module `M.n` when that is a file, else on `M`'s file. Imports that resolve
  to no file of the tree are outside the project and not edges.
* call references of functions called by plain name: every `f(...)` where `f` is bound at
  the module level of the calling file to a top-level function of the project — defined in
  that file, or imported with `from M import f [as g]` (following re-exports).

cocosearch's side is `cocosearch deps . --json` (edges resolved to a project file) and
`cocosearch refs NAME --json` (plain-name calls whose target is that definition), on an index
this script builds with `cocosearch index --no-embed` in REPO (the store comes from the usual
COCOSEARCH_* environment).

    scripts/graph_precision.py --bin target/debug/cocosearch --repo /tmp/requests-graph
"""

import argparse
import ast
import json
import os
import subprocess
import sys


def python_files(repo):
    out = []
    for d, dirs, files in os.walk(repo):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, f), repo))
    return out


def package_roots(repo, files):
    """Directories from which top-level imports are found."""
    roots = {""}
    for f in files:
        d = os.path.dirname(f)
        if not os.path.exists(os.path.join(repo, d, "__init__.py")):
            roots.add(d)  # a script's own directory is sys.path[0]
            continue
        while d and os.path.exists(os.path.join(repo, os.path.dirname(d), "__init__.py")):
            d = os.path.dirname(d)
        roots.add(os.path.dirname(d))
    return sorted(roots)


def module_file(repo, base, dotted):
    """The file of module `dotted` under directory `base` (`base`'s package when empty)."""
    parts = [p for p in dotted.split(".") if p]
    path = os.path.join(base, *parts)
    candidates = ([path + ".py"] if parts else []) + [os.path.join(path, "__init__.py")]
    for candidate in candidates:
        if os.path.isfile(os.path.join(repo, candidate)):
            return os.path.normpath(candidate)
    return None


def resolve(repo, roots, current, level, module):
    """The file an import of `module` (with `level` leading dots) in `current` names."""
    if level:
        base = os.path.dirname(current)
        for _ in range(level - 1):
            base = os.path.dirname(base)
        return module_file(repo, base, module or "")
    for root in roots:
        found = module_file(repo, root, module)
        if found:
            return found
    return None


def imports_of(repo, roots, path, tree):
    """(line, file, bound names {local: (file, name)}) per import statement of `tree`."""
    edges = set()
    bindings = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = resolve(repo, roots, path, 0, alias.name)
                if target:
                    edges.add(target)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:
                sub = resolve(repo, roots, path, node.level, (module + "." if module else "") + alias.name)
                if sub and alias.name != "*":
                    edges.add(sub)
                    continue
                target = resolve(repo, roots, path, node.level, module)
                if target:
                    edges.add(target)
                    if node.col_offset == 0 and alias.name != "*":
                        bindings[alias.asname or alias.name] = (target, alias.name)
    return edges, bindings


def reference(repo):
    files = python_files(repo)
    roots = package_roots(repo, files)
    trees, deps, bindings, defs = {}, set(), {}, set()
    for f in files:
        with open(os.path.join(repo, f), encoding="utf-8") as fh:
            trees[f] = ast.parse(fh.read(), f)
        edges, bound = imports_of(repo, roots, f, trees[f])
        deps |= {(f, t) for t in edges}
        bindings[f] = bound
        for node in trees[f].body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.add((f, node.name))
                bindings[f][node.name] = (f, node.name)

    def follow(binding, seen=()):
        """A binding through re-exports to the defining file."""
        f, name = binding
        if (f, name) in defs:
            return (f, name)
        nxt = bindings.get(f, {}).get(name)
        if nxt and nxt not in seen and nxt != binding:
            return follow(nxt, seen + (binding,))
        return None

    calls = set()
    for f, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                bound = bindings[f].get(node.func.id)
                target = follow(bound) if bound else None
                if target:
                    calls.add((target, f, node.func.lineno))
    return deps, calls, defs


def ours(binary, repo, defs):
    def run(*args):
        out = subprocess.run([binary, *args, "--json"], cwd=repo, capture_output=True, text=True, check=True)
        return json.loads(out.stdout)

    subprocess.run([binary, "index", "-q", "--no-embed"], cwd=repo, check=True)
    deps = set()
    for e in run("deps", ".", "--limit", "100000")["edges"]:
        if e["from"].endswith(".py") and e["to"] and e["to"].endswith(".py"):
            deps.add((e["from"], e["to"]))
    calls, exact = set(), set()
    for name in sorted({n for _, n in defs}):
        for r in run("refs", name, "--limit", "100000")["results"]:
            target = r.get("target") or {}
            if r["kind"] != "call" or r["qualifier"] is not None or target.get("qualified_name") != name:
                continue
            site = ((target["path"], name), r["path"], r["line"])
            calls.add(site)
            if r["certainty"] == "exact":
                exact.add(site)
    return deps, calls, exact


def score(name, truth, found):
    hit = truth & found
    p = len(hit) / len(found) if found else 1.0
    r = len(hit) / len(truth) if truth else 1.0
    print(f"{name}: reference {len(truth)}, ours {len(found)}, both {len(hit)}: precision {p:.3f}, recall {r:.3f}")
    for miss in sorted(truth - found)[:15]:
        print(f"  missed  {miss}")
    for extra in sorted(found - truth)[:15]:
        print(f"  extra   {extra}")
    return p, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the cocosearch binary")
    ap.add_argument("--repo", required=True, help="the checked-out repository (it is indexed)")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    binary = os.path.abspath(args.bin)
    ref_deps, ref_calls, defs = reference(repo)
    our_deps, our_calls, our_exact = ours(binary, repo, defs)
    score("file dependencies", ref_deps, our_deps)
    score("plain-name calls of project functions", ref_calls, our_calls)
    score("  of them marked exact", ref_calls, our_exact)


if __name__ == "__main__":
    sys.exit(main())
