"""Diagnostics a test engineer checks (docs/diagnostics.md): the shipped scenario
lost_wheel_speeds_dtc drops RAVON's HIL_WheelSpeeds for 200 ms at 1 s. The ECU's DTC C12300 must
be set (pending, confirmed), read over UDS by the Python client and by `hilsim uds`, cleared with
0x14 and not set again while the frames flow; the run, UDS requests included, replays identically.
Run paused (lock-step): every request lands at the same tick every time."""
import os
import pathlib
import re
import subprocess
from collections.abc import Iterator

import pytest

import hilsim
from hilsim._uds import CONFIRMED, PENDING, TEST_FAILED

from conftest import stop_rig

C12300 = 0xC12300
TICKS_PER_S = 4000
HILSIM = os.environ.get("HILSIM", "hilsim")


DtcRun = tuple[hilsim.Rig, str, str, pathlib.Path, "subprocess.Popen[str]"]


@pytest.fixture(scope="module")
def dtc_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DtcRun]:
    """(rig, url, token, run directory, process) of the scenario, paused, recorded."""
    record = tmp_path_factory.mktemp("dtc") / "run"
    process = subprocess.Popen(
        [HILSIM, "run", "--rig", "ravon", "--scenario", "lost_wheel_speeds_dtc", "--speed", "max",
         "--paused", "--record", str(record), "-q", "--console", "127.0.0.1:0"],
        stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    url = token = None
    while url is None or token is None:
        line = process.stderr.readline()
        assert line, "hilsim run ended before naming its console"
        if m := re.match(r"console: (http://\S+/)$", line.strip()):
            url = m.group(1)
        if m := re.search(r"operator token in (\S+) ", line):
            token = pathlib.Path(m.group(1)).read_text().strip()
    with hilsim.connect(url, token=token) as rig:
        yield rig, url, token, record, process
    stop_rig(process)


def test_dtc_set_read_cleared_and_not_set_again(dtc_run: DtcRun) -> None:
    rig, url, token, _, _ = dtc_run
    assert rig.uds.read_did(0xF190) == b"RAVON0HILSIM00001"
    assert C12300 not in rig.uds.read_dtcs(0x0D), "nothing failed before the loss"
    # the loss (1.0–1.2 s): the ECU sets C12300 pending and confirmed within its debounce
    # (the rig's tester reads the status every 100 ms: 0x2F = testFailed, …ThisOperationCycle,
    # pendingDTC, confirmedDTC, testFailedSinceLastClear)
    tick, _ = rig.wait_for("diag.dtc.wheel_speeds_lost.status == 47", timeout=2)
    assert 1.0 * TICKS_PER_S < tick < 1.2 * TICKS_PER_S
    status = rig.uds.read_dtcs()[C12300]
    assert status & PENDING and status & CONFIRMED, hex(status)
    # `hilsim uds` through the same console reads the same DTC (once we give up the operator lock)
    rig.unlock()
    cli = subprocess.run([HILSIM, "uds", "--console", url, "--token", token, "read-dtc",
                          "dtc-info", "C12300"], capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert "C12300 status 0x2" in cli.stdout, cli.stdout
    assert "record 0x01 (occurrence counter) = 1" in cli.stdout, cli.stdout
    # frames flow again from 1.2 s: testFailed goes, confirmed stays until cleared
    rig.step(seconds=1.0)
    status = rig.uds.read_dtcs()[C12300]
    assert not status & TEST_FAILED and status & CONFIRMED, hex(status)
    response = rig.uds.clear_dtcs()
    assert response.response == b"\x54" and response.tick > response.sent_tick
    rig.step(seconds=0.5)
    assert C12300 not in rig.uds.read_dtcs(0x0D), "cleared and not set again"
    # a request the ECU refuses comes back with its NRC, not as an exception
    refused = rig.uds.request("2E020001")  # WriteDataByIdentifier in the default session
    assert refused.negative == 0x7F and not refused.positive
    with pytest.raises(hilsim.UdsError) as e:
        rig.uds.write_did(0x0200, b"\x01")
    assert e.value.nrc == 0x7F


def test_the_run_replays_identically(dtc_run: DtcRun) -> None:
    rig, _, _, record, process = dtc_run
    rig.stop()
    assert process.wait(30) == 0
    log = (record / "commands.log").read_text()
    assert re.search(r"^\d+ uds 14FFFFFF$", log, re.M), log
    replay = subprocess.run([HILSIM, "replay", str(record), "--console", "off", "-q"],
                            capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0 and replay.stdout.startswith("identical:"), \
        replay.stdout + replay.stderr
