"""hilsim.bus: a co-simulator's side of a running rig's shared-memory bus (docs/bus.md), through
libhilbus (ctypes; the standard library only).

    from hilsim.bus import Bus
    with Bus("ravon", role="behaviour") as bus:
        bus.write("behaviour", {"vehicle.wheel.fl.speed_ref": 2.0, ...})  # every channel
        values, meta = bus.read_meta("state")       # {channel: value}, Meta(region_seq, tick, …)

Errors of the library raise HilbusError (.status is the status name, e.g. "role_taken");
unknown regions and channel names raise ValueError. Where libhilbus is found: hilsim._native.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import NamedTuple, Self

from . import _native
from ._native import LibraryNotFoundError, runtime_directory

__all__ = ["Bus", "HilbusError", "LibraryNotFoundError", "Meta", "runtime_directory"]

OK, STALE, TIMEOUT, BAD_ARGUMENT = 0, 1, 9, 11  # enum hilbus_status


class HilbusError(Exception):
    """A libhilbus call failed: .status is the status name ("role_taken"), .code its number."""

    def __init__(self, code: int, message: str) -> None:
        self.code = code
        self.status = _native.status_name(code)
        super().__init__(f"{self.status}: {message}")


@dataclass(frozen=True)
class Meta:
    """What a read saw besides the values (hilbus_meta)."""
    region_seq: int       # 1, 2, … per publish within a session; 0: never published
    tick: int             # the writer's step (inputs) or hilsim's tick (outputs)
    session: int          # random per writer attach: a new one means the writer restarted
    publish_mono_ns: int  # CLOCK_MONOTONIC at publish
    age_ns: int           # now - publish_mono_ns (+ the sender's age for mirrored data)
    status: int           # enum hilbus_slot_status: 0 valid, 1 not initialised, 2 safe state
    value_count: int


class _Region(NamedTuple):
    id: int
    channels: tuple[str, ...]
    writer: str


class Bus:
    """An attached client: Bus(rig name or socket path, role=None for read-only, timeout_ms).
    The attach is the write lease of `role`; close() (or the end of a `with`) gives it back."""

    def __init__(self, rig_or_endpoint: str | os.PathLike[str], role: str | None = None,
                 timeout_ms: int = 1000, client_name: str | None = None,
                 expect_schema_hash: int = 0) -> None:
        self._handle: int | None = None
        lib = _native.library()
        self._lib = lib
        self.role = role
        status = ctypes.c_int(0)
        why = ctypes.create_string_buffer(512)
        name = client_name or "python:" + os.path.basename(sys.argv[0] or "python")
        handle: int | None = lib.hilbus_attach_ex(
            os.fsencode(rig_or_endpoint), role.encode() if role else None, timeout_ms,
            name.encode(), expect_schema_hash, ctypes.byref(status), why, len(why))
        if not handle:
            raise HilbusError(status.value, why.value.decode(errors="replace"))
        self._handle = handle
        self._regions: dict[str, _Region] = {}
        count: int = lib.hilbus_region_count(handle)
        for rid in range(count):
            info = _native.RegionInfo()
            self._check(lib.hilbus_region_info(handle, rid, ctypes.byref(info)))
            names = tuple(lib.hilbus_channel_name(handle, rid, i).decode()
                          for i in range(info.value_count))
            self._regions[info.name.decode()] = _Region(rid, names, info.writer.decode())

    def _check(self, code: int, what: str = "") -> None:
        if code != OK:
            raise HilbusError(code, what or self._lib.hilbus_strerror(code).decode())

    def _attached(self) -> int:
        if self._handle is None:
            raise HilbusError(BAD_ARGUMENT, "the bus is closed")
        return self._handle

    def _region(self, region: str) -> _Region:
        self._attached()
        try:
            return self._regions[region]
        except KeyError:
            raise ValueError(f"no region {region!r}; the bus has {', '.join(self._regions)}") \
                from None

    def regions(self) -> list[str]:
        """The region names, in bus order."""
        return list(self._regions)

    def channels(self, region: str) -> list[str]:
        """The channel names of a region, in value order."""
        return list(self._region(region).channels)

    def read_meta(self, region: str) -> tuple[dict[str, float], Meta]:
        """({channel: value}, Meta) of the latest snapshot; Meta.region_seq == 0 means nothing
        was published yet (the values are then 0)."""
        r = self._region(region)
        values = (ctypes.c_double * len(r.channels))()
        meta = _native.Meta()
        code: int = self._lib.hilbus_read(self._attached(), r.id, values, len(r.channels),
                                          ctypes.byref(meta))
        if code not in (OK, STALE):
            self._check(code, f"reading {region}")
        return dict(zip(r.channels, values)), Meta(
            region_seq=meta.region_seq, tick=meta.tick, session=meta.session,
            publish_mono_ns=meta.publish_mono_ns, age_ns=meta.age_ns, status=meta.status,
            value_count=meta.value_count)

    def read(self, region: str) -> dict[str, float]:
        """The latest snapshot of a region as {channel: value}."""
        return self.read_meta(region)[0]

    def write(self, region: str, values: Mapping[str, float] | Sequence[float], tick: int = 0,
              status: int = 0) -> None:
        """Publishes a region of this client's role: a mapping naming every channel, or the
        values in channel order. `tick` is the writer's step; `status` a hilbus_slot_status."""
        r = self._region(region)
        if isinstance(values, Mapping):
            missing = [n for n in r.channels if n not in values]
            unknown = [n for n in values if n not in r.channels]
            if missing or unknown:
                raise ValueError(f"region {region}: missing channels {missing}, unknown channels "
                                 f"{unknown}")
            ordered = [float(values[n]) for n in r.channels]
        else:
            ordered = [float(v) for v in values]
            if len(ordered) != len(r.channels):
                raise ValueError(f"region {region} has {len(r.channels)} channels, got "
                                 f"{len(ordered)} values")
        buf = (ctypes.c_double * len(ordered))(*ordered)
        self._check(self._lib.hilbus_write(self._attached(), r.id, buf, len(ordered), tick,
                                           status), f"writing {region}")

    def wait(self, region: str, after_seq: int, timeout_s: float) -> bool:
        """True once the region's region_seq differs from after_seq, False on timeout."""
        r = self._region(region)
        timeout_us = max(0, min(int(timeout_s * 1e6), 0xFFFFFFFF))
        code: int = self._lib.hilbus_wait(self._attached(), r.id, after_seq, timeout_us)
        if code == TIMEOUT:
            return False
        self._check(code, f"waiting on {region}")
        return True

    def detached(self) -> bool:
        """True once the rig went away (or this client was closed)."""
        return self._handle is None or bool(self._lib.hilbus_detached(self._handle))

    def close(self) -> None:
        """Detaches (frees the write lease). Idempotent."""
        if self._handle is not None:
            self._lib.hilbus_detach(self._handle)
            self._handle = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None:
            self.close()
