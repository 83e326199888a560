"""Encodes and decodes frames with python3-canmatrix, an implementation of DBC independent of
ours, for tests/io/can/dbc/dbc_canmatrix_test.cpp to compare byte for byte.

Usage: canmatrix_crosscheck.py DBC < requests
Requests, one per line:
  encode MESSAGE SIG=RAW ...   -> the payload as hex (canmatrix packs the raw values given)
  decode MESSAGE HEX           -> SIG=RAW ... of the signals canmatrix's multiplexing selects,
                                  sorted by name (floats as repr of the float value)
"""
import logging
import sys

import canmatrix.formats

logging.disable(logging.CRITICAL)
db = canmatrix.formats.loadp_flat(sys.argv[1])
frames = {f.name: f for f in db.frames}


def number(text):
    return float(text) if any(c in text for c in ".eEn") else int(text)


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    frame = frames[words[1]]
    if words[0] == "encode":
        raw = {k: number(v) for k, v in (w.split("=") for w in words[2:])}
        print(bytes(frame.signals_to_bytes(raw)).hex().upper())
    else:
        decoded = frame.decode(bytearray.fromhex(words[2]))
        print(" ".join(f"{name}={decoded[name].raw_value!r}" for name in sorted(decoded)))
