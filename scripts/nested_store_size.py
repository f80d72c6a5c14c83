#!/usr/bin/env python3
"""How big the embedded store grows on deeply nested definitions (a measurement, not a test).

Writes each file below into a project of its own (10,000 nested Rust `mod`s, the same 10,000
side by side, 5,000 nested JavaScript functions), indexes it keyword-only with BIN, and prints
the file's size, the store's size, their ratio, the time and the peak memory of the run.
Issue 25 asks for a store of at most 50 times the file.

    python3 scripts/nested_store_size.py --bin target/release/cocosearch

Only the standard library is used.
"""

import argparse
import os
import subprocess
import tempfile
import time


def files():
    rust_depth, js_depth = 10_000, 5_000
    yield ("rust, 10,000 nested mods", "lib.rs",
           "".join(f"mod m{i} {{\n" for i in range(rust_depth)) + "fn f() {}\n" + "}\n" * rust_depth)
    yield ("rust, the same mods side by side", "lib.rs",
           "".join(f"mod m{i} {{\n}}\n" for i in range(rust_depth)) + "fn f() {}\n")
    yield ("javascript, 5,000 nested functions", "index.js",
           "".join(f"function f{i}() {{\n" for i in range(js_depth)) + "return 1;\n" + "}\n" * js_depth)


def tree_size(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(path) for f in names)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    print(f"{'file':<38} {'file KB':>8} {'store KB':>9} {'ratio':>6} {'time s':>7} {'peak MB':>8}")
    for label, name, text in files():
        with tempfile.TemporaryDirectory(prefix="cocosearch-nested-") as work:
            project, store = os.path.join(work, "project"), os.path.join(work, "store")
            os.makedirs(project)
            with open(os.path.join(project, name), "w") as f:
                f.write(text)
            env = dict(os.environ, COCOSEARCH_DATABASE_PATH=store, COCOSEARCH_EMBEDDING_PROVIDER="none")
            started = time.time()
            run = subprocess.Popen([args.bin, "index", "-q", project], env=env)
            _, status, usage = os.wait4(run.pid, 0)
            elapsed = time.time() - started
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"{label}: cocosearch index failed")
            size, stored = len(text.encode()), tree_size(store)
            print(f"{label:<38} {size / 1024:>8.0f} {stored / 1024:>9.0f} {stored / size:>5.1f}x "
                  f"{elapsed:>7.2f} {usage.ru_maxrss / 1024:>8.0f}")


if __name__ == "__main__":
    main()
