#!/usr/bin/env python3
"""Memory of `cocosearch mcp --transport http` under many MCP sessions (a measurement, not a test).

Starts the server, reads its resident memory (VmRSS), opens N sessions with raw `initialize`
requests (each a session that is never closed, as careless clients leave them), reads the memory
and the live session count (`/health`) again, then optionally waits for the idle timeout and
reads them once more.

    python3 scripts/mcp_session_memory.py --bin target/release/cocosearch --sessions 3000 \
        --idle-timeout 20 --max-sessions 10000

The database need not be reachable: `initialize` does not touch it. Only the standard library
is used.
"""

import argparse
import http.client
import json
import os
import tempfile
import time

from mcp_probe import free_port, rss_kb, serving

INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "memory-probe", "version": "1"},
        },
    }
)






def health(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/health")
    body = conn.getresponse().read()
    conn.close()
    return json.loads(body)


def initialize(conn):
    conn.request(
        "POST",
        "/mcp",
        body=INITIALIZE,
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    response = conn.getresponse()
    response.read()
    return response.status


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/cocosearch")
    parser.add_argument("--sessions", type=int, default=3000)
    parser.add_argument("--idle-timeout", type=int, default=None, help="mcp.sessionIdleTimeout, seconds")
    parser.add_argument("--max-sessions", type=int, default=None, help="mcp.maxSessions")
    parser.add_argument("--wait", action="store_true", help="wait for the idle timeout and measure again")
    args = parser.parse_args()

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("COCOSEARCH_")}
    env["COCOSEARCH_DATABASE_URL"] = env.get("MEMORY_DATABASE_URL", "postgresql://u@127.0.0.1:1/none")
    env["COCOSEARCH_EMBEDDING_PROVIDER"] = "none"
    if args.idle_timeout is not None:
        env["COCOSEARCH_MCP_SESSION_IDLE_TIMEOUT"] = str(args.idle_timeout)
    if args.max_sessions is not None:
        env["COCOSEARCH_MCP_MAX_SESSIONS"] = str(args.max_sessions)
    cwd = tempfile.mkdtemp(prefix="cocosearch-memory-")
    command = [os.path.abspath(args.bin), "mcp", "--transport", "http", "--port", str(port), "-q"]
    with serving(command, port, cwd=cwd, env=env) as server:
        report = {"before_kb": rss_kb(server.pid)}
        statuses = {}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        started = time.time()
        for _ in range(args.sessions):
            status = initialize(conn)
            statuses[status] = statuses.get(status, 0) + 1
        conn.close()
        report["initialize_seconds"] = round(time.time() - started, 1)
        report["statuses"] = statuses
        time.sleep(1)
        report["after_kb"] = rss_kb(server.pid)
        report["sessions_after"] = health(port).get("sessions")
        if args.wait and args.idle_timeout is not None:
            time.sleep(args.idle_timeout + 5)
            report["after_idle_kb"] = rss_kb(server.pid)
            report["sessions_after_idle"] = health(port).get("sessions")
            # The same number again: memory the expired sessions freed is reused, not added to.
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            for _ in range(args.sessions):
                initialize(conn)
            conn.close()
            time.sleep(1)
            report["after_second_round_kb"] = rss_kb(server.pid)
            report["sessions_after_second_round"] = health(port).get("sessions")
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
