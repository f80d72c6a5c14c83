#!/usr/bin/env python3
"""How fast `cocosearch mcp` lets go of a core when nobody waits any more (a measurement, not a test).

Starts a `get_call_chain` call between two common names on an existing index (the standard
library's `__init__` and `__repr__`: a dense call graph whose search runs to its time limit),
then, WAIT seconds into the call, closes the server's stdin (stdio: the client left) or sends
SIGTERM (HTTP: the server is stopped), and prints the time from then until the process has
exited, with the CPU seconds it spent after it. On HTTP it also ends the call's session
(DELETE /mcp) or drops the call's connection, and prints the time until the server's CPU
time stops growing.

    python3 scripts/mcp_disconnect.py --bin target/release/cocosearch --store DIR --index stdlib

DIR is the embedded store holding the index (`COCOSEARCH_DATABASE_PATH` of the run that made
it). Only the standard library is used.
"""

import argparse
import http.client
import json
import os
import signal
import subprocess
import tempfile
import threading
import time

from mcp_probe import free_port, wait_listening


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def message(i, method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if i is not None:
        m["id"] = i
    if params is not None:
        m["params"] = params
    return m


INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "disconnect-probe", "version": "1"}}


def call(args):
    return {"name": "get_call_chain",
            "arguments": {"from_name": args.from_name, "to_name": args.to_name, "index_name": args.index}}


def watch_exit(server, since):
    """Seconds from `since` until the server exits, and its CPU seconds after `since`."""
    cpu_at = cpu_seconds(server.pid)
    last_cpu = cpu_at
    while server.poll() is None:
        try:
            last_cpu = cpu_seconds(server.pid)
        except (FileNotFoundError, ProcessLookupError, IndexError):
            break
        time.sleep(0.005)
    server.wait()
    return round(time.time() - since, 3), round(last_cpu - cpu_at, 3)


def stdio(args, env, cwd):
    server = subprocess.Popen([args.bin, "mcp", "-q"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(m):
        server.stdin.write((json.dumps(m) + "\n").encode())
        server.stdin.flush()

    send(message(1, "initialize", INIT))
    server.stdout.readline()
    send(message(None, "notifications/initialized"))
    threading.Thread(target=lambda: server.stdout.read(), daemon=True).start()
    send(message(2, "tools/call", call(args)))
    time.sleep(args.wait)
    left = time.time()
    server.stdin.close()
    return watch_exit(server, left)


def http_call(args, env, cwd):
    """A server on HTTP with one session whose `get_call_chain` is in flight, and its headers."""
    port = free_port()
    server = subprocess.Popen([args.bin, "mcp", "--transport", "http", "--port", str(port), "-q"], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(server, port)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/mcp", body=json.dumps(message(1, "initialize", INIT)), headers=headers)
    response = conn.getresponse()
    session = response.getheader("Mcp-Session-Id")
    response.read()
    headers["Mcp-Session-Id"] = session
    conn.request("POST", "/mcp", body=json.dumps(message(None, "notifications/initialized")), headers=headers)
    conn.getresponse().read()
    caller = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    caller.request("POST", "/mcp", body=json.dumps(message(2, "tools/call", call(args))), headers=headers)
    time.sleep(args.wait)
    return server, port, headers, caller


def http_sigterm(args, env, cwd):
    server, _, _, _ = http_call(args, env, cwd)
    stopped = time.time()
    server.send_signal(signal.SIGTERM)
    return watch_exit(server, stopped)


def watch_idle(server, since, settle=0.3, most=5.0):
    """Seconds from `since` until the server's CPU time stops growing (for `settle` seconds)."""
    last, idle_since = cpu_seconds(server.pid), None
    while time.time() - since < most:
        time.sleep(0.01)
        now = cpu_seconds(server.pid)
        if now != last:
            idle_since, last = None, now
        elif idle_since is None:
            idle_since = time.time()
        elif time.time() - idle_since >= settle:
            break
    free = round((idle_since or time.time()) - since, 3)
    server.terminate()
    server.wait()
    return free, None


def http_session_closed(args, env, cwd):
    """The client ends its session (DELETE /mcp) while its call runs."""
    server, port, headers, _ = http_call(args, env, cwd)
    closer = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    closer.request("DELETE", "/mcp", headers=headers)
    closer.getresponse().read()
    return watch_idle(server, time.time())


def http_connection_dropped(args, env, cwd):
    """The client drops the call's connection and keeps its session: MCP says that is no
    cancellation (the client may resume the stream), so the search runs to its time limit."""
    server, _, _, caller = http_call(args, env, cwd)
    caller.sock.close()
    return watch_idle(server, time.time())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/cocosearch")
    parser.add_argument("--store", required=True)
    parser.add_argument("--index", default="stdlib")
    parser.add_argument("--from-name", default="__init__")
    parser.add_argument("--to-name", default="__repr__")
    parser.add_argument("--wait", type=float, default=0.3)
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    env = {k: v for k, v in os.environ.items() if not k.startswith("COCOSEARCH_")}
    env.update(COCOSEARCH_DATABASE_BACKEND="sqlite", COCOSEARCH_DATABASE_PATH=args.store,
               COCOSEARCH_EMBEDDING_PROVIDER="none")
    cwd = tempfile.mkdtemp(prefix="cocosearch-disconnect-")
    report = {}
    for name, run in (("stdio_client_left", stdio), ("http_sigterm", http_sigterm)):
        seconds, cpu = run(args, env, cwd)
        report[name] = {"exit_seconds_after": seconds, "cpu_seconds_after": cpu}
    for name, run in (("http_session_closed", http_session_closed), ("http_connection_dropped", http_connection_dropped)):
        seconds, _ = run(args, env, cwd)
        report[name] = {"core_free_seconds_after": seconds}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
