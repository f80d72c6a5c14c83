#!/usr/bin/env python3
"""Memory of `cocosearch mcp --transport http` under concurrent searches (a measurement, not a test).

Copies eight packages of this machine's Python standard library into a temporary project,
indexes them keyword-only into a temporary embedded store, starts the HTTP server on it, and
then, from WORKERS threads that each hold one MCP session, sends one `search_code` call per
worker at once (the first wave), then TOTAL calls more, as fast as the server answers. A
sampler reads the server's resident memory (VmRSS) every 20 ms. Prints the idle, peak and
settled memory (SETTLE seconds after the last answer) with the calls' outcomes and latencies.

    python3 scripts/mcp_concurrent_search.py --bin target/release/cocosearch --workers 250 --total 2000

With `--embedder static` or `--embedder minilm` the project is indexed with that built-in model
(its files from COCOSEARCH_TEST_STATIC_MODEL or COCOSEARCH_TEST_MINILM_DIR, which
`scripts/testenv.py env` prints) and every search is hybrid, so each embeds its query with the
one model the server shares among its sessions:

    export $(python3 scripts/testenv.py env | xargs)
    python3 scripts/mcp_concurrent_search.py --embedder minilm --packages json,http --workers 20 --total 200

Only the standard library is used.
"""

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
import threading
import time

from mcp_probe import free_port, rss_kb, status_kb, wait_listening

PACKAGES = ["asyncio", "email", "http", "json", "logging", "unittest", "xml", "concurrent"]
QUERIES = [
    "retry the request when the connection fails",
    "parse an email header with encoded words",
    "cancel a running task",
    "format a log record with a timestamp",
    "decode JSON numbers",
    "start a thread pool executor",
    "compare two xml trees",
    "read chunked http response",
]






def post(conn, body, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
    conn.request("POST", "/mcp", body=json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read().decode("utf-8", "replace")
    return response.status, response.getheader("Mcp-Session-Id"), data


def rpc_result(data):
    """The JSON-RPC message of a response body, plain or server-sent events."""
    for line in data.splitlines():
        if line.startswith("data:"):
            line = line[5:].strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


class Worker:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "concurrency-probe", "version": "1"},
            },
        }
        status, self.session, _ = post(self.conn, init)
        if status != 200 or not self.session:
            raise RuntimeError(f"initialize answered {status}")
        post(self.conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}, self.session)
        self.next_id = 1

    def search(self, query):
        self.next_id += 1
        call = {
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": "tools/call",
            "params": {"name": "search_code", "arguments": {"query": query, "limit": 5}},
        }
        started = time.time()
        status, _, data = post(self.conn, call, self.session)
        took = time.time() - started
        message = rpc_result(data) or {}
        result = message.get("result") or {}
        if status != 200:
            return f"http {status}", took
        if result.get("isError"):
            text = "".join(c.get("text", "") for c in result.get("content", []))
            return "error: " + text[:120], took
        return "ok", took


def embedder_env(embedder):
    """The settings that index and search with a built-in model (none: keyword only)."""
    if embedder == "none":
        return {}
    variable = {"static": "COCOSEARCH_TEST_STATIC_MODEL", "minilm": "COCOSEARCH_TEST_MINILM_DIR"}[embedder]
    path = os.environ.get(variable)
    if not path:
        raise SystemExit(f"{variable} is not set: run `export $(python3 scripts/testenv.py env | xargs)` first")
    settings = {"COCOSEARCH_EMBEDDING_PROVIDER": "builtin", "COCOSEARCH_EMBEDDING_MODEL_PATH": path}
    if embedder == "minilm":
        settings["COCOSEARCH_EMBEDDING_MODEL"] = "all-minilm-l6-v2"
    return settings


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/cocosearch")
    parser.add_argument("--workers", type=int, default=250)
    parser.add_argument("--total", type=int, default=2000)
    parser.add_argument("--settle", type=float, default=15.0)
    parser.add_argument("--embedder", choices=["none", "static", "minilm"], default="none")
    parser.add_argument("--packages", default=",".join(PACKAGES), help="standard library packages to index")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)

    work = tempfile.mkdtemp(prefix="cocosearch-concurrency-")
    project, store = os.path.join(work, "project"), os.path.join(work, "store")
    stdlib = sysconfig.get_paths()["stdlib"]
    for package in args.packages.split(","):
        shutil.copytree(os.path.join(stdlib, package), os.path.join(project, package),
                        ignore=shutil.ignore_patterns("__pycache__", "test", "tests"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("COCOSEARCH_")}
    env.update(COCOSEARCH_DATABASE_BACKEND="sqlite", COCOSEARCH_DATABASE_PATH=store,
               COCOSEARCH_EMBEDDING_PROVIDER="none", COCOSEARCH_MCP_MAX_SESSIONS=str(args.workers * 2))
    env.update(embedder_env(args.embedder))
    subprocess.run([binary, "index", "-q"], cwd=project, env=env, check=True)

    port = free_port()
    env["COCOSEARCH_PROJECT_PATH"] = project
    server = subprocess.Popen([binary, "mcp", "--transport", "http", "--port", str(port), "-q"], cwd=work, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_listening(server, port)
        workers = [Worker(port) for _ in range(args.workers)]
        # One search first, so idle memory includes an opened store.
        workers[0].search("warm up")
        time.sleep(1)
        idle = rss_kb(server.pid)
        peak = [idle]
        sampling = threading.Event()

        def sample():
            while not sampling.is_set():
                peak[0] = max(peak[0], rss_kb(server.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        outcomes, latencies, lock = {}, [], threading.Lock()

        def run(worker, calls, start):
            start.wait()
            for i in range(calls):
                outcome, took = worker.search(QUERIES[i % len(QUERIES)])
                with lock:
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
                    latencies.append(took)

        report = {"embedder": args.embedder, "workers": args.workers, "idle_mb": round(idle / 1024, 1)}
        for wave, per_worker in (("first_wave", [1] * args.workers),
                                 ("then", [args.total // args.workers + (i < args.total % args.workers)
                                           for i in range(args.workers)])):
            start = threading.Event()
            threads = [threading.Thread(target=run, args=(w, n, start)) for w, n in zip(workers, per_worker)]
            for t in threads:
                t.start()
            began = time.time()
            start.set()
            for t in threads:
                t.join()
            report[wave] = {"calls": sum(per_worker), "seconds": round(time.time() - began, 1)}
        sampling.set()
        sampler.join()
        report["peak_mb"] = round(peak[0] / 1024, 1)
        report["after_mb"] = round(rss_kb(server.pid) / 1024, 1)
        # Anonymous memory is the server's own; file-backed is mostly the store's mapped pages.
        report["after_anon_file_mb"] = [round(kb / 1024, 1) for kb in status_kb(server.pid, "RssAnon", "RssFile")]
        time.sleep(args.settle)
        report["settled_mb"] = round(rss_kb(server.pid) / 1024, 1)
        report["settled_over_idle_mb"] = round(report["settled_mb"] - report["idle_mb"], 1)
        report["outcomes"] = outcomes
        latencies.sort()
        report["latency_ms"] = {
            "p50": round(statistics.median(latencies) * 1000),
            "p95": round(latencies[int(len(latencies) * 0.95) - 1] * 1000),
            "max": round(latencies[-1] * 1000),
        }
        print(json.dumps(report, indent=2))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
