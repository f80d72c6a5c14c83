"""Runs a command on a pseudo-terminal and prints what the terminal showed.

    python3 tests/terminal.py PROGRAM [ARGS...]

The tests use it where a command behaves differently on a terminal (colours, pagers, man);
Python's pty module is there wherever the test command runs, unlike util-linux's `script`.
"""

import os
import pty
import subprocess
import sys


def main():
    leader, follower = pty.openpty()
    child = subprocess.Popen(sys.argv[1:], stdin=follower, stdout=follower, stderr=follower, close_fds=True)
    os.close(follower)
    shown = bytearray()
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        shown += data
    child.wait()
    sys.stdout.buffer.write(shown)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
