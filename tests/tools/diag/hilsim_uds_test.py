#!/usr/bin/python3
"""`hilsim uds` against `hilsim ecu` (RAVON's built-in ECU as its own process) over cannelloni
on 127.0.0.1: what it prints for each step, its exit status (0 all positive, 1 a negative
response, 2 a bad step), a 200-byte DID written and read back (multi-frame both ways)."""
import os
import socket
import subprocess
import sys
import time

HILSIM = os.environ["HILSIM"]


def two_free_ports():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as a, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as b:
        a.bind(("127.0.0.1", 0))
        b.bind(("127.0.0.1", 0))
        return a.getsockname()[1], b.getsockname()[1]


def uds(port_ecu, port_tester, *steps):
    return subprocess.run([HILSIM, "uds", "--can",
                           f"cannelloni://127.0.0.1:{port_ecu}?local=127.0.0.1:{port_tester}",
                           *steps], capture_output=True, text=True, timeout=60)


def main():
    ecu_port, tester_port = two_free_ports()
    ecu = subprocess.Popen([HILSIM, "ecu", "--rig", "ravon", "--can",
                            f"cannelloni://127.0.0.1:{tester_port}?local=127.0.0.1:{ecu_port}",
                            "--speed", "0", "--duration", "30s", "-q"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = []
    try:
        time.sleep(1.0)  # its messages time out: C12300 and C12400 confirmed
        data = bytes((i * 7) & 0xFF for i in range(200)).hex().upper()
        r = uds(ecu_port, tester_port, "read-did", "F190", "read-dtc", "session", "3",
                "security", "write-did", "0200", data, "read-did", "0200", "dtc-info",
                "C12300", "clear-dtc", "count-dtc", "09")
        print(r.stdout, r.stderr)
        out = r.stdout
        checks = [
            (r.returncode == 0, f"exit status {r.returncode}, expected 0"),
            ('"RAVON0HILSIM00001"' in out, "the VIN"),
            ("C12300 status 0x2F" in out, "C12300 confirmed"),
            ("SecurityAccess sendKey level 1: unlocked" in out, "unlocked"),
            ("WriteDataByIdentifier 0200" in out, "the 200-byte write"),
            (" ".join(data[i:i + 2] for i in range(0, len(data), 2)) in out, "read back as written"),
            ("record 0x01 (occurrence counter) = 1" in out, "occurrence counter"),
            ("ClearDiagnosticInformation" in out, "cleared"),
        ]
        failures += [what for ok, what in checks if not ok]
        bad = uds(ecu_port, tester_port, "raw", "22F1")
        print(bad.stdout)
        if bad.returncode != 1 or "7F 22 13 incorrectMessageLengthOrInvalidFormat" not in bad.stdout:
            failures.append(f"a short request: exit {bad.returncode}, {bad.stdout!r}")
        typo = uds(ecu_port, tester_port, "read-dtcs")
        if typo.returncode != 2 or "\"read-dtcs\" is not a step" not in typo.stderr:
            failures.append(f"a bad step: exit {typo.returncode}, {typo.stderr!r}")
    finally:
        ecu.terminate()
        ecu.wait(timeout=30)
    if failures:
        print("FAILED:", *failures, sep="\n  ")
        return 1
    print("PASS: hilsim uds read, unlocked, wrote and read back 200 bytes, cleared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
