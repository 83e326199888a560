#!/usr/bin/env python3
"""The far end of tests/io/can/transport/slcan_python_test.cpp: python-can's slcan interface on a pty.

Usage: slcan_python_peer.py TTY EXPECTED_FRAMES

Sends a fixed set of classic frames (standard, extended, remote), then prints every frame
it receives as "RX STD|EXT ID_HEX RTR DLC DATA_HEX" until EXPECTED_FRAMES arrived (exit 0)
or 15 s passed (exit 3).
"""
import sys
import time

import can


def main() -> int:
    channel, expected = sys.argv[1], int(sys.argv[2])
    bus = can.Bus(interface="slcan", channel=channel, bitrate=500000, sleep_after_open=0)
    try:
        for message in (
            can.Message(arbitration_id=0x123, data=[1, 2, 3], is_extended_id=False),
            can.Message(arbitration_id=0x1ABCDEF0, data=[0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 2, 3],
                        is_extended_id=True),
            can.Message(arbitration_id=0x7FF, is_remote_frame=True, dlc=4, is_extended_id=False),
            can.Message(arbitration_id=0x100, is_remote_frame=True, dlc=0, is_extended_id=True),
            can.Message(arbitration_id=0x000, data=[], is_extended_id=False),
        ):
            bus.send(message)
        print("SENT 5", flush=True)
        received = 0
        deadline = time.monotonic() + 15
        while received < expected and time.monotonic() < deadline:
            m = bus.recv(timeout=0.5)
            if m is None:
                continue
            print("RX %s %X %d %d %s" % ("EXT" if m.is_extended_id else "STD", m.arbitration_id,
                                        1 if m.is_remote_frame else 0, m.dlc, m.data.hex().upper()),
                  flush=True)
            received += 1
    finally:
        bus.shutdown()
    return 0 if received == expected else 3


if __name__ == "__main__":
    sys.exit(main())
