#!/usr/bin/python3
"""Rest-bus simulation, accepted by a peer that is not hilsim.

`hilsim run --rig ravon --overlay restbus.pbtxt` plays every node of vehicle.dbc but EPS (the
device under test) on a second bus, "body". This test points that bus at cannelloni over
127.0.0.1 and checks, from this Python process, every frame that comes out:

  * which messages are sent: every message of a simulated node that its send type says is sent;
    nothing of EPS (excluded), of Vector__XXX (nobody), of a NoMsgSendType message or of an
    if-active message whose signals hold their GenSigInactiveValue;
  * frame format: 11/29-bit id, classic or CAN FD, length, bit-rate switch, as the DBC says;
  * timing: exact in the run's can.log (simulated time): every period of a cyclic message is
    GenMsgCycleTime, its first frame GenMsgStartDelayTime after the bus's first, on-change
    messages once at the start, SpontaneousWithRepetition 1 + GenMsgNrOfRepetition frames
    GenMsgCycleTimeFast apart. On the wire: every frame arrives with the other frames can.log
    has in the same tick (it left in the tick that built it), and, when the run kept real time
    (no frame drifted more than 1 ms from simulated time; or with --strict-wire), the mean
    period of each cyclic message (first to last frame, >= 10 s of frames) is within one tick
    (0.25 ms) of GenMsgCycleTime and first frames arrive GenMsgStartDelayTime (± 5 ms) after
    the bus's first. Without RT privileges on a loaded machine hilsim falls behind in bursts
    ("N periods dropped"); the test then prints the drift and the measured periods without
    judging them against the nominal ones: that is hilsim's pacing, not the rest-bus's;
  * values: the first (and last) frame of each message decodes (canmatrix) to
    GenSigStartValue * factor + offset for every signal nobody writes;
  * E2E: every frame of a protected message passes a checker written here from the AUTOSAR
    E2E protocol specification (profiles 1, 2, 5, 11, 22), counters step by one;
  * the device under test's messages sent from here (valid, plus 5 with a bad CRC, 2 that
    repeat a counter, and one pair of consecutive frames sent back to back, as a buffering
    bridge delivers them) are received by hilsim, which refuses exactly the frames that the
    E2E check refuses frame by frame (replayed here over what can.log says hilsim received).

`--self-test` runs only what needs no hilsim: the CRCs against the AUTOSAR CRC check values,
the E2E checker against the E2E protocol's examples, the cannelloni parser on hand-made
packets, the overlay reader, and the fixture's own consistency (vehicle.dbc through canmatrix,
and through `hilsim dbc show` when $HILSIM is set).

Run: HILSIM=build/release/tools/hilsim tests/tools/restbus/restbus_cannelloni_test.py
Debian's python3-can and python3-canmatrix (import under /usr/bin/python3).
"""
import argparse
import decimal
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DBC = os.path.join(HERE, "vehicle.dbc")
PRODUCTION_DBC = os.path.join(HERE, "production_names.dbc")
OVERLAY = os.path.join(HERE, "restbus.pbtxt")
BUS = "body"                 # the rest-bus bus of restbus.pbtxt
TICK_S = 250e-6              # RAVON's executive period (hil_rigs/ravon/rig.pbtxt, period_us: 250)
RUN_S = 12.0                 # simulated = wall-clock time of the run (--speed realtime)
MIN_SPAN_S = 10.0            # a mean period is taken over at least this much
WIRE_START_TOL_S = 5e-3      # start delays measured on the wire (UDP arrival times)
EXACT_TOL_S = 2e-6           # can.log: simulated time with microsecond digits
# The start counts as the change of a SpontaneousWithRepetition message: its first frame is
# followed by GenMsgNrOfRepetition repetitions (Vector's interaction layer). False: sent once.
REPEAT_AT_START = True
REALTIME_DRIFT_S = 1e-3      # a run kept real time if no frame drifted further from simulated time
SAME_TICK_S = 2e-3           # frames logged in one tick leave in that tick's flush: arrive together


# =============================================================================================
# CRCs (AUTOSAR "Specification of CRC Routines"), bit by bit from the polynomial, MSB first.
# =============================================================================================

def crc_bits(data, width, poly, init, xorout):
    """Non-reflected CRC of `width` bits: the register starts at `init`, each byte enters at the
    top, the result is XORed with `xorout`."""
    mask = (1 << width) - 1
    top = 1 << (width - 1)
    reg = init
    for byte in data:
        reg ^= byte << (width - 8)
        for _ in range(8):
            reg = ((reg << 1) ^ poly) & mask if reg & top else (reg << 1) & mask
    return reg ^ xorout


def crc8_sae_j1850(data):        # Crc_CalculateCRC8: 0x1D, start 0xFF, XOR 0xFF ("123456789": 0x4B)
    return crc_bits(data, 8, 0x1D, 0xFF, 0xFF)


def crc8_h2f(data):              # Crc_CalculateCRC8H2F: 0x2F, start 0xFF, XOR 0xFF (0xDF)
    return crc_bits(data, 8, 0x2F, 0xFF, 0xFF)


def crc16_ccitt_false(data):     # Crc_CalculateCRC16: 0x1021, start 0xFFFF, XOR 0 (0x29B1)
    return crc_bits(data, 16, 0x1021, 0xFFFF, 0x0000)


def crc8_e2e_p01(data):
    """Profiles 1 and 11: CRC-8 SAE J1850 with start value 0x00 and no final XOR. The E2E
    library calls Crc_CalculateCRC8 with start value 0xFF and IsFirstCall FALSE (the routine
    XORs the start value with 0xFF: register 0x00), chains the calls, and XORs the last result
    with 0xFF again (undoing the routine's final XOR)."""
    return crc_bits(data, 8, 0x1D, 0x00, 0x00)


# =============================================================================================
# AUTOSAR E2E profiles 1, 2, 5, 11, 22 (AUTOSAR_PRS_E2EProtocol), written from the protocol.
# =============================================================================================

PROFILES = ("P01", "P02", "P05", "P11", "P22")
COUNTER_MODULUS = {"P01": 15, "P11": 15, "P02": 16, "P22": 16, "P05": 256}
DATA_ID_MODES = {"P01": ("both", "alt", "low", "nibble"), "P11": ("both", "nibble")}


@dataclass
class E2EConfig:
    profile: str
    data_id: int = 0
    data_id_mode: str = "both"
    data_id_list: tuple = ()
    offset_bits: int = 0           # P05/P22: the header's offset; P01/P11/P02: 0 (CRC in byte 0)
    max_delta_counter: int = 1
    source: str = ""               # "DBC" or "overlay"

    def problems(self, length):
        """What is wrong with this configuration for a message of `length` bytes."""
        out = []
        if self.profile not in PROFILES:
            return [f"unknown profile {self.profile!r}"]
        if self.profile in DATA_ID_MODES and self.data_id_mode not in DATA_ID_MODES[self.profile]:
            out.append(f"data id mode {self.data_id_mode!r} is not one of {DATA_ID_MODES[self.profile]}")
        if self.profile in ("P02", "P22"):
            if len(self.data_id_list) != 16 or not all(0 <= v <= 255 for v in self.data_id_list):
                out.append(f"data id list needs 16 values 0..255, has {list(self.data_id_list)}")
        elif not 0 <= self.data_id <= 0xFFFF:
            out.append(f"data id {self.data_id} is not 16 bits")
        if self.data_id_mode == "nibble" and self.data_id > 0xFFF:
            out.append(f"nibble mode needs a 12-bit data id, got {self.data_id:#x}")
        if self.offset_bits % 8:
            out.append(f"offset {self.offset_bits} is not a whole byte")
        if self.offset_bits // 8 + self.header_bytes() > length:
            out.append(f"header at bit {self.offset_bits} does not fit {length} bytes")
        if not 1 <= self.max_delta_counter < COUNTER_MODULUS[self.profile]:
            out.append(f"max delta counter {self.max_delta_counter} out of range")
        return out

    def header_bytes(self):
        return 3 if self.profile == "P05" else 2

    def header_bits(self):
        """Bits (DBC numbering) of the E2E header: CRC, counter, the data id nibble."""
        o = self.offset_bits
        if self.profile == "P05":
            return set(range(o, o + 24))
        bits = set(range(o, o + 12))
        if self.data_id_mode == "nibble" and self.profile in ("P01", "P11"):
            bits |= set(range(o + 12, o + 16))
        return bits


def e2e_read(cfg, data):
    """(crc, counter, data id nibble or None) as the frame carries them."""
    o = cfg.offset_bits // 8
    if cfg.profile == "P05":
        return data[o] | data[o + 1] << 8, data[o + 2], None        # CRC little endian
    nibble = data[o + 1] >> 4 if cfg.profile in ("P01", "P11") and cfg.data_id_mode == "nibble" else None
    return data[o], data[o + 1] & 0x0F, nibble


def e2e_crc(cfg, data, counter):
    """The CRC the profile computes over `data` (the CRC's own bytes are left out)."""
    o = cfg.offset_bits // 8
    if cfg.profile in ("P01", "P11"):
        lo, hi = cfg.data_id & 0xFF, cfg.data_id >> 8 & 0xFF
        ids = {"both": [lo, hi], "low": [lo], "nibble": [lo, 0x00],
               "alt": [lo] if counter % 2 == 0 else [hi]}[cfg.data_id_mode]
        return crc8_e2e_p01(bytes(ids) + bytes(data[:o]) + bytes(data[o + 1:]))
    if cfg.profile in ("P02", "P22"):
        return crc8_h2f(bytes(data[:o]) + bytes(data[o + 1:]) + bytes([cfg.data_id_list[counter & 0x0F]]))
    if cfg.profile == "P05":
        return crc16_ccitt_false(bytes(data[:o]) + bytes(data[o + 2:])
                                 + bytes([cfg.data_id & 0xFF, cfg.data_id >> 8 & 0xFF]))
    raise ValueError(cfg.profile)


def e2e_protect(cfg, data, counter):
    """Writes counter (and data id nibble), then the CRC, into bytearray `data`."""
    o = cfg.offset_bits // 8
    if cfg.profile == "P05":
        data[o + 2] = counter & 0xFF
        crc = e2e_crc(cfg, data, counter)
        data[o], data[o + 1] = crc & 0xFF, crc >> 8
        return data
    data[o + 1] = (data[o + 1] & 0xF0) | (counter & 0x0F)
    if cfg.profile in ("P01", "P11") and cfg.data_id_mode == "nibble":
        data[o + 1] = (data[o + 1] & 0x0F) | ((cfg.data_id >> 8 & 0x0F) << 4)
    data[o] = e2e_crc(cfg, data, counter)
    return data


def e2e_check(cfg, data):
    """(counter, problems): problems is empty when the frame passes the profile's checks."""
    crc, counter, nibble = e2e_read(cfg, data)
    problems = []
    if counter >= COUNTER_MODULUS[cfg.profile]:
        problems.append(f"counter {counter} out of 0..{COUNTER_MODULUS[cfg.profile] - 1}")
    if nibble is not None and nibble != (cfg.data_id >> 8 & 0x0F):
        problems.append(f"data id nibble {nibble:#x}, expected {cfg.data_id >> 8 & 0x0F:#x}")
    want = e2e_crc(cfg, data, counter)
    if crc != want:
        width = 4 if cfg.profile == "P05" else 2
        problems.append(f"CRC 0x{crc:0{width}X}, computed 0x{want:0{width}X}")
    return counter, problems


# =============================================================================================
# cannelloni v2 over UDP (docs/can.md "cannelloni://HOST:PORT"; big-endian)
# =============================================================================================

CAN_EFF, CAN_RTR, CAN_ERR = 0x80000000, 0x40000000, 0x20000000
FD_FLAG, FD_BRS, FD_ESI = 0x80, 0x01, 0x02
FD_LENGTHS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64)


class CannelloniError(ValueError):
    pass


@dataclass
class Frame:
    can_id: int            # 11 or 29 bits, flags stripped
    extended: bool = False
    fd: bool = False
    brs: bool = False
    esi: bool = False
    rtr: bool = False
    error: bool = False
    data: bytes = b""
    dlc: int = 0           # the length: of the data, or the one a remote request asks for

    def __post_init__(self):
        if not self.rtr:
            self.dlc = len(self.data)


def parse_cannelloni(packet):
    """(sequence number, [Frame]) of one datagram; CannelloniError if it is not a valid one."""
    if len(packet) < 5:
        raise CannelloniError(f"{len(packet)} bytes: shorter than the 5-byte header")
    version, op, seq, count = struct.unpack_from(">BBBH", packet, 0)
    if version != 2:
        raise CannelloniError(f"version {version}, expected 2")
    if op != 0:
        raise CannelloniError(f"op code {op}, expected 0 (DATA)")
    pos, frames = 5, []
    for i in range(count):
        if pos + 5 > len(packet):
            raise CannelloniError(f"frame {i}: truncated header at byte {pos}")
        raw_id, length = struct.unpack_from(">IB", packet, pos)
        pos += 5
        fd = bool(length & FD_FLAG)
        n = length & 0x7F
        flags = 0
        if fd:
            if pos + 1 > len(packet):
                raise CannelloniError(f"frame {i}: truncated FD flags")
            flags = packet[pos]
            pos += 1
        f = Frame(can_id=raw_id & 0x1FFFFFFF, extended=bool(raw_id & CAN_EFF), fd=fd,
                  brs=bool(flags & FD_BRS), esi=bool(flags & FD_ESI), rtr=bool(raw_id & CAN_RTR),
                  error=bool(raw_id & CAN_ERR))
        if not f.extended and f.can_id > 0x7FF:
            raise CannelloniError(f"frame {i}: 11-bit id {f.can_id:#x} above 0x7FF")
        if fd and n not in FD_LENGTHS:
            raise CannelloniError(f"frame {i}: FD length {n} is no DLC length")
        if not fd and n > 8:
            raise CannelloniError(f"frame {i}: classic length {n} above 8")
        if fd and f.rtr:
            raise CannelloniError(f"frame {i}: remote request on CAN FD")
        if f.rtr:
            f.dlc = n                       # remote frames carry no data bytes
        else:
            if pos + n > len(packet):
                raise CannelloniError(f"frame {i}: {n} data bytes, {len(packet) - pos} left")
            f.data = bytes(packet[pos:pos + n])
            f.dlc = n
            pos += n
        frames.append(f)
    if pos != len(packet):
        raise CannelloniError(f"{len(packet) - pos} bytes left over after {count} frames")
    return seq, frames


def build_cannelloni(seq, frames):
    out = bytearray(struct.pack(">BBBH", 2, 0, seq & 0xFF, len(frames)))
    for f in frames:
        raw_id = f.can_id | (CAN_EFF if f.extended else 0) | (CAN_RTR if f.rtr else 0)
        n = f.dlc if f.rtr else len(f.data)
        out += struct.pack(">IB", raw_id, n | (FD_FLAG if f.fd else 0))
        if f.fd:
            out.append((FD_BRS if f.brs else 0) | (FD_ESI if f.esi else 0))
        if not f.rtr:
            out += f.data
    return bytes(out)


# =============================================================================================
# Protobuf text format, as much as restbus.pbtxt uses (fields, blocks, [lists], # comments)
# =============================================================================================

_TOKEN = re.compile(r'\s+|#[^\n]*|(?P<str>"(?:[^"\\]|\\.)*")'
                    r'|(?P<num>[-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?))'
                    r'|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[{}\[\]:,;<>])')


def parse_textproto(text):
    """A message as {field: [values]}; values are str, int, float or nested dicts."""
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"text format: unexpected {text[pos:pos + 20]!r}")
        pos = m.end()
        for kind in ("str", "num", "id", "punct"):
            if m.group(kind) is not None:
                tokens.append((kind, m.group(kind)))
    i = 0

    def scalar():
        nonlocal i
        kind, val = tokens[i]
        i += 1
        if kind == "str":
            return bytes(val[1:-1], "utf-8").decode("unicode_escape")
        if kind == "num":
            return int(val, 0) if re.fullmatch(r"[-+]?(0[xX][0-9a-fA-F]+|\d+)", val) else float(val)
        if kind == "id":
            return val
        raise ValueError(f"text format: expected a value, got {val!r}")

    def message(end):
        nonlocal i
        out = {}
        while i < len(tokens) and tokens[i][1] != end:
            kind, name = tokens[i]
            if kind != "id":
                raise ValueError(f"text format: expected a field name, got {name!r}")
            i += 1
            if tokens[i][1] == ":":
                i += 1
            if tokens[i][1] in ("{", "<"):
                close = "}" if tokens[i][1] == "{" else ">"
                i += 1
                out.setdefault(name, []).append(message(close))
                i += 1
            elif tokens[i][1] == "[":
                i += 1
                while tokens[i][1] != "]":
                    out.setdefault(name, []).append(scalar())
                    if tokens[i][1] == ",":
                        i += 1
                i += 1
            else:
                out.setdefault(name, []).append(scalar())
            if i < len(tokens) and tokens[i][1] in (",", ";"):
                i += 1
        return out

    return message(None)


# =============================================================================================
# The fixture: what vehicle.dbc and restbus.pbtxt say hilsim sends
# =============================================================================================

# What each GenMsgSendType name means for a rest-bus simulation that nobody writes to (the
# names of Vector's list, and of the production list of production_names.dbc): cyclic every
# GenMsgCycleTime from GenMsgStartDelayTime on; if_active cyclic while a signal is not at its
# GenSigInactiveValue, else never; once: on change only, so once at the start; repeat: on change
# with GenMsgNrOfRepetition repetitions GenMsgCycleTimeFast apart; silent: never (NoMsgSendType:
# the interaction layer does not send it).
SEND_TYPES = {
    "Cyclic": "cyclic", "CyclicAndSpontaneous": "cyclic", "CyclicAndSpontaneousWithDelay": "cyclic",
    "CyclicIfActive": "if_active", "CyclicIfActiveAndSpontaneousWD": "if_active",
    "Spontaneous": "once", "SpontaneousWithDelay": "once", "SpontaneousWithRepetition": "repeat",
    "NoMsgSendType": "silent",
    "FixedPeriodic": "cyclic", "Event": "once", "EventPeriodic": "cyclic",
}


def load_dbc(path):
    import logging
    logging.getLogger("canmatrix").setLevel(logging.ERROR)   # "arxml is not supported" …
    import canmatrix.formats
    return canmatrix.formats.loadp_flat(path)


def _int_attr(obj, name, db):
    v = obj.attribute(name, db)
    return None if v in (None, "") else int(float(v))


@dataclass
class Message:
    name: str
    can_id: int
    extended: bool
    fd: bool
    brs: bool
    length: int
    senders: list
    send_type: str
    cycle_ms: int
    fast_ms: int
    repetitions: int
    start_delay_ms: int
    delay_ms: int
    frame: object                      # canmatrix.Frame
    e2e: E2EConfig = None
    start_raw: dict = field(default_factory=dict)
    inactive_raw: dict = field(default_factory=dict)
    mapped: set = field(default_factory=set)
    role: str = "sim"                  # sim (hilsim sends it), dut (the ECU does), nobody
    behaviour: str = "cyclic"          # cyclic, once, repeat, silent
    why: str = ""
    header_signals: set = field(default_factory=set)

    @property
    def node(self):
        return ",".join(self.senders) or "Vector__XXX"

    def start_phys(self, signal):
        return decimal.Decimal(self.start_raw.get(signal.name, 0)) * signal.factor + signal.offset

    def start_payload(self, counter=None):
        """The frame built from the start values (canmatrix's encode takes raw values), then
        E2E-protected with `counter` unless it is None."""
        data = bytearray(self.frame.encode({s.name: self.start_raw[s.name] for s in self.frame.signals}))
        data += bytes(self.length - len(data))
        return bytes(e2e_protect(self.e2e, data, counter) if self.e2e and counter is not None else data)


def parse_id_list(text):
    return tuple(int(v.strip(), 0) for v in text.split(",") if v.strip())


def load_fixture(dbc_path=DBC, overlay_path=OVERLAY):
    """The DBC's messages as hilsim should send them on the overlay's body bus."""
    db = load_dbc(dbc_path)
    with open(overlay_path, encoding="utf-8") as f:
        overlay = parse_textproto(f.read())
    buses = [b for b in overlay["can"][0]["buses"] if b["name"][0] == BUS]
    if len(buses) != 1:
        raise ValueError(f"{overlay_path}: no single bus named {BUS!r}")
    bus = buses[0]
    nodes = [e.name for e in db.ecus]
    simulate = bus.get("simulate_nodes", [])
    simulated = (set(nodes) if "*" in simulate else set(simulate)) - set(bus.get("except_nodes", []))
    dut = set(bus.get("dut_nodes", []))
    overlay_e2e = {e["message"][0]: e for e in bus.get("e2e", [])}
    mapped = {t["message"][0]: {s["signal"][0] for s in t.get("signals", [])} for t in bus.get("tx", [])}
    sig_default = {k: d.defaultValue for k, d in db.signal_defines.items()}

    messages = []
    for fr in db.frames:
        m = Message(
            name=fr.name, can_id=fr.arbitration_id.id, extended=fr.arbitration_id.extended,
            fd=bool(fr.is_fd), brs=bool(fr.is_fd) and str(fr.attribute("CANFD_BRS", db)) == "1",
            length=fr.size, senders=list(fr.transmitters),
            send_type=fr.attribute("GenMsgSendType", db) or "Cyclic",
            cycle_ms=_int_attr(fr, "GenMsgCycleTime", db) or 0,
            fast_ms=_int_attr(fr, "GenMsgCycleTimeFast", db) or 0,
            repetitions=_int_attr(fr, "GenMsgNrOfRepetition", db) or 0,
            start_delay_ms=_int_attr(fr, "GenMsgStartDelayTime", db) or 0,
            delay_ms=_int_attr(fr, "GenMsgDelayTime", db) or 0, frame=fr,
            mapped=mapped.get(fr.name, set()))
        for s in fr.signals:
            m.start_raw[s.name] = int(float(s.attributes.get("GenSigStartValue", sig_default.get("GenSigStartValue", 0))))
            m.inactive_raw[s.name] = int(float(s.attributes.get("GenSigInactiveValue", sig_default.get("GenSigInactiveValue", 0))))
        profile = fr.attribute("E2E_Profile", db)
        if profile:
            m.e2e = E2EConfig(profile=profile, data_id=_int_attr(fr, "E2E_DataID", db) or 0,
                              data_id_mode=fr.attribute("E2E_DataIDMode", db) or "both",
                              data_id_list=parse_id_list(fr.attribute("E2E_DataIDList", db) or ""),
                              offset_bits=_int_attr(fr, "E2E_Offset", db) or 0,
                              max_delta_counter=_int_attr(fr, "E2E_MaxDeltaCounter", db) or 1,
                              source="DBC")
        if fr.name in overlay_e2e:
            e = overlay_e2e[fr.name]
            m.e2e = E2EConfig(profile=e["profile"][0], data_id=e.get("data_id", [0])[0],
                              data_id_mode=e.get("data_id_mode", ["both"])[0],
                              data_id_list=tuple(e.get("data_id_list", [])),
                              offset_bits=e.get("offset_bits", [0])[0],
                              max_delta_counter=e.get("max_delta_counter", [1])[0], source="overlay")
        if m.e2e:
            ones = bytearray(m.length)
            for b in m.e2e.header_bits():
                ones[b // 8] |= 1 << (b % 8)
            m.header_signals = {n for n, v in fr.decode(bytes(ones)).items() if v.raw_value != 0}

        # Who sends it, and how.
        if not m.senders:
            m.role, m.behaviour, m.why = "nobody", "silent", "sender Vector__XXX"
        elif any(s in dut for s in m.senders):
            m.role, m.behaviour, m.why = "dut", "silent", "device under test"
        elif not any(s in simulated for s in m.senders):
            m.role, m.behaviour, m.why = "excluded", "silent", "node not simulated"
        else:
            kind = SEND_TYPES.get(m.send_type)
            if kind is None:
                raise ValueError(f"{fr.name}: unknown GenMsgSendType {m.send_type!r}")
            if kind == "if_active":
                active = [s for s in m.start_raw if m.start_raw[s] != m.inactive_raw[s] or s in m.mapped]
                kind = "cyclic" if active else "silent"
                m.why = f"active ({', '.join(active)})" if active else "all signals at their inactive values"
            elif kind == "silent":
                m.why = m.send_type
            m.behaviour = kind
        messages.append(m)
    return db, messages


# =============================================================================================
# Self-tests: no hilsim needed
# =============================================================================================

class Checks:
    def __init__(self):
        self.failures = []

    def check(self, ok, what):
        print(("  ok    " if ok else "  FAIL  ") + what)
        if not ok:
            self.failures.append(what)
        return ok


def self_test_crc(c):
    print("CRC routines (AUTOSAR SWS CRC check values and its tables):")
    check = b"123456789"
    c.check(crc8_sae_j1850(check) == 0x4B, f"CRC-8 SAE J1850 of '123456789' = 0x{crc8_sae_j1850(check):02X} (0x4B)")
    c.check(crc8_h2f(check) == 0xDF, f"CRC-8H2F of '123456789' = 0x{crc8_h2f(check):02X} (0xDF)")
    c.check(crc16_ccitt_false(check) == 0x29B1,
            f"CRC-16 CCITT-FALSE of '123456789' = 0x{crc16_ccitt_false(check):04X} (0x29B1)")
    c.check(crc8_e2e_p01(check) == 0x37, f"CRC-8 SAE J1850 start 0, no XOR ('123456789') = 0x{crc8_e2e_p01(check):02X} (0x37)")
    table = [  # (data, CRC8, CRC8H2F, CRC16): SWS CRC's example tables
        ("00000000", 0x59, 0x12, 0x84C0), ("F20183", 0x37, 0xC2, 0xD374),
        ("0FAA0055", 0x79, 0xC6, 0x2023), ("00FF5511", 0xB8, 0x77, 0xB8F9),
        ("332255AABBCCDDEEFF", 0xCB, 0x11, 0xF53F), ("926B55", 0x8C, 0x33, 0x0745),
        ("FFFFFFFF", 0x74, 0x6C, 0x1D0F)]
    for hexdata, a, b, d in table:
        data = bytes.fromhex(hexdata)
        got = (crc8_sae_j1850(data), crc8_h2f(data), crc16_ccitt_false(data))
        c.check(got == (a, b, d), f"{hexdata:18} CRC8 {got[0]:02X} CRC8H2F {got[1]:02X} CRC16 {got[2]:04X}")


def self_test_e2e(c):
    print("E2E profiles against the E2E protocol's examples (Data ID 0x123 / 0x1234, DataIDList 1..16):")

    def case(cfg, length, counter, want_hex, what):
        data = bytes(e2e_protect(cfg, bytearray(length), counter))
        ok = data.hex() == want_hex.replace(" ", "").lower()
        ctr, problems = e2e_check(cfg, data)
        ok = ok and ctr == counter and not problems
        bad = bytearray(data)
        bad[-1] ^= 0x01                     # one flipped bit anywhere is caught
        ok = ok and bool(e2e_check(cfg, bytes(bad))[1])
        c.check(ok, f"{what}: {data.hex(' ')}")

    for mode, c0, c1 in (("both", "cc 00", "91 01"), ("alt", "ce 00", "02 01"), ("low", "ce 00", "93 01"),
                         ("nibble", "2a 10", "77 11")):
        cfg = E2EConfig("P01", data_id=0x123, data_id_mode=mode)
        case(cfg, 8, 0, c0 + " 00 00 00 00 00 00", f"P01 {mode:6} counter 0")
        case(cfg, 8, 1, c1 + " 00 00 00 00 00 00", f"P01 {mode:6} counter 1")
    for mode, c0, c1 in (("both", "cc 00", "91 01"), ("nibble", "2a 10", "77 11")):
        cfg = E2EConfig("P11", data_id=0x123, data_id_mode=mode)
        case(cfg, 8, 0, c0 + " 00 00 00 00 00 00", f"P11 {mode:6} counter 0")
        case(cfg, 8, 1, c1 + " 00 00 00 00 00 00", f"P11 {mode:6} counter 1")
    zeros8 = "00 " * 8
    case(E2EConfig("P11", data_id=0x123, data_id_mode="nibble", offset_bits=64), 16, 0,
         zeros8 + "7d 10 00 00 00 00 00 00", "P11 nibble at byte 8, counter 0")
    case(E2EConfig("P01", data_id=0x123, data_id_mode="nibble", offset_bits=64), 16, 1,
         zeros8 + "20 11 00 00 00 00 00 00", "P01 nibble at byte 8, counter 1")
    ids = tuple(range(1, 17))
    crcs = [0x0E, 0x1B, 0x98, 0x31, 0x0D, 0x18, 0x9B, 0x65, 0x08, 0x1D, 0x9E, 0x37, 0x0B, 0x1E, 0x9D, 0xCD]
    for profile in ("P02", "P22"):
        seq = [bytes(e2e_protect(E2EConfig(profile, data_id_list=ids), bytearray(8), n))[0] for n in range(16)]
        c.check(seq == crcs, f"{profile} counters 0..15, 8 zero bytes: CRCs {' '.join(f'{x:02x}' for x in seq)}")
    case(E2EConfig("P02", data_id_list=tuple([0] * 16)), 8, 1, "45 01 00 00 00 00 00 00", "P02 DataIDList 0s, counter 1")
    cfg = E2EConfig("P02", data_id_list=tuple(range(16)))
    data = bytes(e2e_protect(cfg, bytearray(range(8)), 2))
    c.check(data.hex(" ") == "bc 02 02 03 04 05 06 07", f"P02 data 00..07, DataIDList 0..15, counter 2: {data.hex(' ')}")
    case(E2EConfig("P22", data_id_list=ids, offset_bits=64), 16, 1, zeros8 + "14 01 00 00 00 00 00 00",
         "P22 header at byte 8, counter 1")
    case(E2EConfig("P05", data_id=0x1234), 8, 0, "1c ca 00 00 00 00 00 00", "P05 counter 0")
    case(E2EConfig("P05", data_id=0x1234), 8, 1, "cf 8d 01 00 00 00 00 00", "P05 counter 1")
    case(E2EConfig("P05", data_id=0x1234, offset_bits=64), 16, 0, zeros8 + "28 91 00 00 00 00 00 00",
         "P05 header at byte 8, counter 0")
    case(E2EConfig("P05", data_id=0x1234, offset_bits=64), 16, 1, zeros8 + "fb d6 01 00 00 00 00 00",
         "P05 header at byte 8, counter 1")
    # What the checker must refuse.
    cfg = E2EConfig("P01", data_id=0x123, data_id_mode="nibble")
    c.check(any("nibble" in p for p in e2e_check(cfg, bytes.fromhex("2a 20 00 00 00 00 00 00"))[1]),
            "P01 nibble: a wrong data id nibble is refused")
    c.check(any("counter 15" in p for p in e2e_check(E2EConfig("P11", data_id=0x123), bytes.fromhex("00 0f" + "00" * 6))[1]),
            "P11: counter 15 is out of range")
    cfg = E2EConfig("P01", data_id=0x123, data_id_mode="both", max_delta_counter=2)
    frames = [bytes(e2e_protect(cfg, bytearray(8), n)) for n in (13, 14, 0, 0, 2, 6, 7)]
    bad = bytearray(frames[2])
    bad[0] ^= 0xFF
    got = e2e_receive(cfg, frames[:2] + [bytes(bad)] + frames[2:])
    c.check(got == {"accepted": 5, "crc": 1, "repeated": 1, "wrong_sequence": 1},
            f"frame by frame, counters 13 14 (bad CRC) 0 0 2 6 7, max delta 2: {got}")
    alt = E2EConfig("P01", data_id=0x123, data_id_mode="alt")
    c.check(bool(e2e_check(E2EConfig("P01", data_id=0x124, data_id_mode="alt"), bytes(e2e_protect(alt, bytearray(8), 2)))[1]),
            "P01 alt: another data id's frame is refused")


def self_test_cannelloni(c):
    print("cannelloni v2 parser on hand-made packets:")
    pkt = bytes.fromhex("02 00 07 0004"
                        " 00000123 04 DEADBEEF"                       # classic, 11-bit
                        " 98FEF101 08 1122334455667788"               # 29-bit (EFF flag)
                        " 000000C8 8C 01 000102030405060708090A0B"    # FD, 12 bytes, BRS
                        " 40000100 02")                               # remote request, DLC 2
    seq, frames = parse_cannelloni(pkt)
    c.check(seq == 7 and len(frames) == 4, f"header: sequence {seq}, {len(frames)} frames")
    f = frames[0]
    c.check((f.can_id, f.extended, f.fd, f.data) == (0x123, False, False, bytes.fromhex("DEADBEEF")),
            f"classic: id {f.can_id:#x} data {f.data.hex()}")
    f = frames[1]
    c.check((f.can_id, f.extended, len(f.data)) == (0x18FEF101, True, 8), f"extended: id {f.can_id:#x}")
    f = frames[2]
    c.check((f.can_id, f.fd, f.brs, f.esi, f.data) == (0xC8, True, True, False, bytes(range(12))),
            f"FD: id {f.can_id:#x} brs {f.brs} {len(f.data)} bytes")
    f = frames[3]
    c.check((f.can_id, f.rtr, f.dlc, f.data) == (0x100, True, 2, b""), "RTR: DLC 2, no data bytes")
    c.check(parse_cannelloni(bytes.fromhex("02 00 ff 0000")) == (255, []), "empty packet")
    c.check(parse_cannelloni(build_cannelloni(3, frames)) == (3, frames), "build → parse round trip")
    fd64 = Frame(0x1FFFFFFF, extended=True, fd=True, esi=True, data=bytes(range(64)))
    c.check(parse_cannelloni(build_cannelloni(0, [fd64]))[1] == [fd64], "FD 64 bytes, ESI, 29-bit id round trip")
    for hexpkt, what in (("02 00 00 0001", "a frame announced, none there"),
                         ("02 00 00 0001 00000123 04 DEAD", "data cut short"),
                         ("02 00 00 0000 00", "a byte left over"),
                         ("02 00 00 0001 00000123 09 000102030405060708", "classic length 9"),
                         ("02 00 00 0001 00000123 8A 00 00010203040506070809", "FD length 10"),
                         ("02 00 00 0001 00000800 00", "11-bit id above 0x7FF"),
                         ("02 00 00 0001 40000123 88 00", "remote request on FD"),
                         ("01 00 00 0000", "version 1"), ("02 01 00 0000", "op code ACK"), ("02 00", "header cut")):
        try:
            parse_cannelloni(bytes.fromhex(hexpkt))
            c.check(False, f"refused: {what}")
        except CannelloniError as e:
            c.check(True, f"refused: {what} ({e})")


def self_test_overlay(c):
    print("restbus.pbtxt as read here:")
    with open(OVERLAY, encoding="utf-8") as f:
        doc = parse_textproto(f.read())
    buses = doc["can"][0]["buses"]
    c.check([b["name"][0] for b in buses] == ["ecu", BUS], f"buses {[b['name'][0] for b in buses]}")
    body = buses[1]
    c.check(body["simulate_nodes"] == ["*"] and body["except_nodes"] == ["EPS"] and body["dut_nodes"] == ["EPS"],
            "simulate_nodes *, except_nodes EPS, dut_nodes EPS")
    e2e = {e["message"][0]: e for e in body["e2e"]}
    c.check(len(e2e) == 7, f"{len(e2e)} e2e blocks: {', '.join(e2e)}")
    c.check(e2e["GW_VehicleSpeed"]["data_id_list"][:3] == [0x10, 0x21, 0x32]
            and len(e2e["GW_VehicleSpeed"]["data_id_list"]) == 16, "data_id_list: 16 values, hex")
    c.check(e2e["ESP_YawRate"]["data_id"] == [0x2B3] and e2e["ESP_YawRate"]["data_id_mode"] == ["nibble"],
            "data_id 0x2B3, data_id_mode nibble")
    # The ecu bus is RAVON's own, as the rig file has it.
    with open(os.path.join(REPO, "hil_rigs", "ravon", "rig.pbtxt"), encoding="utf-8") as f:
        rig = parse_textproto(f.read())
    ravon = rig["can"][0]["buses"][0]
    mine = dict(buses[0])
    c.check(os.path.normpath(os.path.join(HERE, mine.pop("dbc")[0])) ==
            os.path.join(REPO, "hil_rigs", "ravon", "ravon.dbc")
            and {k: v for k, v in ravon.items() if k != "dbc"} == mine,
            "bus ecu repeats hil_rigs/ravon/rig.pbtxt's (dbc relative to the overlay)")


def self_test_fixture(c):
    print("The fixture (vehicle.dbc through canmatrix, the overlay's E2E):")
    db, messages = load_fixture()
    by_name = {m.name: m for m in messages}
    nodes = [e.name for e in db.ecus]
    c.check(len(nodes) == 12 and len(messages) >= 45, f"{len(nodes)} nodes, {len(messages)} messages")
    vector_types = {"Cyclic", "Spontaneous", "CyclicIfActive", "SpontaneousWithDelay", "CyclicAndSpontaneous",
                    "CyclicAndSpontaneousWithDelay", "SpontaneousWithRepetition",
                    "CyclicIfActiveAndSpontaneousWD", "NoMsgSendType"}
    used = {m.send_type for m in messages}
    c.check(vector_types <= used, f"every Vector send type used ({len(used)})")
    cycles = {m.cycle_ms for m in messages if m.behaviour == "cyclic"}
    c.check({10, 20, 50, 100, 200, 500, 1000} <= cycles, f"cycle times {sorted(cycles)}")
    delays = sorted({m.start_delay_ms for m in messages if m.role == "sim" and m.behaviour == "cyclic"})
    c.check({0, 50, 200, 500} <= set(delays), f"start delays {delays}")
    c.check(any(m.fd and m.length == n for m in messages for n in (12,)) and
            all(any(m.fd and m.length == n for m in messages) for n in (12, 16, 32, 64)), "CAN FD lengths 12, 16, 32, 64")
    c.check(sum(m.extended for m in messages) >= 3 and any(m.extended and m.fd for m in messages),
            f"{sum(m.extended for m in messages)} messages with 29-bit ids, one of them FD")
    c.check(any(not s.is_little_endian for m in messages for s in m.frame.signals), "Motorola signals")
    c.check(by_name["TCU_Temps"].start_phys(by_name["TCU_Temps"].frame.signal_by_name("TCU_ClutchTemp")) == 60,
            "GenSigStartValue raw 1000 × 0.1 − 40 = 60.0 (TCU_ClutchTemp)")
    for behaviour in ("cyclic", "once", "repeat", "silent"):
        c.check(any(m.role == "sim" and m.behaviour == behaviour for m in messages),
                f"simulated messages that are {behaviour}: "
                f"{', '.join(m.name for m in messages if m.role == 'sim' and m.behaviour == behaviour)}")
    c.check(any(m.role == "nobody" for m in messages) and any(m.role == "dut" for m in messages),
            "messages of Vector__XXX and of the device under test")
    for profile in PROFILES:
        sent = [m.name for m in messages if m.e2e and m.e2e.profile == profile and m.role == "sim"]
        c.check(len(sent) >= 2, f"{profile} on {', '.join(sent)}")
    sources = [m.e2e.source for m in messages if m.e2e]
    c.check(sources.count("DBC") >= 5 and sources.count("overlay") >= 5,
            f"E2E configured in the DBC for {sources.count('DBC')}, in the overlay for {sources.count('overlay')}")
    for m in messages:
        if not m.e2e:
            continue
        problems = m.e2e.problems(m.length)
        c.check(not problems, f"{m.name}: {m.e2e.profile} config {problems or 'valid'}")
        # Its header signals carry the E2E fields, as canmatrix decodes them.
        for n in (5, 6):
            data = m.start_payload(counter=n)
            crc, counter, nibble = e2e_read(m.e2e, data)
            decoded = {k: v.raw_value for k, v in m.frame.decode(data).items() if k in m.header_signals}
            want = sorted([crc, counter] + ([nibble] if nibble is not None else []))
            c.check(sorted(decoded.values()) == want and not e2e_check(m.e2e, data)[1],
                    f"{m.name}: header signals {decoded} = CRC {crc:#x}, counter {counter}"
                    + (f", nibble {nibble:#x}" if nibble is not None else ""))
    pdb = load_dbc(PRODUCTION_DBC)
    kinds = {f.name: SEND_TYPES[f.attribute("GenMsgSendType", pdb)] for f in pdb.frames}
    c.check(kinds == {"PCM_EngineData": "cyclic", "BCM2_DoorEvent": "once", "BCM2_LampStatus": "cyclic",
                      "PCM_Diagnostics": "silent"}, f"production_names.dbc by name: {kinds}")
    for m in messages:      # canmatrix decodes the start-value frame to the start values
        decoded = m.frame.decode(m.start_payload())
        wrong = [f"{n}={v.phys_value} (want {m.start_phys(v.signal)})" for n, v in decoded.items()
                 if v.raw_value != m.start_raw[n] or v.phys_value != m.start_phys(v.signal)]
        if wrong:
            c.check(False, f"{m.name}: start values decode as {', '.join(wrong)}")
    c.check(True, "every message's start-value frame decodes (canmatrix) to GenSigStartValue × factor + offset")
    hilsim = os.environ.get("HILSIM")
    if hilsim and os.path.exists(hilsim):
        for path in (DBC, PRODUCTION_DBC):
            p = subprocess.run([hilsim, "dbc", "show", path], capture_output=True, text=True, timeout=60)
            c.check(p.returncode == 0 and not p.stderr.strip(),
                    f"hilsim dbc show {os.path.basename(path)}: exit {p.returncode}"
                    + (f", stderr: {p.stderr.strip()[:300]}" if p.stderr.strip() else ", no warnings"))
        # hilsim's codec and canmatrix build the same start-value frame of every message.
        differ = []
        for m in messages:
            p = subprocess.run([hilsim, "dbc", "encode", DBC, m.name], capture_output=True, text=True, timeout=60)
            text = p.stdout.strip()
            hexdata = text.split("##", 1)[1][1:] if "##" in text else text.split("#", 1)[-1]
            if p.returncode != 0 or bytes.fromhex(hexdata) != m.start_payload():
                differ.append(f"{m.name}: hilsim {text or p.stderr.strip()}, canmatrix {m.start_payload().hex().upper()}")
        c.check(not differ, "hilsim dbc encode and canmatrix agree on the start-value frame of all "
                f"{len(messages)} messages" + ("".join("\n          " + d for d in differ)))
    else:
        print("  (HILSIM not set: the DBCs not read by hilsim here)")


def synthetic_run(messages, tmp, faults=(), pacing=1.0):
    """What a correct hilsim would produce on the body bus, as the run's analysis sees it: the
    peer's records, can.log (candump format, read back by python-can) and the summary line.
    `faults` breaks it in named ways, to show that the analysis catches each."""
    from types import SimpleNamespace
    t0_wall, t0_sim = 5000.0, 1700000000.0
    by_name = {m.name: m for m in messages}
    events = []                                       # (tick, message, payload)
    ticks_per_ms = round(1e-3 / TICK_S)
    last_tick = round(RUN_S / TICK_S) - 1
    for m in messages:
        if m.role != "sim" or m.behaviour == "silent":
            if not (m.name == "EPS_Status" and "eps_sent" in faults) and \
                    not (m.name == "HVAC_Defrost" and "inactive_sent" in faults):
                continue
        if m.behaviour in ("cyclic", "silent"):
            cycle = (m.cycle_ms + (1 if m.name == "ESP_Status" and "period" in faults else 0)) * ticks_per_ms
            start = 0 if m.name == "TCU_Temps" and "start_delay" in faults else m.start_delay_ms * ticks_per_ms
            ticks = list(range(start, last_tick + 1, cycle))
        elif m.behaviour == "once":
            ticks = [0]
        else:
            n = m.repetitions + (0 if "repetitions" in faults and m.name == "BCM_Wiper" else 1)
            ticks = [k * m.fast_ms * ticks_per_ms for k in range(n)]
        if m.name == "ABS_Diag" and "missing" in faults:
            continue
        counter = 0
        for i, tick in enumerate(ticks):
            if m.e2e and m.name == "EMS_Torque" and "counter_jump" in faults and i == 100:
                counter = (counter + 1) % COUNTER_MODULUS[m.e2e.profile]
            data = bytearray(m.start_payload(counter) if m.e2e else m.start_payload())
            if m.name == "SAS_Angle" and "bad_crc" in faults and i == 7:
                data[0] ^= 0x01
            if m.name == "EMS_Temps" and "start_value" in faults:
                data[0] ^= 0x02
            events.append((tick, m, bytes(data)))
            if m.e2e:
                counter = (counter + 1) % COUNTER_MODULUS[m.e2e.profile]
    events.sort(key=lambda e: e[0])
    records, sequences, lines = [], [], []
    seq, prev_tick = -1, None
    for tick, m, data in events:
        if tick != prev_tick:
            seq, prev_tick = (seq + 1) & 0xFF, tick
            sequences.append(seq)
        f = Frame(m.can_id, extended=m.extended, fd=m.fd, brs=m.brs, data=data)
        late = 0.004 if m.name == "VCU_Battery" and "late_frame" in faults and tick == 30 * 400 else 0.0
        records.append((t0_wall + tick * TICK_S * pacing + 0.0003 + late, seq, f))
        t = t0_sim + tick * TICK_S
        ident = f"{m.can_id:08X}" if m.extended else f"{m.can_id:03X}"
        sep = f"##{1 if m.brs else 0}" if m.fd else "#"
        lines.append(f"({int(t):010d}.{round((t % 1) * 1e6):06d}) {BUS} {ident}{sep}{data.hex().upper()}")
    # The device under test's frames, as received and recorded.
    sent = {"EPS_Status": {"valid": 600, "bad_crc": 3, "repeated": 2},
            "EPS_SteerTorque": {"valid": 300, "bad_crc": 2, "repeated": 0}}
    payloads = set()
    for name, n, bad_crc, repeated in (("EPS_Status", 600, {50, 150, 250}, {100, 200}),
                                       ("EPS_SteerTorque", 300, {60, 120}, set())):
        m = by_name[name]
        modulus = COUNTER_MODULUS[m.e2e.profile]
        frames = []
        for i in range(n):
            frames.append(m.start_payload(i % modulus))
            if i in bad_crc:
                bad = bytearray(m.start_payload((i + 1) % modulus))
                bad[m.e2e.offset_bits // 8] ^= 0x5A
                frames.append(bytes(bad))
            if i in repeated:
                frames.append(frames[-1])
        for i, data in enumerate(frames):
            payloads.add((m.can_id, data))
            t = t0_sim + 1.0 + i * m.cycle_ms / 1e3
            lines.append(f"({int(t):010d}.{round((t % 1) * 1e6):06d}) {BUS} {m.can_id:03X}"
                         + (f"##1{data.hex().upper()}" if m.fd else f"#{data.hex().upper()}"))
    lines.append(f"({int(t0_sim):010d}.000000) ecu 100#000000000000000A")
    path = os.path.join(tmp, "can.log")
    with open(path, "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")
    refused = 6 if "refused" in faults else 7
    stdout = (f"  CAN ecu (virtual:ravon): ECU frames in 0 (0 refused, 0 unknown id), out 5040 (0 not sent), timeouts 2\n"
              f"  CAN {BUS} (cannelloni://127.0.0.1:1?local=127.0.0.1:2): ECU frames in {907 - refused} "
              f"({refused} refused, 0 unknown id), out {len(events)} (0 not sent), timeouts 0\n")
    peer = SimpleNamespace(records=records, bad_packets=[], foreign=[], sequences=sequences, sent=sent,
                           sent_payloads=payloads)
    return peer, read_can_log(path), stdout


def self_test_analysis(c):
    print("The run's analysis on synthetic runs (what a correct hilsim sends; then broken ones):")
    _, messages = load_fixture()
    with tempfile.TemporaryDirectory(prefix="restbus_selftest_") as tmp:
        peer, log, stdout = synthetic_run(messages, tmp)
        failures, rows = analyse(messages, peer, log, stdout)
        c.check(not failures, f"a correct real-time run passes: {len(log)} can.log frames, "
                f"{len(peer.records)} on the wire" + "".join("\n          " + f for f in failures[:10]))
        peer, log, stdout = synthetic_run(messages, tmp, pacing=1.02)
        failures, rows = analyse(messages, peer, log, stdout)
        c.check(not failures, "a correct run 2 % behind real time passes (wire periods not judged)"
                + "".join("\n          " + f for f in failures[:10]))
        failures, rows = analyse(messages, peer, log, stdout, strict_wire=True)
        c.check(any("mean period" in f for f in failures), "… and fails with --strict-wire")
        faults = {"missing": "ABS_Diag", "bad_crc": "SAS_Angle", "counter_jump": "EMS_Torque",
                  "period": "ESP_Status", "eps_sent": "EPS_Status", "inactive_sent": "HVAC_Defrost",
                  "start_value": "EMS_Temps", "start_delay": "TCU_Temps", "repetitions": "BCM_Wiper",
                  "late_frame": "VCU_Battery", "refused": "refused"}
        peer, log, stdout = synthetic_run(messages, tmp, faults=tuple(faults))
        failures, rows = analyse(messages, peer, log, stdout)
        for fault, name in faults.items():
            hits = [f for f in failures if f.startswith(name) or (name == "refused" and "refused" in f)]
            c.check(bool(hits), f"fault {fault!r} caught: {hits[0] if hits else 'NOT CAUGHT'}")
        # EPS frames sent by "hilsim" are also in can.log: the received-frame count is off too.
        stray = [f for f in failures if not any(f.startswith(n) or (n == "refused" and "refused" in f)
                                                for n in faults.values()) and "frames of EPS" not in f]
        c.check(not stray, "nothing else flagged" + "".join("\n          " + f for f in stray[:10]))


def self_test():
    c = Checks()
    self_test_crc(c)
    self_test_e2e(c)
    self_test_cannelloni(c)
    self_test_overlay(c)
    self_test_fixture(c)
    self_test_analysis(c)
    return c.failures


# =============================================================================================
# The run: hilsim on one end of cannelloni, this process on the other
# =============================================================================================

def two_free_ports():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as a, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as b:
        a.bind(("127.0.0.1", 0))
        b.bind(("127.0.0.1", 0))
        return a.getsockname()[1], b.getsockname()[1]


def write_run_overlay(src, dst, uri):
    """restbus.pbtxt with the body bus on `uri` and every dbc path absolute."""
    with open(src, encoding="utf-8") as f:
        text = f.read()
    text, n = re.subn(r'uri:\s*"virtual:body"', f'uri: "{uri}"', text)
    if n != 1:
        raise ValueError(f"{src}: expected one uri: \"virtual:body\", found {n}")
    base = os.path.dirname(os.path.abspath(src))
    text = re.sub(r'(dbc:\s*)"([^"]+)"',
                  lambda m: f'{m.group(1)}"{os.path.normpath(os.path.join(base, m.group(2)))}"', text)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)


class Peer:
    """The far end of the body bus: a UDP socket on 127.0.0.1:port that timestamps every
    datagram hilsim sends (time.monotonic) and sends the device under test's frames."""

    def __init__(self, port, rig_port):
        self.rig = ("127.0.0.1", rig_port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", port))
        self.sock.settimeout(0.05)
        self.records = []            # (arrival time, sequence number, Frame)
        self.bad_packets = []        # (arrival time, error, hex)
        self.foreign = []            # datagrams from anyone but the rig
        self.sequences = []
        self.first = threading.Event()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.sent = {}               # DUT message name -> {"valid": n, "bad_crc": n, "repeated": n}
        self.sent_payloads = set()
        self._tx_seq = 0
        self.threads = [threading.Thread(target=self._receive, daemon=True)]

    def start(self, dut_messages, dut_seconds):
        self.threads.append(threading.Thread(target=self._send_dut, args=(dut_messages, dut_seconds), daemon=True))
        for t in self.threads:
            t.start()

    def close(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=5)
        self.sock.close()

    def _receive(self):
        while not self.stop.is_set():
            try:
                packet, addr = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            t = time.monotonic()
            if addr != self.rig:
                self.foreign.append(addr)
                continue
            try:
                seq, frames = parse_cannelloni(packet)
            except CannelloniError as e:
                self.bad_packets.append((t, str(e), packet[:64].hex()))
                continue
            with self.lock:
                self.sequences.append(seq)
                self.records.extend((t, seq, f) for f in frames)
            self.first.set()

    def _send(self, frame, payload):
        packet = build_cannelloni(self._tx_seq, [Frame(frame.can_id, extended=frame.extended, fd=frame.fd,
                                                       brs=frame.brs, data=bytes(payload))])
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        self.sock.sendto(packet, self.rig)
        self.sent_payloads.add((frame.can_id, bytes(payload)))

    def _send_dut(self, messages, seconds):
        """The ECU's side: each cyclic EPS message every cycle, E2E-protected from counter 0.
        Injected, each where a bus would carry it: a frame with a corrupted CRC (the next
        counter; the valid frame with that counter follows), a repeated frame (the last valid
        one again), and a burst (a frame held back one cycle, then sent right before the next:
        two consecutive counters in one tick, which the E2E check accepts)."""
        if not self.first.wait(timeout=60):      # hilsim's bus is up once its first frame arrives
            return
        plan = {"EPS_Status": {"bad_crc": {50, 150, 250}, "repeated": {100, 200}, "burst": {300}},
                "EPS_SteerTorque": {"bad_crc": {60, 120}, "repeated": set(), "burst": {200}}}
        held = {}
        state = {m.name: {"index": 0, "counter": 0, "last": None} for m in messages}
        base = {m.name: m.start_payload() for m in messages}
        for m in messages:
            self.sent[m.name] = {"valid": 0, "bad_crc": 0, "repeated": 0}
        t0 = time.monotonic()
        step, tick = 0.010, 0
        while not self.stop.is_set() and tick * step < seconds:
            due = t0 + tick * step
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            for m in messages:
                if (tick * 10) % m.cycle_ms:
                    continue
                s, p = state[m.name], plan.get(m.name, {"bad_crc": set(), "repeated": set(), "burst": set()})
                payload = base[m.name] if not m.e2e else bytes(e2e_protect(m.e2e, bytearray(base[m.name]), s["counter"]))
                if s["index"] in p["burst"]:
                    held[m.name] = payload           # sent with the next one
                else:
                    if m.name in held:
                        self._send(m, held.pop(m.name))
                    self._send(m, payload)
                self.sent[m.name]["valid"] += 1
                s["last"] = payload
                if m.e2e:
                    modulus = COUNTER_MODULUS[m.e2e.profile]
                    s["counter"] = (s["counter"] + 1) % modulus
                    if s["index"] in p["bad_crc"]:
                        bad = e2e_protect(m.e2e, bytearray(base[m.name]), s["counter"])
                        bad[m.e2e.offset_bits // 8] ^= 0x5A
                        self._send(m, bad)
                        self.sent[m.name]["bad_crc"] += 1
                    if s["index"] in p["repeated"]:
                        self._send(m, s["last"])
                        self.sent[m.name]["repeated"] += 1
                s["index"] += 1
            tick += 1


@dataclass
class Seen:
    """The frames of one message: on the wire (arrival times) and in can.log (simulated time)."""
    wire: list = field(default_factory=list)     # (t, Frame)
    log: list = field(default_factory=list)      # (t, can.Message)


def read_can_log(path):
    import can
    out = []
    for msg in can.CanutilsLogReader(path):
        if msg.channel == BUS and not msg.is_error_frame and not msg.is_remote_frame:
            out.append(msg)
    return out


def e2e_receive(cfg, payloads):
    """The E2E check of each received frame in turn, as the protocol's receiver does it frame by
    frame: CRC (and data id nibble) first; then the counter against the last accepted frame's:
    a step of 0 is a repetition, more than max_delta_counter a wrong sequence (refused, and it
    resynchronises), anything between accepted. The first frame has nothing to compare with.
    Returns {"accepted", "crc", "repeated", "wrong_sequence"} counts."""
    out = {"accepted": 0, "crc": 0, "repeated": 0, "wrong_sequence": 0}
    last = None
    for data in payloads:
        if cfg is None:
            out["accepted"] += 1
            continue
        counter, problems = e2e_check(cfg, data)
        if problems:
            out["crc"] += 1
            continue
        if last is not None:
            delta = (counter - last) % COUNTER_MODULUS[cfg.profile]
            if delta == 0:
                out["repeated"] += 1
                continue
            if delta > cfg.max_delta_counter:
                out["wrong_sequence"] += 1
                last = counter
                continue
        out["accepted"] += 1
        last = counter
    return out


def fmt_ms(seconds):
    return "-" if seconds is None else f"{seconds * 1e3:.4f}"


def analyse(messages, peer, log_frames, run_stdout, strict_wire=False):
    """Every check on what came out; returns (failures, table rows)."""
    failures, rows = [], []

    def fail(what):
        failures.append(what)

    by_key = {(m.can_id, m.extended): m for m in messages}
    seen = {m.name: Seen() for m in messages}
    dut_names = {m.name for m in messages if m.role == "dut"}

    # ---- the wire -------------------------------------------------------------------------
    if peer.bad_packets:
        fail(f"{len(peer.bad_packets)} malformed cannelloni packets from hilsim, first: {peer.bad_packets[0][1:]}")
    if peer.foreign:
        fail(f"datagrams from other senders: {sorted(set(peer.foreign))[:5]}")
    gaps = sum(((b - a) & 0xFF) - 1 for a, b in zip(peer.sequences, peer.sequences[1:]) if (b - a) & 0xFF != 1)
    print(f"wire: {len(peer.sequences)} cannelloni packets, {len(peer.records)} frames, "
          f"{gaps} packets missing in the sequence numbers")
    unknown = {}
    for t, seq, f in peer.records:
        m = by_key.get((f.can_id, f.extended))
        if m is None or f.rtr or f.error:
            unknown[(f.can_id, f.extended)] = unknown.get((f.can_id, f.extended), 0) + 1
            continue
        seen[m.name].wire.append((t, f))
    for (can_id, ext), n in unknown.items():
        fail(f"wire: {n} frames with id {can_id:#x}{' (29-bit)' if ext else ''} that vehicle.dbc does not define")

    # ---- can.log --------------------------------------------------------------------------
    for msg in log_frames:
        m = by_key.get((msg.arbitration_id, msg.is_extended_id))
        if m is None:
            fail(f"can.log: frame with id {msg.arbitration_id:#x} that vehicle.dbc does not define")
            continue
        seen[m.name].log.append((msg.timestamp, msg))
    tx_log = [msg.timestamp for msg in log_frames if by_key.get((msg.arbitration_id, msg.is_extended_id))
              and by_key[(msg.arbitration_id, msg.is_extended_id)].name not in dut_names]
    wire_times = [t for name, s in seen.items() if name not in dut_names for t, _ in s.wire]
    t0_wire = min(wire_times) if wire_times else None
    t0_log = min(tx_log) if tx_log else None
    if t0_wire is None or t0_log is None:
        fail("no frame of the rest-bus simulation arrived" if t0_wire is None else "can.log has no body frame")
    # The wire against simulated time. Each message's n-th frame on the wire is its n-th in
    # can.log (when the counts agree). hilsim paces simulated time on the wall clock; without RT
    # privileges on a loaded machine it falls behind in bursts (overruns, "N periods dropped"),
    # which stretches the periods on the wire whatever the rest-bus simulation does. What is the
    # rest-bus's own is that each frame leaves in the tick that built it, i.e. arrives with the
    # other frames of that tick.
    pairs = {}                                   # message -> [(simulated t, wire t)]
    for m in messages:
        s = seen[m.name]
        if m.name not in dut_names and s.wire and len(s.wire) == len(s.log):
            pairs[m.name] = [(lt, wt) for (lt, _), (wt, _) in zip(s.log, s.wire)]
    drift, pacing, realtime = 0.0, 1.0, strict_wire
    if pairs and t0_wire is not None and t0_log is not None:
        allp = [p for ps in pairs.values() for p in ps]
        drift = max(abs((wt - t0_wire) - (lt - t0_log)) for lt, wt in allp)
        span = max(lt for lt, _ in allp) - t0_log
        pacing = (max(wt for _, wt in allp) - t0_wire) / span if span > 0 else 1.0
        realtime = strict_wire or drift <= REALTIME_DRIFT_S
        by_tick = {}
        for lt, wt in allp:
            by_tick.setdefault(round((lt - t0_log) / TICK_S), []).append(wt)
        centre = {k: sorted(v)[len(v) // 2] for k, v in by_tick.items()}
        for name, ps in pairs.items():
            apart = [(lt, wt - centre[round((lt - t0_log) / TICK_S)]) for lt, wt in ps
                     if abs(wt - centre[round((lt - t0_log) / TICK_S)]) > SAME_TICK_S]
            if apart:
                fail(f"{name}: {len(apart)} frames arrived apart from the frames can.log has in the same tick "
                     f"(first at {(apart[0][0] - t0_log) * 1e3:.3f} ms simulated, {apart[0][1] * 1e3:+.3f} ms): "
                     "not sent in the tick that built them")
        print(f"wire vs simulated time: {span:.4f} s simulated took {pacing * span:.4f} s on the wire "
              f"(ratio {pacing:.5f}), largest drift {drift * 1e3:.3f} ms; "
              + ("the run kept real time: wire periods and start delays judged against the DBC"
                 if drift <= REALTIME_DRIFT_S else
                 ("--strict-wire: wire periods judged against the DBC all the same" if strict_wire else
                  "hilsim fell behind real time (its overrun warnings): wire periods are shown, "
                  "not judged (can.log's are)")))
        if abs(pacing - 1) > 0.05:
            fail(f"hilsim's frames took {pacing:.4f} × their simulated time on the wire: not a real-time run")

    for m in messages:
        s = seen[m.name]
        row = dict(name=m.name, node=m.node, send=m.send_type, behaviour=m.behaviour,
                   e2e=f"{m.e2e.profile}/{m.e2e.source}" if m.e2e else "", expected=None,
                   wire_period=None, log_period=None, n_wire=len(s.wire), n_log=len(s.log), first=None, ok=True)
        rows.append(row)
        before = len(failures)

        if m.role != "sim" or m.behaviour == "silent":
            if s.wire:
                fail(f"{m.name} ({m.why}): {len(s.wire)} frames on the wire, expected none")
            if s.log and m.role != "dut":
                fail(f"{m.name} ({m.why}): {len(s.log)} frames in can.log, expected none")
            row["ok"] = len(failures) == before
            continue

        if not s.wire and not s.log:
            fail(f"{m.name} ({m.node}, {m.send_type}): never sent (neither on the wire nor in can.log)")
            row["ok"] = False
            continue
        if len(s.wire) != len(s.log):
            fail(f"{m.name}: {len(s.wire)} frames on the wire, {len(s.log)} in can.log")

        # Frame format, every frame.
        bad_format = [f for _, f in s.wire if (f.extended, f.fd, len(f.data), f.brs) != (m.extended, m.fd, m.length, m.brs)]
        if bad_format:
            f = bad_format[0]
            fail(f"{m.name}: {len(bad_format)} frames on the wire not {'29' if m.extended else '11'}-bit "
                 f"{'FD' if m.fd else 'classic'} {m.length} bytes{' BRS' if m.brs else ''}: first is "
                 f"{'29' if f.extended else '11'}-bit {'FD' if f.fd else 'classic'} {len(f.data)} bytes{' BRS' if f.brs else ''}")
        bad_log = [g for _, g in s.log if (bool(g.is_fd), len(g.data)) != (m.fd, m.length)
                   or (m.fd and bool(g.bitrate_switch) != m.brs)]
        if bad_log:
            fail(f"{m.name}: {len(bad_log)} frames in can.log of the wrong format or length")

        # Timing.
        if s.wire and s.log and t0_wire is not None and t0_log is not None:
            first_wire = s.wire[0][0] - t0_wire
            first_log = s.log[0][0] - t0_log
            row["first"] = first_log
            want_first = m.start_delay_ms / 1e3 if m.behaviour == "cyclic" else 0.0
            if abs(first_log - want_first) > EXACT_TOL_S:
                fail(f"{m.name}: first frame {first_log * 1e3:.3f} ms after the bus's first in can.log, "
                     f"expected {want_first * 1e3:g} ms (GenMsgStartDelayTime {m.start_delay_ms})")
            if realtime and abs(first_wire - want_first) > WIRE_START_TOL_S:
                fail(f"{m.name}: first frame {first_wire * 1e3:.3f} ms after the bus's first on the wire, "
                     f"expected {want_first * 1e3:g} ms ± {WIRE_START_TOL_S * 1e3:g}")

        log_t = [t for t, _ in s.log]
        diffs = [b - a for a, b in zip(log_t, log_t[1:])]
        if m.behaviour == "cyclic":
            c = m.cycle_ms / 1e3
            row["expected"] = c
            if len(s.wire) >= 2:
                span = s.wire[-1][0] - s.wire[0][0]
                mean = span / (len(s.wire) - 1)
                row["wire_period"] = mean
                if span < MIN_SPAN_S:
                    fail(f"{m.name}: frames span {span:.3f} s on the wire, a mean period needs {MIN_SPAN_S:g} s")
                if realtime and abs(mean - c) > TICK_S:
                    fail(f"{m.name}: mean period {mean * 1e3:.4f} ms over {len(s.wire)} frames on the wire, "
                         f"expected {m.cycle_ms} ms ± {TICK_S * 1e3:g}")
            if diffs:
                row["log_period"] = sum(diffs) / len(diffs)
                off = [d for d in diffs if abs(d - c) > EXACT_TOL_S]
                if off:
                    fail(f"{m.name}: {len(off)} of {len(diffs)} periods in can.log differ from {m.cycle_ms} ms "
                         f"(min {min(diffs) * 1e3:.3f}, max {max(diffs) * 1e3:.3f} ms)")
            expected_n = int((RUN_S * 1e6 - TICK_S * 1e6 - m.start_delay_ms * 1e3) // (m.cycle_ms * 1e3)) + 1
            if abs(len(s.log) - expected_n) > 1:
                fail(f"{m.name}: {len(s.log)} frames in can.log, expected {expected_n} in {RUN_S:g} s")
        elif m.behaviour == "once":
            if len(s.wire) != 1 or len(s.log) != 1:
                fail(f"{m.name} ({m.send_type}, nobody writes it): {len(s.wire)} frames on the wire, "
                     f"{len(s.log)} in can.log, expected 1 at the start")
        elif m.behaviour == "repeat":
            want = 1 + m.repetitions if REPEAT_AT_START else 1
            row["expected"] = m.fast_ms / 1e3
            if len(s.wire) != want or len(s.log) != want:
                fail(f"{m.name} (SpontaneousWithRepetition, GenMsgNrOfRepetition {m.repetitions}): "
                     f"{len(s.wire)} frames on the wire, {len(s.log)} in can.log, expected {want}")
            if diffs:
                row["log_period"] = sum(diffs) / len(diffs)
                if any(abs(d - m.fast_ms / 1e3) > EXACT_TOL_S for d in diffs):
                    fail(f"{m.name}: repetitions {[round(d * 1e3, 3) for d in diffs]} ms apart in can.log, "
                         f"expected GenMsgCycleTimeFast {m.fast_ms} ms")

        # Start values: first and last frame, every signal nobody writes.
        for label, idx in (("first", 0), ("last", -1)):
            if not s.wire:
                break
            decoded = m.frame.decode(s.wire[idx][1].data)
            wrong = []
            for name, v in decoded.items():
                if name in m.header_signals or name in m.mapped:
                    continue
                want = m.start_phys(v.signal)
                if abs(decimal.Decimal(v.phys_value) - want) > decimal.Decimal("1e-9"):
                    wrong.append(f"{name}={v.phys_value} (raw {v.raw_value}; expected {want}, raw {m.start_raw[name]})")
            if wrong:
                fail(f"{m.name}: the {label} frame's signals are not their start values: {'; '.join(wrong)}")

        # E2E: every frame passes the profile's check; counters step by one.
        if m.e2e:
            modulus = COUNTER_MODULUS[m.e2e.profile]
            for where, frames in (("wire", [f.data for _, f in s.wire]), ("can.log", [bytes(g.data) for _, g in s.log])):
                counters, bad = [], []
                for data in frames:
                    if len(data) != m.length:
                        continue
                    ctr, problems = e2e_check(m.e2e, data)
                    counters.append(ctr)
                    if problems:
                        bad.append(f"{data.hex()}: {'; '.join(problems)}")
                if bad:
                    fail(f"{m.name} ({m.e2e.profile}): {len(bad)} of {len(frames)} frames fail the E2E check "
                         f"({where}), first: {bad[0]}")
                steps = [(b - a) % modulus for a, b in zip(counters, counters[1:])]
                jumps = [(i, counters[i], counters[i + 1]) for i, st in enumerate(steps) if st != 1]
                if jumps:
                    fail(f"{m.name} ({m.e2e.profile}): counter does not step by one modulo {modulus} ({where}): "
                         f"{len(jumps)} times, first at frame {jumps[0][0]}: {jumps[0][1]} → {jumps[0][2]}")
                if where == "wire" and counters:
                    row["e2e"] += f" {counters[0]}→{counters[-1]}"
        row["ok"] = len(failures) == before

    # ---- the device under test: what hilsim received --------------------------------------
    injected = sum(v["bad_crc"] + v["repeated"] for v in peer.sent.values())
    valid = sum(v["valid"] for v in peer.sent.values())
    print(f"device under test: sent {valid} valid frames, {injected} to refuse "
          + ", ".join(f"{k}: {v}" for k, v in peer.sent.items()))
    verdicts = {m.name: e2e_receive(m.e2e, [bytes(g.data) for _, g in seen[m.name].log])
                for m in messages if m.role == "dut"}
    should_refuse = sum(v["crc"] + v["repeated"] + v["wrong_sequence"] for v in verdicts.values())
    print("the E2E check frame by frame over what can.log says hilsim received: "
          + "; ".join(f"{n}: {v['accepted']} accepted, {v['crc']} CRC, {v['repeated']} repeated, "
                      f"{v['wrong_sequence']} wrong sequence" for n, v in verdicts.items() if sum(v.values())))
    for m in messages:
        if m.role == "dut":
            foreign = [g for _, g in seen[m.name].log if (g.arbitration_id, bytes(g.data)) not in peer.sent_payloads]
            if foreign:
                fail(f"{m.name}: {len(foreign)} frames in can.log that this peer did not send (hilsim sent the DUT's?)")
    line = re.search(rf"^\s*CAN {BUS} \([^)]*\):(.*)$", run_stdout, re.M)
    counts = re.search(r"\bin (\d+) \((\d+) refused(?:, (\d+) unknown id)?", line.group(1)) if line else None
    if not counts:
        fail(f"the run summary has no 'CAN {BUS} (…): … in N (M refused …' line to check the received frames by")
    else:
        accepted, refused = int(counts.group(1)), int(counts.group(2))
        unknown_ids = int(counts.group(3) or 0)
        dut_log = sum(len(seen[n].log) for n in dut_names)
        print(f"hilsim received on {BUS}: {accepted} applied, {refused} refused, {unknown_ids} unknown id; "
              f"{dut_log} frames of EPS in can.log")
        if refused != should_refuse or should_refuse != injected:
            fail(f"hilsim refused {refused} of the device under test's frames; the E2E check refuses "
                 f"{should_refuse} of those it received ({injected} sent with a bad CRC or a repeated counter)")
        if accepted < 0.9 * valid:
            fail(f"hilsim applied {accepted} of the {valid} valid frames of the device under test")
        if unknown_ids:
            fail(f"hilsim counted {unknown_ids} frames of unknown id on {BUS}")
        if dut_log != accepted + refused:
            fail(f"can.log has {dut_log} frames of EPS, hilsim counted {accepted} + {refused}: every received "
                 "frame is recorded")
    strict = [r for r in rows if r["wire_period"] is not None and r["behaviour"] == "cyclic"]
    within = sum(1 for r in strict if abs(r["wire_period"] - r["expected"]) <= TICK_S)
    print(f"wire: mean periods within one tick of GenMsgCycleTime: {within} of {len(strict)} cyclic messages"
          + ("" if realtime else " (not judged: hilsim did not keep real time)"))
    return failures, rows


def print_table(rows):
    print()
    head = (f"{'message':20} {'node':11} {'send type':30} {'E2E (counters)':18} {'expected ms':>11} "
            f"{'wire ms':>10} {'can.log ms':>10} {'first ms':>9} {'count':>11}  ")
    print(head)
    print("-" * len(head))
    for r in rows:
        count = f"{r['n_wire']}/{r['n_log']}"
        print(f"{r['name']:20} {r['node']:11} {r['send'] + ('' if r['behaviour'] != 'silent' else ' (silent)'):30} "
              f"{r['e2e']:18} {fmt_ms(r['expected']):>11} {fmt_ms(r['wire_period']):>10} "
              f"{fmt_ms(r['log_period']):>10} {fmt_ms(r['first']):>9} {count:>11}  {'ok' if r['ok'] else 'FAIL'}")
    print("(count: frames on the wire / in can.log; wire ms: mean period of the UDP arrival times; "
          "can.log ms: mean of the simulated-time periods; first: after the bus's first frame, can.log)")


def run(args):
    hilsim = os.environ.get("HILSIM")
    if not hilsim:
        print("HILSIM is not set (the hilsim binary to test)", file=sys.stderr)
        return 2
    db, messages = load_fixture(DBC, args.overlay)
    rig_port, py_port = two_free_ports()
    uri = f"cannelloni://127.0.0.1:{py_port}?local=127.0.0.1:{rig_port}"
    with tempfile.TemporaryDirectory(prefix="restbus_") as tmp:
        overlay = os.path.join(tmp, "restbus.pbtxt")
        write_run_overlay(args.overlay, overlay, uri)
        run_dir = args.run_dir or os.path.join(tmp, "run")
        cmd = [hilsim, "run", "--rig", "ravon", "--overlay", overlay, "--scenario", "none",
               "--duration", f"{RUN_S:g}s", "--no-rt", "--console", "off", "--record", run_dir, "-q"]
        print("$ " + " ".join(cmd))
        peer = Peer(py_port, rig_port)
        dut = [m for m in messages if m.role == "dut" and m.cycle_ms and SEND_TYPES.get(m.send_type) == "cyclic"]
        peer.start(dut, dut_seconds=6.0)
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            stdout, stderr = proc.communicate(timeout=RUN_S + 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
            print(stdout, stderr, sep="\n")
            print(f"FAIL: hilsim run did not end within {RUN_S + 60:g} s; killed", file=sys.stderr)
            return 1
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            time.sleep(0.3)                          # the last datagrams
            peer.close()
        print(stdout.rstrip())
        if proc.returncode != 0:
            print(stderr.rstrip(), file=sys.stderr)
            print(f"FAIL: hilsim run exited {proc.returncode}", file=sys.stderr)
            return 1
        if stderr.strip():
            print("hilsim stderr:\n" + stderr.rstrip())
        log_path = os.path.join(run_dir, "can.log")
        log_frames = read_can_log(log_path) if os.path.exists(log_path) else []
        print(f"can.log: {len(log_frames)} frames on {BUS}")
        failures, rows = analyse(messages, peer, log_frames, stdout, strict_wire=args.strict_wire)
        print_table(rows)
    if failures:
        print(f"\nFAIL: {len(failures)} failures:")
        for f in failures:
            print("  - " + f)
        return 1
    print(f"\nPASS: {sum(1 for r in rows if r['n_wire'])} messages sent as vehicle.dbc says, "
          f"{sum(1 for r in rows if not r['n_wire'])} silent as they should be")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--self-test", action="store_true",
                    help="only the checks that need no hilsim (CRCs, E2E, cannelloni parser, fixture)")
    ap.add_argument("--overlay", default=OVERLAY, help="the rest-bus overlay (default: restbus.pbtxt here)")
    ap.add_argument("--run-dir", help="keep the run directory here (default: a temporary one)")
    ap.add_argument("--strict-wire", action="store_true",
                    help="judge the wire's periods and start delays against the DBC even when hilsim "
                         "fell behind real time")
    args = ap.parse_args()
    failures = self_test()
    if failures:
        print(f"\nFAIL: {len(failures)} self-test failures:")
        for f in failures:
            print("  - " + f)
        return 1
    print("self-test: all passed")
    if args.self_test:
        return 0
    print()
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
