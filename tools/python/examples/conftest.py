"""A running rig for the example suite: `hilsim run` with its console on a free port (the
binary from $HILSIM, else `hilsim` on PATH), the straight acceleration scenario — once in real
time, once as fast as possible in lock-step (`--speed max --paused`, stepped by the client)."""
import os
import re
import subprocess
import time

import pytest

import hilsim


MODES = {"realtime": ["--no-rt"], "paused": ["--speed", "max", "--paused"]}


@pytest.fixture(scope="module", params=list(MODES))
def run(request):
    binary = os.environ.get("HILSIM", "hilsim")
    process = subprocess.Popen(
        [binary, "run", "--rig", "ravon", "--scenario", "straight_accel_brake", *MODES[request.param],
         "--no-record", "-q", "--console", "127.0.0.1:0"],
        stderr=subprocess.PIPE, text=True)
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
    yield url, token
    process.kill()
    process.wait()


@pytest.fixture
def rig(run):
    url, token = run
    with hilsim.connect(url, token=token) as r:
        yield r
