"""Converts a candump log to BLF with python-can: its CanutilsLogReader, then its BLFWriter.
For the BLF tests (tests/io/can/trace/blf_reader_test.cpp, tests/tools/cli/hilsim_play_test.cpp).
Usage: python_can_write_blf.py LOG BLF [MAX_CONTAINER_BYTES [COMPRESSION_LEVEL]]
(a small MAX_CONTAINER_BYTES makes several containers; COMPRESSION_LEVEL 0 stores them)"""
import sys

import can

log, blf = sys.argv[1], sys.argv[2]
size = int(sys.argv[3]) if len(sys.argv) > 3 else 128 * 1024
level = int(sys.argv[4]) if len(sys.argv) > 4 else -1
writer = can.BLFWriter(blf, max_container_size=size, compression_level=level)
for message in can.CanutilsLogReader(log):
    writer.on_message_received(message)
writer.stop()
