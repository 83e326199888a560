"""The hilsim client: one WebSocket to the rig's console (docs/api.md), blocking calls.

Debian 12's python3-websockets (10.4) has only the asyncio API; the client runs its event loop
on a thread of its own and every call waits for its reply there. websockets is imported when a
Rig connects, so that `import hilsim.bus` needs the standard library only.

The rest of the client, re-exported here: HilsimError and Message (_protocol), CaptureResult
and a capture's decoding (_capture), find_console (_discovery).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
import urllib.parse
from collections.abc import Coroutine, Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from ._capture import (CaptureRecord, CaptureResult, block_capture_id, columns, trigger_message,
                       untriggered_hint)
from ._capture import Trigger as Trigger  # capture()'s start and stop
from ._discovery import find_console
from ._lockstep import step_capture
from ._protocol import SUBPROTOCOL, HilsimError
from ._protocol import Message as Message  # a JSON message of the protocol
from ._uds import Uds, UdsError, UdsResponse

if TYPE_CHECKING:
    from websockets.legacy.client import WebSocketClientProtocol

__all__ = ["CaptureResult", "HilsimError", "Rig", "UdsError", "UdsResponse", "connect",
           "find_console"]

_T = TypeVar("_T")

# named as before the split (tracebacks, repr, pydoc): hilsim.client.HilsimError
HilsimError.__module__ = CaptureResult.__module__ = find_console.__module__ = __name__


class Rig:
    """A running rig. Thread-safe: calls from several threads are serialised."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 10.0) -> None:
        try:
            import websockets  # noqa: F401
        except ImportError as e:
            raise HilsimError("the hilsim client needs websockets: apt install "
                              "python3-websockets, and run Debian's /usr/bin/python3") from e
        parts = urllib.parse.urlsplit(url)
        query = f"?token={urllib.parse.quote(token)}" if token else ""
        self._ws_url = f"ws://{parts.netloc}/ws{query}"
        self._timeout = timeout
        self._req = itertools.count(1)
        self._lock = threading.Lock()
        self._arrived = threading.Condition()
        self._replies: dict[int, Message] = {}
        self._captures: dict[int, CaptureRecord] = {}
        self._info: Message | None = None
        self._channels: list[Message] | None = None
        self._closed: str | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hilsim-client",
                                        daemon=True)
        self._thread.start()
        self._ready = threading.Event()
        self._ws = self._run(self._open())
        self._paused: bool | None = None  # known once the console says what this run can do
        self.uds = Uds(self._call)
        """The rig's UDS tester (docs/diagnostics.md): rig.uds.read_dtcs(), clear_dtcs(), …"""

    # ---- the event loop's side ----
    def _run(self, coroutine: Coroutine[Any, Any, _T], timeout: float | None = None) -> _T:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout if timeout is not None else self._timeout)
        except TimeoutError as e:
            future.cancel()
            raise HilsimError("the rig did not answer in time") from e

    async def _open(self) -> WebSocketClientProtocol:
        from websockets.exceptions import WebSocketException
        from websockets.legacy.client import connect
        from websockets.typing import Subprotocol
        try:
            ws = await connect(self._ws_url, subprotocols=[Subprotocol(SUBPROTOCOL)],
                               max_size=None)
        except (OSError, WebSocketException) as e:
            raise HilsimError(f"cannot reach the console at {self._ws_url}: {e}") from e
        self._reader = self._loop.create_task(self._read(ws))
        return ws

    async def _read(self, ws: WebSocketClientProtocol) -> None:
        from websockets.exceptions import ConnectionClosed
        try:
            async for message in ws:
                if isinstance(message, bytes):
                    cid = block_capture_id(message)
                    if cid is not None:
                        with self._arrived:
                            self._captures.setdefault(cid, CaptureRecord()).blocks.append(message)
                    continue
                m: Message = json.loads(message)
                kind = m.get("type")
                if kind in ("capture_triggered", "capture_end"):
                    with self._arrived:
                        self._captures.setdefault(m["id"], CaptureRecord()).notices.append(m)
                        self._arrived.notify_all()
                    continue
                if kind == "server_info":
                    self._info = m
                elif kind == "channels" and m.get("req") is None:
                    self._channels = m["channels"]
                    self._ready.set()
                elif m.get("req") is not None and kind in (
                        "ack", "error", "read", "subscribed", "pong", "info", "channels", "capture",
                        "wait_for", "uds"):
                    with self._arrived:
                        self._replies[m["req"]] = m
                        self._arrived.notify_all()
        except ConnectionClosed as e:
            self._closed = f"the console closed the connection ({e.code} {e.reason})"
        finally:
            self._ready.set()
            with self._arrived:
                self._closed = self._closed or "the console closed the connection"
                self._arrived.notify_all()

    async def _send(self, message: Message) -> None:
        await self._ws.send(json.dumps(message))

    # ---- calls ----
    def _post(self, message: Message) -> int:
        """Sends `message` with a new request number; returns the number."""
        with self._lock:
            req = next(self._req)
            message["req"] = req
            if self._closed:
                raise HilsimError(self._closed)
            self._run(self._send(message))
            return req

    def _reply(self, req: int, what: str, timeout: float | None = None) -> Message:
        wait = timeout if timeout is not None else self._timeout
        with self._arrived:
            if not self._arrived.wait_for(lambda: req in self._replies or bool(self._closed),
                                          wait):
                raise HilsimError(f"no answer to {what} in time")
            if req not in self._replies:
                raise HilsimError(self._closed)
            reply = self._replies.pop(req)
        if reply["type"] == "error":
            raise HilsimError(reply["message"])
        return reply

    def _call(self, message: Message, timeout: float | None = None) -> Message:
        return self._reply(self._post(message), message["type"], timeout)

    def _wait_ready(self) -> Message:
        """The console's server_info, once it sent it and the channel list."""
        if not self._ready.wait(self._timeout) or self._channels is None or self._info is None:
            raise HilsimError(self._closed or "the console sent no channel list")
        if self._paused is None:
            self._paused = "step" in self._info.get("capabilities", [])
        return self._info

    def info(self) -> Message:
        """The rig, scenario, run id, period_ns, speed mode, state, the tick now, whether the run
        is paused (lock-step), the operator lock's holder and your role (viewer or operator)."""
        self._wait_ready()
        reply = self._call({"type": "info"})
        reply.pop("req", None)
        reply.pop("type", None)
        return reply

    def channels(self, pattern: str = "*") -> list[Message]:
        """The channels whose names match the wildcard `pattern` ("vehicle.wheel.*"): name,
        unit, direction, description, and min/max for inputs that have a range."""
        channels: list[Message] = self._call({"type": "channels", "pattern": pattern})["channels"]
        return channels

    def read(self, names: Iterable[str]) -> tuple[int, dict[str, float]]:
        """(tick, {name: value}) of channels (names or patterns), all of one tick."""
        reply = self._call({"type": "read", "channels": list(names)})
        return reply["tick"], reply["values"]

    def _command(self, message: Message) -> int:
        """A call applied at a tick (in a paused run the rig runs that tick): the tick."""
        self._wait_ready()
        return self._tick(self._call(message))

    @staticmethod
    def _tick(reply: Message) -> int:
        tick: int = reply["tick"]
        return tick

    def write(self, values: Mapping[str, float]) -> int:
        """Forces input channels ({name: value}) until released: the tick it took effect."""
        return self._command({"type": "write", "values": dict(values)})

    def release(self, names: Iterable[str]) -> int:
        """Gives forced channels back to the rig's inputs: the tick it took effect."""
        return self._command({"type": "release", "channels": list(names)})

    def inject_fault(self, fault: Message) -> int:
        """Adds a fault (docs/faults.md, as a dict): the tick it was applied."""
        return self._command({"type": "fault", "fault": fault})

    def clear_fault(self, name: str) -> int:
        """Stops a fault at the next tick: the tick the command was applied."""
        return self._command({"type": "clear_fault", "name": name})

    def marker(self, text: str) -> int:
        """A note in the run's commands.log and every console's event log, at a tick."""
        return self._command({"type": "marker", "text": text})

    def step(self, seconds: float | None = None, ticks: int | None = None,
             timeout: float = 60.0) -> int:
        """A paused run (`hilsim run --speed max --paused`) runs `seconds` (or `ticks`) more and
        waits again: the last tick it ran."""
        if (seconds is None) == (ticks is None):
            raise HilsimError("step(seconds=…) or step(ticks=…)")
        message: Message = {"type": "step"}
        message.update({"seconds": float(seconds)} if seconds is not None
                       else {"ticks": int(ticks or 0)})
        return self._tick(self._call(message, timeout=timeout))

    def pause(self) -> int:
        """A paused run stops letting ticks through (resume() or step() go on)."""
        self._paused = True
        return self._tick(self._call({"type": "pause"}))

    def resume(self) -> int:
        """A paused run runs as fast as it can again."""
        self._paused = False
        return self._tick(self._call({"type": "resume"}))

    def lock(self) -> int:
        """Takes the operator lock (the first state-changing call takes it too): one operator
        steers at a time; others get an error naming the holder until it is given back."""
        return self._tick(self._call({"type": "lock"}))

    def unlock(self) -> int:
        """Gives the operator lock back (closing the connection does too)."""
        return self._tick(self._call({"type": "unlock"}))

    def stop(self) -> int:
        """Ends the run; returns the tick it ended at."""
        return self._command({"type": "stop"})

    def wait_for(self, condition: str, timeout: float = 10.0) -> tuple[int, float]:
        """Waits until `condition` ("vehicle.body.speed > 0.9": CHANNEL OP VALUE with OP one of
        > < >= <= == !=) holds: (tick, value) of the first tick it held at. `timeout` is in
        seconds of simulated time; in a paused run the rig is stepped until then and stops at
        that tick (lock-step: the next call applies at the tick after it). Raises HilsimError
        with the last value when it does not hold in time."""
        info = self._wait_ready()
        message: Message = {"type": "wait_for", "condition": condition,
                            "timeout_s": float(timeout)}
        if self._paused and info.get("role") == "operator":
            message["step"] = True
        reply = self._call(message, timeout=self._timeout + 2 * timeout)
        return reply["tick"], reply["value"]

    def capture(self, names: Iterable[str], seconds: float | None = None,
                ticks: int | None = None, decimation: int = 1, start: Trigger | None = None,
                stop: Trigger | None = None, pre_trigger: float | None = None,
                allow_loss: bool = False, timeout: float | None = None) -> CaptureResult:
        """Captures channels (names or patterns) at the tick rate (or every `decimation`-th
        tick) and returns a CaptureResult: {"tick": [...], name: [...], ...}.

        Starts now, or at `start`: a tick (int) or a condition ("x > 1": when it becomes true;
        ("x > 1", "level"): whenever it holds), with `pre_trigger` seconds before it. Stops
        after `seconds` (or `ticks`) and/or at `stop` (a tick or a condition, as start). A paused
        run is stepped until the capture ends. Raises HilsimError when samples were lost unless
        allow_loss=True (result.lost says how many)."""
        info = self._wait_ready()
        cid = 1 + next(self._req) % 65535
        message: Message = {"type": "capture", "id": cid, "channels": list(names),
                            "decimation": int(decimation)}
        if seconds is not None:
            message["duration_s"] = float(seconds)
        if ticks is not None:
            message["ticks"] = int(ticks)
        if start is not None:
            message["start"] = trigger_message(start, "edge")
        if stop is not None:
            message["stop"] = trigger_message(stop, "level")
        if pre_trigger:
            message["pre_trigger_s"] = float(pre_trigger)
        with self._arrived:
            self._captures[cid] = CaptureRecord()
        reply = self._call(message)
        period_s: float = info["period_ns"] * 1e-9
        wall = timeout if timeout is not None else self._timeout + 2 * (
            seconds if seconds is not None else (ticks or 0) * period_s)
        end = time.monotonic() + wall

        def ended() -> bool:
            return self._captures[cid].ended()

        if self._paused and info.get("role") == "operator":
            length = ticks if ticks is not None else (
                round(seconds / period_s) if seconds is not None else None)
            try:
                step_capture(self, start, stop, length, ended, end, sim_timeout=wall)
            except HilsimError as e:  # its start did not come in time (a stepped wait_for)
                self._run(self._send({"type": "capture_stop", "id": cid}))
                raise HilsimError(f"the capture did not start: {e}"
                                  + untriggered_hint(start, self._captures.pop(cid))) from e
        with self._arrived:
            self._arrived.wait_for(lambda: ended() or bool(self._closed),
                                   max(0.0, end - time.monotonic()))
            record = self._captures.pop(cid)
        if not record.ended():
            self._run(self._send({"type": "capture_stop", "id": cid}))
            raise HilsimError(f"the capture did not end within {wall:.1f} s of wall time"
                              + untriggered_hint(start, record))
        return columns(reply, record, allow_loss)

    def close(self) -> None:
        """Closes the connection (the run goes on)."""
        from websockets.exceptions import WebSocketException
        if self._loop.is_running():
            try:
                self._run(self._ws.close(), timeout=2)
            except (HilsimError, WebSocketException, OSError):
                pass  # the rig went first
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(2)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def connect(url: str | None = None, token: str | None = None, timeout: float = 10.0) -> Rig:
    """A Rig. Without `url`: the one console running on this machine, with its operator token
    when this user may read it (else as a viewer)."""
    if url is None:
        url, found = find_console()
        token = token or found
    rig = Rig(url, token, timeout)
    rig._wait_ready()
    return rig
