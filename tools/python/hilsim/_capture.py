"""A capture's side of the protocol: its triggers as the console takes them, what arrives for
one capture id (binary blocks and notices), and those blocks decoded into a CaptureResult."""

from __future__ import annotations

import array
import struct

from ._protocol import HilsimError, Message

Trigger = int | str | tuple[str, str]  # capture()'s start and stop


class CaptureResult(dict[str, list[float]]):
    """Columns of a capture: "tick" (whole numbers) and one list per channel (in the order
    asked). Also: `trigger_tick` (the tick the start trigger fired), `reason` (why it stopped:
    "duration", "tick", "condition", "cancelled", "run ended"), `lost` (samples missing: 0
    unless the rig or this client could not keep up; capture() raises then unless
    allow_loss=True), `decimation`."""

    trigger_tick: int | None = None
    reason: str | None = None
    lost: int = 0
    decimation: int = 1


class CaptureRecord:
    """What arrived for one capture id: its binary blocks and its notices."""

    def __init__(self) -> None:
        self.blocks: list[bytes] = []
        self.notices: list[Message] = []

    def ended(self) -> bool:
        """The console said the capture ended (capture_end)."""
        return any(n["type"] == "capture_end" for n in self.notices)


def block_capture_id(block: bytes) -> int | None:
    """The capture id of a binary message when it is a capture's block, else None."""
    if block[0] != 2:
        return None
    cid: int = struct.unpack_from("<H", block, 2)[0]
    return cid


def trigger_message(spec: Trigger, default_on: str) -> Message:
    """A trigger for capture(): a tick, a condition, or (condition, "edge" | "level")."""
    if isinstance(spec, bool) or not isinstance(spec, (int, str, tuple)):
        raise HilsimError(f"a trigger is a tick, a condition or (condition, 'edge'|'level'): {spec!r}")
    if isinstance(spec, int):
        return {"tick": spec}
    if isinstance(spec, str):
        return {"when": spec, "on": default_on}
    return {"when": spec[0], "on": spec[1]}


def untriggered_hint(start: Trigger | None, record: CaptureRecord) -> str:
    """Why a capture that timed out may never have started: a start condition is a rising edge
    by default, so one that already held when the capture armed waits for it to fall and rise
    again. Empty when it started, or had no condition."""
    if any(n["type"] == "capture_triggered" for n in record.notices):
        return ""
    if isinstance(start, str):
        condition = start
    elif isinstance(start, tuple) and start[1] == "edge":
        condition = start[0]
    else:
        return ""
    return (f": its start {condition!r} never rose (an edge: false at one tick, true at the "
            f"next; one that already held when the capture armed waits for the next rise); "
            f"start=({condition!r}, \"level\") starts while it holds")


def columns(reply: Message, record: CaptureRecord, allow_loss: bool) -> CaptureResult:
    """The capture's blocks as columns (first shot), checked for gaps."""
    names: list[str] = reply["names"]
    out = CaptureResult({"tick": []})
    for name in names:
        out[name] = []
    out.decimation = reply["decimation"]
    for block in record.blocks:
        _, _, _, _, first, dec, n, c, _lost = struct.unpack_from("<BBHIqIHHQ", block)
        values = array.array("d")
        values.frombytes(block[32:32 + 8 * n * c])
        out["tick"].extend(range(first, first + n * dec, dec))
        for k, name in enumerate(names):
            out[name].extend(values[k * n:(k + 1) * n])
    notices = record.notices
    trigger = next((n for n in notices if n["type"] == "capture_triggered"), None)
    end = next(n for n in notices if n["type"] == "capture_end")
    out.trigger_tick = trigger["trigger_tick"] if trigger else None
    out.reason = end["reason"]
    out.lost = end["lost"]
    if out.lost and not allow_loss:
        error = HilsimError(f"the capture lost {out.lost} samples (the rig or this client could "
                            "not keep up): pass allow_loss=True to take what arrived")
        error.result = out
        raise error
    return out
