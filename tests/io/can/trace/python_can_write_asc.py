"""Writes a Vector ASC file with python-can's ASCWriter (classic, 29-bit, remote, CAN FD with
BRS/ESI, error frame, two channels), for tests/io/can/trace/asc_interop_test.cpp to read back.
Usage: python_can_write_asc.py ASC"""
import sys

import can

messages = [
    can.Message(timestamp=100.0, arbitration_id=0x123, is_extended_id=False, data=b"\xde\xad",
                channel=0, is_rx=True),
    can.Message(timestamp=100.25, arbitration_id=0x1F334455, is_extended_id=True,
                data=b"\x01\x02\x03", channel=1, is_rx=False),
    can.Message(timestamp=100.5, arbitration_id=0x321, is_extended_id=False, is_fd=True,
                bitrate_switch=True, data=bytes(range(12)), channel=0),
    can.Message(timestamp=100.75, arbitration_id=0x7FF, is_extended_id=False,
                is_remote_frame=True, dlc=5, channel=0),
    can.Message(timestamp=101.0, arbitration_id=0xABCDE, is_extended_id=True, is_fd=True,
                error_state_indicator=True, data=bytes(range(64)), channel=1),
    can.Message(timestamp=101.5, is_error_frame=True, channel=0),
]
with can.ASCWriter(sys.argv[1]) as writer:
    for m in messages:
        writer.on_message_received(m)
