#!/usr/bin/python3
"""Faults across processes: the rig (`hilsim run`) and `hilsim ecu` talk cannelloni on
127.0.0.1; the ECU counts exactly the faulted frames (7 repeated counters, 5 bad CRCs, as the
in-process ECU does: tests/runtime/faults/fault_run_test.cpp), and python-can reads the frames as
sent in the run's can.log, corrupted ones included."""
import json
import os
import socket
import subprocess
import sys
import tempfile

import can

HILSIM = os.environ["HILSIM"]
HERE = os.path.dirname(os.path.abspath(__file__))
RIG = os.path.join(HERE, "e2e", "rig.pbtxt")
SCENARIO = os.path.join(HERE, "e2e", "counter_and_crc.pbtxt")
STEER_FEEDBACK = 0x230


def two_free_ports():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as a, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as b:
        a.bind(("127.0.0.1", 0))
        b.bind(("127.0.0.1", 0))
        return a.getsockname()[1], b.getsockname()[1]


def uri(peer, local):
    return f"cannelloni://127.0.0.1:{peer}?local=127.0.0.1:{local}"


def crc8_j1850(data):
    crc = 0xFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1D) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc ^ 0xFF


def main():
    rig_port, ecu_port = two_free_ports()
    with tempfile.TemporaryDirectory() as tmp:
        ecu_json = os.path.join(tmp, "ecu.json")
        run_dir = os.path.join(tmp, "run")
        ecu = subprocess.Popen([HILSIM, "ecu", "--rig", RIG, "--scenario", SCENARIO, "--can",
                                uri(rig_port, ecu_port), "--period", "250us", "--json", ecu_json,
                                "--quiet"], stdout=subprocess.DEVNULL)
        try:
            run = subprocess.run([HILSIM, "run", "--rig", RIG, "--scenario", SCENARIO, "--can",
                                  uri(ecu_port, rig_port), "--record", run_dir, "-q",
                                  "--console", "off", "--no-rt"],
                                 capture_output=True, text=True, timeout=60)
            print(run.stdout)
            ecu.terminate()  # it holds at its scenario's end once the rig is gone: SIGTERM ends it
            ecu.wait(timeout=30)
        finally:
            ecu.kill()
        assert run.returncode in (0, 4), run.stderr
        with open(ecu_json) as f:
            summary = json.load(f)
        rx = {m["name"]: m for m in summary["rx"]}["HIL_SteerFeedback"]
        print("ECU over cannelloni, HIL_SteerFeedback:", {k: rx[k] for k in (
            "frames", "errors", "crc_errors", "counter_errors", "length_errors")})
        assert rx["counter_errors"] == 7, rx
        assert rx["crc_errors"] == 5, rx
        assert rx["length_errors"] == 0, rx

        frames = [m for m in can.CanutilsLogReader(os.path.join(run_dir, "can.log"))
                  if m.arbitration_id == STEER_FEEDBACK]
        assert len(frames) > 150, len(frames)
        repeats = sum(1 for a, b in zip(frames, frames[1:]) if (a.data[6] & 0x0F) == (b.data[6] & 0x0F))
        bad_crc = sum(1 for m in frames if crc8_j1850(m.data[:7]) != m.data[7])
        print(f"python-can in can.log: {len(frames)} HIL_SteerFeedback frames, "
              f"{repeats} repeated counters, {bad_crc} bad CRCs")
        assert repeats == 7, repeats
        assert bad_crc == 5, bad_crc
    return 0


if __name__ == "__main__":
    sys.exit(main())
