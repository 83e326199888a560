"""A capture in a paused run (`hilsim run --speed max --paused`), stepped so that it ends at
the same tick on every machine: one that starts now runs exactly its ticks; one that starts on
a condition runs to the tick the condition starts it at by the loop's own `wait_for` (checked
between ticks, so the loop stops right after that tick), then exactly its length. Only then is
the rig where the next call expects it, whatever the console's pace of reporting. Any other
capture (a start tick, a stop condition, no length) steps 0.1 s at a time until it ends."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._capture import Trigger

if TYPE_CHECKING:
    from .client import Rig

_CONDITION = re.compile(r"^\s*(\S+)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$")
_NEGATION = {">": "<=", "<": ">=", ">=": "<", "<=": ">", "==": "!=", "!=": "=="}
_GRACE_S = 2.0  # for the console to report the end of a capture whose ticks all ran


def _holds(value: float, op: str, reference: float) -> bool:
    return {">": value > reference, "<": value < reference, ">=": value >= reference,
            "<=": value <= reference, "==": value == reference, "!=": value != reference}[op]


def _run_to_start(rig: Rig, start: Trigger, sim_timeout: float) -> int | None:
    """Steps the rig to the tick a condition start fires at: how many of the capture's ticks
    ran (1: the loop stopped right after its first; 0: a level that holds already starts it
    with the next tick). None for a start it cannot follow this way (a tick, a condition it
    cannot parse)."""
    if isinstance(start, int):
        return None
    condition, on = (start, "edge") if isinstance(start, str) else start
    parsed = _CONDITION.match(condition)
    if not parsed:
        return None
    channel, op, reference = parsed.groups()
    _, values = rig.read([channel])
    if _holds(values[channel], op, float(reference)):
        if on == "level":
            return 0
        # an edge fires when it becomes true: first let it be false
        rig.wait_for(f"{channel} {_NEGATION[op]} {reference}", timeout=sim_timeout)
    rig.wait_for(condition, timeout=sim_timeout)
    return 1


def step_capture(rig: Rig, start: Trigger | None, stop: Trigger | None, length: int | None,
                 ended: Callable[[], bool], deadline: float, sim_timeout: float) -> None:
    """Steps the paused rig until the capture has ended (or the wall-clock deadline passed)."""
    exact = stop is None and length is not None
    if exact and length is not None:
        ran = 0 if start is None else _run_to_start(rig, start, sim_timeout)
        exact = ran is not None
        if ran is not None and length > ran:
            rig.step(ticks=length - ran)  # the rest of its ticks
    if exact:  # every tick of it ran: only the console's report is to come
        grace = min(deadline, time.monotonic() + _GRACE_S)
        while not ended() and time.monotonic() < grace:
            time.sleep(0.005)
    while not ended() and time.monotonic() < deadline:
        rig.step(seconds=0.1)
