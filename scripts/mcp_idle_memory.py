#!/usr/bin/env python3
"""Resident memory of `cocosearch mcp` (stdio) on a large project (a measurement, not a test).

Starts the server in PROJECT with --project-from-cwd, shakes hands, makes a few tool calls
(searches, index_stats, list_indexes) and reads VmRSS from /proc after each phase and after a
pause. The project must already be indexed (`cocosearch index` in it) in the database named by
COCOSEARCH_DATABASE_URL; every COCOSEARCH_* variable of the environment is passed on.

    COCOSEARCH_DATABASE_URL=postgresql://... COCOSEARCH_EMBEDDING_PROVIDER=none \\
        python3 scripts/mcp_idle_memory.py --bin target/release/cocosearch \\
        --project /root/.pyenv/versions/3.11.7/lib/python3.11

Extra environment for the server only (e.g. MALLOC_ARENA_MAX=2, to compare) goes after
--server-env. Only the standard library is used.
"""

import argparse
import json
import os
import subprocess
import sys
import time

from mcp_probe import rss_kb

QUERIES = [
    "where do we retry failed connections",
    "parse an HTTP header into a dictionary",
    "json.loads",
    "TimeoutError",
    "rotate log files when they get large",
    "HTTPConnection.request",
]




def threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


class Server:
    def __init__(self, argv, cwd, env):
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def call(self, method, params=None):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.send(request)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the server closed stdout during {method}")
            message = json.loads(line)
            if message.get("id") == self.next_id and ("result" in message or "error" in message):
                return message

    def tool(self, name, arguments):
        answer = self.call("tools/call", {"name": name, "arguments": arguments})
        result = answer.get("result", {})
        if answer.get("error") or result.get("isError"):
            sys.exit(f"{name} failed: {answer}")
        return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/cocosearch")
    parser.add_argument("--project", required=True)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the queries")
    parser.add_argument("--pause", type=float, default=5.0, help="seconds idle before the last reading")
    parser.add_argument("--server-env", nargs="*", default=[], help="KEY=VALUE for the server only")
    parser.add_argument(
        "--gdb-trim", action="store_true",
        help="diagnosis: at the end, call malloc_trim(0) in the server through gdb and read VmRSS again "
        "(what drops was freed memory that glibc kept, not live data)",
    )
    parser.add_argument(
        "--index", choices=["none", "incremental", "fresh"], default="none",
        help="run index_codebase in the server first and wait for it (fresh rebuilds the index)",
    )
    args = parser.parse_args()

    env = dict(os.environ)
    for item in args.server_env:
        key, _, value = item.partition("=")
        env[key] = value
    server = Server([os.path.abspath(args.bin), "mcp", "--project-from-cwd"], args.project, env)
    pid = server.proc.pid
    report = {}
    try:
        server.call(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "memory", "version": "1"}},
        )
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.call("tools/list")
        time.sleep(1)
        report["after_initialize_kb"] = rss_kb(pid)
        calls = 0
        if args.index != "none":
            started = time.time()
            server.tool("index_codebase", {"fresh": args.index == "fresh"})
            while True:
                status = server.tool("index_status", {"wait_seconds": 30})
                calls += 1
                state = status.get("structuredContent", {}).get("job", {}).get("state")
                if state not in ("running", "queued", None):
                    break
            report["index_state"] = state
            report["index_seconds"] = round(time.time() - started, 1)
            report["after_index_kb"] = rss_kb(pid)
        for _ in range(args.rounds):
            for query in QUERIES:
                server.tool("search_code", {"query": query, "limit": 10})
                calls += 1
        report["after_searches_kb"] = rss_kb(pid)
        server.tool("index_stats", {})
        server.tool("list_indexes", {})
        calls += 2
        report["calls"] = calls
        report["after_calls_kb"] = rss_kb(pid)
        time.sleep(args.pause)
        report["idle_kb"] = rss_kb(pid)
        report["threads"] = threads(pid)
        if args.gdb_trim:
            subprocess.run(
                ["gdb", "-p", str(pid), "-batch", "-ex", "call (int) malloc_trim(0)"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
            )
            report["after_malloc_trim_kb"] = rss_kb(pid)
        print(json.dumps(report, indent=2))
    finally:
        server.proc.stdin.close()
        try:
            server.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait()


if __name__ == "__main__":
    main()
