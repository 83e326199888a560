"""Reads a candump log with python-can's CanutilsLogReader and prints one line per message,
so that tests/io/can/trace/candump_interop_test.cpp can compare what python-can saw with what we wrote.
Usage: python_can_read.py LOG"""
import sys

import can

for m in can.CanutilsLogReader(sys.argv[1]):
    if m.is_error_frame:
        print(f"t={m.timestamp:.6f} error")
        continue
    data = bytes(m.data).hex().upper() if m.data else ""
    print(f"t={m.timestamp:.6f} {m.channel} {m.arbitration_id:X} ext={int(m.is_extended_id)} "
          f"rtr={int(m.is_remote_frame)} fd={int(m.is_fd)} brs={int(m.bitrate_switch)} "
          f"esi={int(m.error_state_indicator)} dlc={m.dlc} data={data}")
