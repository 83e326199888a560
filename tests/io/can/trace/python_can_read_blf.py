"""Prints every message of a BLF file as python-can's BLFReader sees it, one line each, with its
time in ns since the file's first object (for tests/io/can/trace/blf_writer_test.cpp).
Usage: python_can_read_blf.py BLF"""
import sys

import can

reader = can.BLFReader(sys.argv[1])
start = None
for m in reader:
    # BLFReader adds the header's start time (ms resolution) to each object's offset
    ns = round((m.timestamp - reader.start_timestamp) * 1e9)
    if m.is_error_frame:
        print(f"{ns} ch={m.channel} error")
        continue
    print(f"{ns} ch={m.channel} {m.arbitration_id:X} ext={int(m.is_extended_id)} "
          f"rtr={int(m.is_remote_frame)} fd={int(m.is_fd)} brs={int(m.bitrate_switch)} "
          f"esi={int(m.error_state_indicator)} rx={int(m.is_rx)} dlc={m.dlc} "
          f"data={bytes(m.data).hex().upper()}")
