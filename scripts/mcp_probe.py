"""What the MCP measurement scripts share (not a script): a process's resident memory, a free
port, and a server started, listening, and stopped. Only the standard library is used."""

import contextlib
import socket
import subprocess
import time


def status_kb(pid, *keys):
    """The fields `keys` of `/proc/<pid>/status` (`VmRSS`, `RssAnon`, …) in KB, -1 for a missing one."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in keys:
                fields[key] = int(value.split()[0])
    return tuple(fields.get(key, -1) for key in keys)


def rss_kb(pid):
    """The resident memory (VmRSS) of `pid` in KB, or -1."""
    return status_kb(pid, "VmRSS")[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(server, port, seconds=30):
    """Waits until `port` accepts connections; exits if `server` (a Popen) ends first."""
    deadline = time.time() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.05)


@contextlib.contextmanager
def serving(command, port, **popen):
    """Runs `command` (a server on `port`, its output discarded) until the block ends; yields
    its Popen once it listens."""
    server = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen
    )
    try:
        wait_listening(server, port)
        time.sleep(0.5)
        yield server
    finally:
        server.terminate()
        server.wait()
