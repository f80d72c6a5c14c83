#!/usr/bin/env python3
"""How fast `cocosearch mcp` lets go of a core when nobody waits any more (a measurement, not a test).

Starts a `get_call_chain` call between two common names on an existing index (the standard
library's `__init__` and `__repr__`: a dense call graph whose search runs to its time limit),
then, WAIT seconds into the call, either closes the server's stdin (stdio: the client left) or
sends SIGTERM (HTTP: the server is stopped), and prints the time from then until the process
has exited, with the CPU seconds it spent after it.

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


def http_sigterm(args, env, cwd):
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
    stopped = time.time()
    server.send_signal(signal.SIGTERM)
    return watch_exit(server, stopped)


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
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
