"""hilbus: Python client of hilsim's shared-memory bus (stdlib ctypes over libhilbus.so.1).

    from hilbus import Bus
    bus = Bus("ravon", role="behaviour")
    bus.write("behaviour", {"vehicle.wheel.fl.speed_ref": 12.0, "vehicle.steering.front.command": 0.05})

The library is found through $HILBUS_LIBRARY, then ctypes.util.find_library("hilbus"), then
next to this file. Errors raise HilbusError (its .status is the status name, e.g.
"role_taken"); wrong channel names raise ValueError. See docs/bus.md.
"""

import ctypes
import ctypes.util
import os
import sys

__all__ = ["Bus", "HilbusError", "Meta"]

_STATUS_NAMES = ["ok", "stale", "contention", "detached", "schema", "not_writer", "role_taken",
                 "role_unknown", "not_permitted", "timeout", "no_endpoint", "bad_argument",
                 "io_error"]
OK, STALE, TIMEOUT = 0, 1, 9


class HilbusError(Exception):
    """A libhilbus call failed; .status is the status name, .code its number."""

    def __init__(self, code, message):
        self.code = code
        self.status = _STATUS_NAMES[code] if 0 <= code < len(_STATUS_NAMES) else "unknown"
        super().__init__("%s: %s" % (self.status, message))


class Meta(ctypes.Structure):
    """hilbus_meta: what a read saw besides the values."""
    _fields_ = [("region_seq", ctypes.c_uint64), ("tick", ctypes.c_int64),
                ("session", ctypes.c_uint64), ("publish_mono_ns", ctypes.c_uint64),
                ("age_ns", ctypes.c_uint64), ("status", ctypes.c_uint32),
                ("value_count", ctypes.c_uint32)]


class _RegionInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("writer", ctypes.c_char_p), ("id", ctypes.c_uint32),
                ("direction", ctypes.c_uint32), ("value_count", ctypes.c_uint32),
                ("timeout_ticks", ctypes.c_uint32), ("expected_period_ns", ctypes.c_uint64)]


def _load():
    candidates = []
    if os.environ.get("HILBUS_LIBRARY"):
        candidates.append(os.environ["HILBUS_LIBRARY"])
    found = ctypes.util.find_library("hilbus")
    if found:
        candidates.append(found)
    here = os.path.dirname(os.path.abspath(__file__))
    for d in (here, os.path.join(here, ".."), os.path.join(here, "..", "..", "lib")):
        candidates.append(os.path.join(d, "libhilbus.so.1"))
    errors = []
    for path in candidates:
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            errors.append("%s (%s)" % (path, e))
    else:
        raise OSError("libhilbus not found; set HILBUS_LIBRARY. Tried: " + "; ".join(errors))
    c = ctypes
    p = c.c_void_p
    sig = {
        "hilbus_attach_ex": (p, [c.c_char_p, c.c_char_p, c.c_uint32, c.c_char_p, c.c_uint64,
                                 c.POINTER(c.c_int), c.c_char_p, c.c_size_t]),
        "hilbus_detach": (None, [p]),
        "hilbus_region_count": (c.c_uint32, [p]),
        "hilbus_find_region": (c.c_int, [p, c.c_char_p]),
        "hilbus_region_info": (c.c_int, [p, c.c_uint32, c.POINTER(_RegionInfo)]),
        "hilbus_channel_name": (c.c_char_p, [p, c.c_uint32, c.c_uint32]),
        "hilbus_read": (c.c_int, [p, c.c_uint32, c.POINTER(c.c_double), c.c_uint32,
                                  c.POINTER(Meta)]),
        "hilbus_write": (c.c_int, [p, c.c_uint32, c.POINTER(c.c_double), c.c_uint32,
                                   c.c_int64, c.c_uint32]),
        "hilbus_wait": (c.c_int, [p, c.c_uint32, c.c_uint64, c.c_uint32]),
        "hilbus_detached": (c.c_int, [p]),
        "hilbus_strerror": (c.c_char_p, [c.c_int]),
    }
    for name, (restype, argtypes) in sig.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


_lib = None


def _library():
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


class Bus:
    """An attached client: Bus(rig_or_endpoint, role=None, timeout_ms=1000)."""

    def __init__(self, rig_or_endpoint, role=None, timeout_ms=1000, client_name=None,
                 expect_schema_hash=0):
        lib = _library()
        status = ctypes.c_int(0)
        why = ctypes.create_string_buffer(512)
        self._lib = lib
        self._handle = lib.hilbus_attach_ex(
            os.fsencode(rig_or_endpoint), role.encode() if role else None, timeout_ms,
            (client_name or "python:" + os.path.basename(sys.argv[0] or "python")).encode(),
            expect_schema_hash, ctypes.byref(status), why, len(why))
        if not self._handle:
            raise HilbusError(status.value, why.value.decode(errors="replace"))
        self.role = role
        self._regions = {}
        for rid in range(lib.hilbus_region_count(self._handle)):
            info = _RegionInfo()
            self._check(lib.hilbus_region_info(self._handle, rid, ctypes.byref(info)))
            names = [lib.hilbus_channel_name(self._handle, rid, i).decode()
                     for i in range(info.value_count)]
            self._regions[info.name.decode()] = (rid, names, info.writer.decode())

    def _check(self, code, what=""):
        if code != OK:
            raise HilbusError(code, what or self._lib.hilbus_strerror(code).decode())
        return code

    def _region(self, region):
        if self._handle is None:
            raise HilbusError(11, "the bus is closed")
        try:
            return self._regions[region]
        except KeyError:
            raise ValueError("no region %r; the bus has %s" % (region, ", ".join(self._regions)))

    def regions(self):
        """The region names, in bus order."""
        return list(self._regions)

    def channels(self, region):
        """The channel names of a region, in value order."""
        return list(self._region(region)[1])

    def read_meta(self, region):
        """(values dict, Meta); Meta.region_seq == 0 means nothing was published yet."""
        rid, names, _ = self._region(region)
        values = (ctypes.c_double * len(names))()
        meta = Meta()
        code = self._lib.hilbus_read(self._handle, rid, values, len(names), ctypes.byref(meta))
        if code not in (OK, STALE):
            self._check(code, "reading %s" % region)
        return dict(zip(names, values)), meta

    def read(self, region):
        """The latest snapshot of a region as {channel: value}."""
        return self.read_meta(region)[0]

    def write(self, region, values, tick=0, status=0):
        """Publishes a region of this client's role: a dict naming every channel, or a list in
        channel order."""
        rid, names, _ = self._region(region)
        if isinstance(values, dict):
            missing = [n for n in names if n not in values]
            unknown = [n for n in values if n not in names]
            if missing or unknown:
                raise ValueError("region %s: missing channels %s, unknown channels %s"
                                 % (region, missing, unknown))
            ordered = [float(values[n]) for n in names]
        else:
            ordered = [float(v) for v in values]
            if len(ordered) != len(names):
                raise ValueError("region %s has %d channels, got %d values"
                                 % (region, len(names), len(ordered)))
        buf = (ctypes.c_double * len(names))(*ordered)
        self._check(self._lib.hilbus_write(self._handle, rid, buf, len(names), tick, status),
                    "writing %s" % region)

    def wait(self, region, after_seq, timeout_s):
        """True once the region's region_seq differs from after_seq, False on timeout."""
        rid = self._region(region)[0]
        code = self._lib.hilbus_wait(self._handle, rid, after_seq,
                                     max(0, min(int(timeout_s * 1e6), 0xFFFFFFFF)))
        if code == TIMEOUT:
            return False
        self._check(code, "waiting on %s" % region)
        return True

    def detached(self):
        """True once the rig went away."""
        return self._handle is None or bool(self._lib.hilbus_detached(self._handle))

    def close(self):
        """Detaches (frees the write lease). Idempotent."""
        if self._handle:
            self._lib.hilbus_detach(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
