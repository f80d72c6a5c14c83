"""What the MCP measurement scripts share (not a script): a process's resident memory, a free
port, and waiting for a server to listen. Only the standard library is used."""

import socket
import time


def rss_kb(pid):
    """The resident memory (VmRSS) of `pid` in KB, or -1."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


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
