"""Writes a candump log with python-can's CanutilsLogWriter (which adds " R"/" T" direction
suffixes and writes unpadded seconds), for tests/io/can/trace/candump_interop_test.cpp to read back.
Usage: python_can_write.py LOG"""
import sys

import can

messages = [
    can.Message(timestamp=1.5, arbitration_id=0x123, is_extended_id=False, data=b"\xde\xad",
                channel="can0", is_rx=True),
    can.Message(timestamp=2.25, arbitration_id=0x1F334455, is_extended_id=True,
                data=b"\x01\x02\x03", channel="can1", is_rx=False),
    can.Message(timestamp=3.0, arbitration_id=0x321, is_extended_id=False, is_fd=True,
                bitrate_switch=True, data=bytes(range(12)), channel="can0"),
    can.Message(timestamp=4.0, arbitration_id=0x7FF, is_extended_id=False,
                is_remote_frame=True, dlc=0, channel="can0"),
]
with can.CanutilsLogWriter(sys.argv[1]) as writer:
    for m in messages:
        writer.on_message_received(m)
