#!/usr/bin/python3
"""A hilsim bus mirror peer in pure Python 3 (stdlib only), written from the wire format v1
description in docs/bus.md ("The UDP mirror"). python_peer_test drives it:

  1. binds 127.0.0.1:0 and prints "PORT <port>";
  2. receives DATA for region --recv-region, checks the tag (hmac.compare_digest) and the
     values (value[i] == tick + i), answers every PING with a PONG;
  3. after --count such snapshots, sends --send-count signed DATA snapshots of region
     --send-region (value[i] = 10 * region_seq + i), one forged one (wrong key), and a PING
     whose PONG it checks (echoed fields, tag) for an RTT;
  4. prints "RESULT ok ..." and exits 0, or "FAIL <why>" and exits 1.
"""
import argparse
import hashlib
import hmac
import secrets
import socket
import struct
import sys
import time

MAGIC = b"HSB1"
VERSION = 1
DATA, PING, PONG = 1, 2, 3
HEAD = struct.Struct("<4sBBBBQQQQ")  # magic version type key_id flags bus session start pkt_seq
DATA_FIELDS = struct.Struct("<IIQqQQQ")  # region n region_seq tick age send_unix region_hash
PING_FIELDS = struct.Struct("<QQQQ")  # ping_seq ping_mono_ns ping_session_id send_unix_ns
TAG = 16


def load_key(path):
    raw = open(path, "rb").read()
    if len(raw) == 32:
        return raw
    text = raw[:-1] if raw.endswith(b"\n") else raw
    if len(text) != 64:
        raise ValueError(f"{path}: expected 32 raw bytes or 64 hex characters")
    return bytes.fromhex(text.decode("ascii"))


def tag(key, body):
    return hmac.new(key, body, hashlib.sha256).digest()[:TAG]


class Peer:
    def __init__(self, args):
        self.args = args
        self.key = load_key(args.key)
        self.session = secrets.randbits(64) or 1
        self.start = time.time_ns()
        self.packet_seq = 0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.mirror = None

    def head(self, ptype, key_id=None, flags=0):
        self.packet_seq += 1
        return HEAD.pack(MAGIC, VERSION, ptype, self.args.key_id if key_id is None else key_id,
                         flags, self.args.bus_hash, self.session, self.start, self.packet_seq)

    def send(self, body, key=None):
        self.sock.sendto(body + tag(key or self.key, body), self.mirror)

    def parse(self, pkt):
        """(type, head tuple, fields tuple, values) for an authentic packet, else raises."""
        if len(pkt) < HEAD.size + PING_FIELDS.size + TAG:
            raise ValueError("too short")
        head = HEAD.unpack_from(pkt, 0)
        magic, version, ptype, key_id, flags, bus, session, start, pseq = head
        if magic != MAGIC or version != VERSION or bus != self.args.bus_hash:
            raise ValueError("not this bus")
        if ptype == DATA:
            fields = DATA_FIELDS.unpack_from(pkt, HEAD.size)
            n = fields[1]
            size = HEAD.size + DATA_FIELDS.size + 8 * n + TAG
        elif ptype in (PING, PONG):
            fields = PING_FIELDS.unpack_from(pkt, HEAD.size)
            size = HEAD.size + PING_FIELDS.size + TAG
        else:
            raise ValueError("type")
        if len(pkt) != size:
            raise ValueError("size")
        if key_id != self.args.key_id or not hmac.compare_digest(tag(self.key, pkt[:-TAG]),
                                                                 pkt[-TAG:]):
            raise ValueError("tag")
        values = ()
        if ptype == DATA:
            values = struct.unpack_from(f"<{fields[1]}d", pkt, HEAD.size + DATA_FIELDS.size)
        return ptype, head, fields, values

    def answer_ping(self, head, fields):
        ping_seq, ping_mono, ping_session, _ = fields
        self.send(self.head(PONG) + PING_FIELDS.pack(ping_seq, ping_mono, ping_session,
                                                     time.time_ns()))

    def run(self):
        a = self.args
        print(f"PORT {self.sock.getsockname()[1]}", flush=True)
        deadline = time.monotonic() + a.timeout
        self.sock.settimeout(0.05)
        got, pings, last_seq = 0, 0, 0
        while got < a.count:
            if time.monotonic() > deadline:
                return f"FAIL only {got} DATA packets before the timeout"
            try:
                pkt, src = self.sock.recvfrom(2048)
            except socket.timeout:
                continue
            self.mirror = src
            ptype, head, fields, values = self.parse(pkt)
            if ptype == PING:
                pings += 1
                self.answer_ping(head, fields)
                continue
            if ptype != DATA:
                continue
            region, n, region_seq, tick, _, _, region_hash = fields
            if region != a.recv_region or n != a.recv_n or region_hash != a.recv_hash:
                return f"FAIL unexpected region {region} n={n}"
            if region_seq <= last_seq:
                return f"FAIL region_seq {region_seq} after {last_seq}"
            last_seq = region_seq
            if any(v != tick + i for i, v in enumerate(values)):
                return f"FAIL values {values} for tick {tick}"
            got += 1

        # Our own snapshots, then a forgery
        values_of = lambda seq: [10.0 * seq + i for i in range(a.send_n)]
        for seq in range(1, a.send_count + 1):
            body = self.head(DATA) + DATA_FIELDS.pack(a.send_region, a.send_n, seq, seq, 1000,
                                                      time.time_ns(), a.send_hash)
            self.send(body + struct.pack(f"<{a.send_n}d", *values_of(seq)))
        forged = self.head(DATA) + DATA_FIELDS.pack(a.send_region, a.send_n, 999, 999, 0, 0,
                                                    a.send_hash)
        self.send(forged + struct.pack(f"<{a.send_n}d", *values_of(999)),
                  key=secrets.token_bytes(32))

        # Our PING; its PONG must echo our fields
        ping_seq, ping_mono = 1, time.monotonic_ns()
        self.send(self.head(PING) + PING_FIELDS.pack(ping_seq, ping_mono, self.session,
                                                     time.time_ns()))
        while True:
            if time.monotonic() > deadline:
                return "FAIL no PONG"
            try:
                pkt, src = self.sock.recvfrom(2048)
            except socket.timeout:
                continue
            ptype, head, fields, _ = self.parse(pkt)
            if ptype == PING:
                pings += 1
                self.answer_ping(head, fields)
            elif ptype == PONG and fields[:3] == (ping_seq, ping_mono, self.session):
                rtt_us = (time.monotonic_ns() - ping_mono) // 1000
                return f"RESULT ok data={got} pings={pings} rtt_us={rtt_us}"


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--key", required=True)
    p.add_argument("--key-id", type=int, default=1)
    p.add_argument("--bus-hash", type=int, required=True)
    for side in ("recv", "send"):
        p.add_argument(f"--{side}-region", type=int, required=True)
        p.add_argument(f"--{side}-hash", type=int, required=True)
        p.add_argument(f"--{side}-n", type=int, required=True)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--send-count", type=int, default=5)
    p.add_argument("--timeout", type=float, default=8.0)
    result = Peer(p.parse_args()).run()
    print(result, flush=True)
    return 0 if result.startswith("RESULT") else 1


if __name__ == "__main__":
    sys.exit(main())
