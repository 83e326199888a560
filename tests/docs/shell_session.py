"""One bash for a whole page, as a reader's terminal: `cd`, `export` and `$?` carry from one
command to the next. Each command runs with stdin from /dev/null; its stdout and stderr are
read together, as a terminal shows them, up to a marker the shell prints after it.

A command ending in "&" runs in the background with its output in a log file of its own
(the page does not show it: it would interleave); the shell's jobs (`%1`, `wait`, `kill`)
work as in a terminal. Everything the page started is ended with the page (SIGTERM, then
SIGKILL).
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import time
import uuid

# "cmd &" (not "&&"), before an optional comment
_BACKGROUND = re.compile(r"^(?P<cmd>.*[^&\s])\s*&(?P<rest>\s*(?:#.*)?)$")


class CommandTimeout(Exception):
    pass


def background_logged(command: str, log_dir: str, counter: list[int]) -> str:
    """The command with each line that ends in "&" sending its output to a log of its own.
    The log's redirection comes first, so the command's own redirections still win."""
    out = []
    for line in command.split("\n"):
        m = _BACKGROUND.match(line)
        if m and not line.lstrip().startswith("#"):
            counter[0] += 1
            log = os.path.join(log_dir, f"background_{counter[0]}.log")
            indent = len(line) - len(line.lstrip())
            line = f"{line[:indent]}>{log} 2>&1 {m.group('cmd').strip()} &{m.group('rest')}"
        out.append(line)
    return "\n".join(out)


class Shell:
    """A bash process in a session of its own (its process group holds everything it
    starts)."""

    def __init__(self, cwd: str, env: dict[str, str], log_dir: str) -> None:
        self.cwd, self.env, self.log_dir = cwd, env, log_dir
        self._background = [0]
        self._start()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, cwd=self.cwd, env=self.env, start_new_session=True)

    def run(self, command: str, timeout: float) -> tuple[str, int]:
        """Runs one command; returns what it printed (stdout and stderr as they came) and
        its exit status. Raises CommandTimeout (after ending the shell and starting a new
        one) when it takes longer than `timeout` seconds."""
        marker = f"__doctest_{uuid.uuid4().hex}__"
        command = background_logged(command, self.log_dir, self._background)
        script = (f"{{\n{command}\n}} </dev/null\n__doctest_rc=$?\n"
                  f"printf '\\n{marker} %d\\n' \"$__doctest_rc\"\n(exit $__doctest_rc)\n")
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(script.encode())
        self.process.stdin.flush()
        data = b""
        deadline = time.monotonic() + timeout
        end = re.compile(rb"\n" + marker.encode() + rb" (\d+)\n")
        fd = self.process.stdout.fileno()
        while not (found := end.search(data)):
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                self._start()
                raise CommandTimeout(data.decode(errors="replace"))
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:  # the shell exited (`exit` in a page?)
                    self._start()
                    return data.decode(errors="replace"), 255
                data += chunk
        return data[:found.start()].decode(errors="replace"), int(found.group(1))

    def close(self) -> None:
        """Ends the shell and everything it started."""
        for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                break
            end = time.monotonic() + grace
            while time.monotonic() < end:
                try:
                    os.killpg(self.process.pid, 0)
                except ProcessLookupError:
                    break
                self.process.poll()
                time.sleep(0.05)
        self.process.wait()
