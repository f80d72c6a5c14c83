#!/usr/bin/env python3
"""Is the embedding model loaded once per server? (A measurement, not a test.)

Starts `cocosearch mcp --transport http --project-from-cwd` in PROJECT (already indexed with the
model to measure), then opens SESSIONS sessions one after another; each initializes and calls
`search_code` once with its own query (so each embeds a query with the model). Reads the
server's resident memory (VmRSS) before any session, after the first session's search, and after
the last. A model loaded per session would add its size (MiniLM: ~90 MB of weights) each time.

    COCOSEARCH_EMBEDDING_MODEL_PATH=/path/to/all-minilm-l6-v2 \\
        python3 scripts/mcp_shared_model_memory.py --bin target/release/cocosearch \\
        --project /tmp/json-and-http --sessions 8

Every COCOSEARCH_* variable of the environment is passed on. Only the standard library is used.
"""

import argparse
import http.client
import json
import os
import time

from mcp_probe import free_port, rss_kb, serving

QUERIES = [
    "parse an HTTP header into a dictionary",
    "decode a JSON document with a custom object hook",
    "send a request and read the response status",
    "escape non-ASCII characters when encoding",
    "parse cookies from a header",
    "serve files from a directory over HTTP",
    "pretty print JSON with indentation",
    "handle a chunked transfer encoding",
    "raise an error on an invalid JSON escape",
    "build the status line of a response",
    "set a timeout on the connection",
    "read the body of a POST request",
]

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def post(port, body, session=None):
    """One JSON-RPC message; returns the session id the server gave and the decoded reply."""
    headers = dict(HEADERS)
    if session:
        headers["Mcp-Session-Id"] = session
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("POST", "/mcp", body=json.dumps(body), headers=headers)
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    # A streamed reply is server-sent events: the JSON is on its data lines.
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    payload = next((json.loads(d) for d in data if d), None) if data else (json.loads(text) if text else None)
    return response.getheader("Mcp-Session-Id"), payload


def one_session(port, query):
    session, _ = post(port, {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "shared-model-probe", "version": "1"}},
    })
    post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    _, reply = post(port, {
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "search_code", "arguments": {"query": query, "mode": "hybrid", "limit": 3}},
    }, session)
    structured = ((reply or {}).get("result") or {}).get("structuredContent") or {}
    return structured.get("degraded"), len(structured.get("results", []))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/cocosearch")
    parser.add_argument("--project", required=True)
    parser.add_argument("--sessions", type=int, default=8)
    args = parser.parse_args()

    port = free_port()
    command = [os.path.abspath(args.bin), "mcp", "--transport", "http", "--port", str(port), "--project-from-cwd", "-q"]
    with serving(command, port, cwd=args.project) as server:
        report = {"before_kb": rss_kb(server.pid), "sessions": []}
        for i in range(args.sessions):
            degraded, hits = one_session(port, QUERIES[i % len(QUERIES)])
            report["sessions"].append({"rss_kb": rss_kb(server.pid), "hits": hits, "degraded": degraded})
        time.sleep(1)
        report["after_kb"] = rss_kb(server.pid)
        print(json.dumps(report, indent=2))

if __name__ == "__main__":
    main()
