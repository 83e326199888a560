"""Finding the console running on this machine: its token files in hilsim's runtime directory
(as libhilbus reports it), and a listening loopback port."""

from __future__ import annotations

import os
import re
import socket

from . import _native
from ._protocol import HilsimError


def find_console() -> tuple[str, str | None]:
    """(url, token) of the one console running on this machine; the token is None when this
    user may not read it. Raises HilsimError when there is none or more than one. The token
    files are in hilsim's runtime directory, as libhilbus reports it
    (hilsim.bus.runtime_directory)."""
    try:
        directory = _native.runtime_directory()
    except OSError as e:  # LibraryNotFoundError too
        raise HilsimError(f"cannot look for a running console: {e}") from e
    consoles = []
    for name in sorted(os.listdir(directory)):
        m = re.fullmatch(r"console-(\d+)\.token", name)
        if m and _listening(int(m.group(1))):
            consoles.append((m.group(1), os.path.join(directory, name)))
    if len(consoles) != 1:
        raise HilsimError(
            f"{'no' if not consoles else len(consoles)} hilsim consoles in {directory}: "
            "pass the URL hilsim run printed (console: http://…)")
    port, path = consoles[0]
    token: str | None
    try:
        with open(path) as f:
            token = f.read().strip()
    except OSError:
        token = None
    return f"http://127.0.0.1:{port}/", token


def _listening(port: int) -> bool:
    """A console listens on this loopback port (a token file left by a killed run does not)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False
