"""Running rigs for the example suite: `hilsim run` with its console on a free port (the binary
from $HILSIM, else `hilsim` on PATH) — once in real time, once as fast as possible in lock-step
(`--speed max --paused`, stepped by the client)."""
import os
import pathlib
import re
import subprocess
import time
from collections.abc import Iterator

import pytest

import hilsim

Run = tuple[str, str]  # (console url, operator token) of a running rig

HERE = pathlib.Path(__file__).parent
MODES = {"realtime": ["--no-rt"], "paused": ["--speed", "max", "--paused"]}


def start_rig(scenario: str | pathlib.Path, mode: str,
              duration: str = "40s") -> tuple[subprocess.Popen[str], str, str]:
    """(process, url, token) of a RAVON run of `scenario` in `mode`, `duration` long."""
    binary = os.environ.get("HILSIM", "hilsim")
    process = subprocess.Popen(
        [binary, "run", "--rig", "ravon", "--scenario", str(scenario), *MODES[mode],
         "--duration", duration, "--no-record", "-q", "--console", "127.0.0.1:0"],
        stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    url = token = None
    end = time.monotonic() + 20
    while (url is None or token is None) and time.monotonic() < end:
        line = process.stderr.readline()
        if m := re.match(r"console: (http://\S+/)$", line.strip()):
            url = m.group(1)
        if m := re.search(r"operator token in (\S+) ", line):
            with open(m.group(1)) as f:
                token = f.read().strip()
    assert url and token, "hilsim run did not name its console"
    return process, url, token


def stop_rig(process: subprocess.Popen[str]) -> None:
    process.terminate()  # as Ctrl-C: the run ends cleanly and removes its token file
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module", params=list(MODES))
def run(request: pytest.FixtureRequest) -> Iterator[Run]:
    """The straight acceleration scenario (braking at 10 s), running for 40 s."""
    process, url, token = start_rig("straight_accel_brake", str(request.param))
    yield url, token
    stop_rig(process)


@pytest.fixture
def rig(run: Run) -> Iterator[hilsim.Rig]:
    url, token = run
    with hilsim.connect(url, token=token) as r:
        yield r


@pytest.fixture(params=list(MODES))
def parked(request: pytest.FixtureRequest) -> Iterator[hilsim.Rig]:
    """RAVON on a 15 % grade, asked for no speed (park_15_percent.pbtxt)."""
    process, url, token = start_rig(HERE / "park_15_percent.pbtxt", str(request.param))
    with hilsim.connect(url, token=token) as r:
        yield r
    stop_rig(process)
