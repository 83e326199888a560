"""The hilsim client: one WebSocket to the rig's console (docs/api.md), blocking calls.

Debian 12's python3-websockets (10.4) has only the asyncio API; the client runs its event loop
on a thread of its own and every call waits for its reply there.
"""

import array
import asyncio
import glob
import itertools
import json
import os
import re
import socket
import struct
import threading
import time
import urllib.parse

import websockets

__all__ = ["CaptureResult", "HilsimError", "Rig", "connect", "find_console"]


class HilsimError(Exception):
    """The rig refused a call (the server's message), or the connection failed."""


def _runtime_directory():
    """Where hilsim keeps its runtime files (io/bus/endpoint.hpp), as the server chooses it."""
    for name in ("HILSIM_RUNTIME_DIR", "RUNTIME_DIRECTORY"):
        if os.environ.get(name):
            return os.environ[name].split(":")[0]
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"], "hilsim")
    return "/run/hilsim" if os.geteuid() == 0 else f"/tmp/hilsim-{os.geteuid()}"


def find_console():
    """(url, token) of the one console running on this machine; the token is None when this
    user may not read it. Raises HilsimError when there is none or more than one."""
    files = [f for f in sorted(glob.glob(os.path.join(_runtime_directory(), "console-*.token")))
             if _listening(int(re.search(r"console-(\d+)\.token$", f).group(1)))]
    if len(files) != 1:
        raise HilsimError(
            f"{'no' if not files else len(files)} hilsim consoles in {_runtime_directory()}: "
            "pass the URL hilsim run printed (console: http://…)")
    port = re.search(r"console-(\d+)\.token$", files[0]).group(1)
    try:
        with open(files[0]) as f:
            token = f.read().strip()
    except OSError:
        token = None
    return f"http://127.0.0.1:{port}/", token


def _listening(port):
    """A console listens on this loopback port (a token file left by a killed run does not)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class CaptureResult(dict):
    """Columns of a capture: "tick" and one list per channel (in the order asked). Also:
    `trigger_tick` (the tick the start trigger fired), `reason` (why it stopped: "duration",
    "tick", "condition", "cancelled", "run ended"), `lost` (samples missing: 0 unless the rig or
    this client could not keep up; capture() raises then unless allow_loss=True), `decimation`."""

    trigger_tick = None
    reason = None
    lost = 0
    decimation = 1


class Rig:
    """A running rig. Thread-safe: calls from several threads are serialised."""

    def __init__(self, url, token=None, timeout=10.0):
        parts = urllib.parse.urlsplit(url)
        query = f"?token={urllib.parse.quote(token)}" if token else ""
        self._ws_url = f"ws://{parts.netloc}/ws{query}"
        self._timeout = timeout
        self._req = itertools.count(1)
        self._lock = threading.Lock()
        self._arrived = threading.Condition()
        self._replies = {}
        self._captures = {}  # id → {"blocks": [...], "notices": [...]}
        self._info = None
        self._channels = None
        self._closed = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hilsim-client",
                                        daemon=True)
        self._thread.start()
        self._ready = threading.Event()
        self._ws = self._run(self._open())
        self._paused = None  # known once the console says what this run can do

    # ---- the event loop's side ----
    def _run(self, coroutine, timeout=None):
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout if timeout is not None else self._timeout)
        except TimeoutError as e:
            future.cancel()
            raise HilsimError("the rig did not answer in time") from e

    async def _open(self):
        try:
            ws = await websockets.connect(self._ws_url, subprotocols=["hilsim.console.v1"],
                                          max_size=None)
        except (OSError, websockets.exceptions.WebSocketException) as e:
            raise HilsimError(f"cannot reach the console at {self._ws_url}: {e}") from e
        self._reader = self._loop.create_task(self._read(ws))
        return ws

    async def _read(self, ws):
        try:
            async for message in ws:
                if isinstance(message, bytes):
                    if message[0] == 2:  # a capture's block
                        with self._arrived:
                            cid = struct.unpack_from("<H", message, 2)[0]
                            self._captures.setdefault(cid, {"blocks": [], "notices": []})[
                                "blocks"].append(message)
                    continue
                m = json.loads(message)
                kind = m.get("type")
                if kind in ("capture_triggered", "capture_end"):
                    with self._arrived:
                        self._captures.setdefault(m["id"], {"blocks": [], "notices": []})[
                            "notices"].append(m)
                        self._arrived.notify_all()
                    continue
                if kind == "server_info":
                    self._info = m
                elif kind == "channels" and m.get("req") is None:
                    self._channels = m["channels"]
                    self._ready.set()
                elif m.get("req") is not None and kind in (
                        "ack", "error", "read", "subscribed", "pong", "info", "channels", "capture",
                        "wait_for"):
                    with self._arrived:
                        self._replies[m["req"]] = m
                        self._arrived.notify_all()
        except websockets.exceptions.ConnectionClosed as e:
            self._closed = f"the console closed the connection ({e.code} {e.reason})"
        finally:
            self._ready.set()
            with self._arrived:
                self._closed = self._closed or "the console closed the connection"
                self._arrived.notify_all()

    async def _send(self, message):
        await self._ws.send(json.dumps(message))

    # ---- calls ----
    def _post(self, message):
        """Sends `message` with a new request number; returns the number."""
        with self._lock:
            req = next(self._req)
            message["req"] = req
            if self._closed:
                raise HilsimError(self._closed)
            self._run(self._send(message))
            return req

    def _reply(self, req, what, timeout=None):
        wait = timeout if timeout is not None else self._timeout
        with self._arrived:
            if not self._arrived.wait_for(lambda: req in self._replies or self._closed, wait):
                raise HilsimError(f"no answer to {what} in time")
            if req not in self._replies:
                raise HilsimError(self._closed)
            reply = self._replies.pop(req)
        if reply["type"] == "error":
            raise HilsimError(reply["message"])
        return reply

    def _call(self, message, timeout=None):
        return self._reply(self._post(message), message["type"], timeout)

    def _wait_ready(self):
        if not self._ready.wait(self._timeout) or self._channels is None:
            raise HilsimError(self._closed or "the console sent no channel list")
        if self._paused is None:
            self._paused = "step" in self._info.get("capabilities", [])

    def info(self):
        """The rig, scenario, run id, period_ns, speed mode, state, the tick now, whether the run
        is paused (lock-step), the operator lock's holder and your role (viewer or operator)."""
        self._wait_ready()
        reply = self._call({"type": "info"})
        reply.pop("req", None)
        reply.pop("type", None)
        return reply

    def channels(self, pattern="*"):
        """The channels whose names match the wildcard `pattern` ("vehicle.wheel.*"): name,
        unit, direction, description, and min/max for inputs that have a range."""
        return self._call({"type": "channels", "pattern": pattern})["channels"]

    def read(self, names):
        """(tick, {name: value}) of channels (names or patterns), all of one tick."""
        reply = self._call({"type": "read", "channels": list(names)})
        return reply["tick"], reply["values"]

    def _command(self, message):
        """A call applied at a tick (in a paused run the rig runs that tick): the tick."""
        self._wait_ready()
        return self._call(message)["tick"]

    def write(self, values):
        """Forces input channels ({name: value}) until released: the tick it took effect."""
        return self._command({"type": "write", "values": dict(values)})

    def release(self, names):
        """Gives forced channels back to the rig's inputs: the tick it took effect."""
        return self._command({"type": "release", "channels": list(names)})

    def inject_fault(self, fault):
        """Adds a fault (docs/faults.md, as a dict): the tick it was applied."""
        return self._command({"type": "fault", "fault": fault})

    def clear_fault(self, name):
        """Stops a fault at the next tick: the tick the command was applied."""
        return self._command({"type": "clear_fault", "name": name})

    def marker(self, text):
        """A note in the run's commands.log and every console's event log, at a tick."""
        return self._command({"type": "marker", "text": text})

    def step(self, seconds=None, ticks=None, timeout=60.0):
        """A paused run (`hilsim run --speed max --paused`) runs `seconds` (or `ticks`) more and
        waits again: the last tick it ran."""
        if (seconds is None) == (ticks is None):
            raise HilsimError("step(seconds=…) or step(ticks=…)")
        message = {"type": "step"}
        message.update({"seconds": float(seconds)} if seconds is not None else {"ticks": int(ticks)})
        return self._call(message, timeout=timeout)["tick"]

    def pause(self):
        """A paused run stops letting ticks through (resume() or step() go on)."""
        self._paused = True
        return self._call({"type": "pause"})["tick"]

    def resume(self):
        """A paused run runs as fast as it can again."""
        self._paused = False
        return self._call({"type": "resume"})["tick"]

    def lock(self):
        """Takes the operator lock (the first state-changing call takes it too): one operator
        steers at a time; others get an error naming the holder until it is given back."""
        return self._call({"type": "lock"})["tick"]

    def unlock(self):
        """Gives the operator lock back (closing the connection does too)."""
        return self._call({"type": "unlock"})["tick"]

    def stop(self):
        """Ends the run; returns the tick it ended at."""
        return self._command({"type": "stop"})

    def wait_for(self, condition, timeout=10.0):
        """Waits until `condition` ("vehicle.body.speed > 0.9": CHANNEL OP VALUE with OP one of
        > < >= <= == !=) holds: (tick, value) of the first tick it held at. `timeout` is in
        seconds of simulated time; in a paused run the rig is stepped until then and stops at
        that tick (lock-step: the next call applies at the tick after it). Raises HilsimError
        with the last value when it does not hold in time."""
        self._wait_ready()
        message = {"type": "wait_for", "condition": condition, "timeout_s": float(timeout)}
        if self._paused and self._info.get("role") == "operator":
            message["step"] = True
        reply = self._call(message, timeout=self._timeout + 2 * timeout)
        return reply["tick"], reply["value"]

    def capture(self, names, seconds=None, ticks=None, decimation=1, start=None, stop=None,
                pre_trigger=None, allow_loss=False, timeout=None):
        """Captures channels (names or patterns) at the tick rate (or every `decimation`-th
        tick) and returns a CaptureResult: {"tick": [...], name: [...], ...}.

        Starts now, or at `start`: a tick (int) or a condition ("x > 1": when it becomes true;
        ("x > 1", "level"): whenever it holds), with `pre_trigger` seconds before it. Stops
        after `seconds` (or `ticks`) and/or at `stop` (a tick or a condition, as start). A paused
        run is stepped until the capture ends. Raises HilsimError when samples were lost unless
        allow_loss=True (result.lost says how many)."""
        self._wait_ready()
        cid = 1 + next(self._req) % 65535
        message = {"type": "capture", "id": cid, "channels": list(names),
                   "decimation": int(decimation)}
        if seconds is not None:
            message["duration_s"] = float(seconds)
        if ticks is not None:
            message["ticks"] = int(ticks)
        if start is not None:
            message["start"] = _trigger(start, "edge")
        if stop is not None:
            message["stop"] = _trigger(stop, "level")
        if pre_trigger:
            message["pre_trigger_s"] = float(pre_trigger)
        with self._arrived:
            self._captures[cid] = {"blocks": [], "notices": []}
        reply = self._call(message)
        period_s = self._info["period_ns"] * 1e-9
        wall = timeout if timeout is not None else self._timeout + 2 * (
            seconds if seconds is not None else (ticks or 0) * period_s)
        end = time.monotonic() + wall

        def ended():
            return any(n["type"] == "capture_end" for n in self._captures[cid]["notices"])

        if self._paused and self._info.get("role") == "operator":
            if start is None and stop is None and (seconds is not None or ticks is not None):
                # the capture starts with the next tick: exactly its ticks
                self.step(ticks=ticks if ticks is not None else round(seconds / period_s),
                          timeout=wall)
            while not ended() and time.monotonic() < end:
                self.step(seconds=0.1, timeout=wall)
        with self._arrived:
            self._arrived.wait_for(lambda: ended() or self._closed, max(0.0, end - time.monotonic()))
            record = self._captures.pop(cid)
        if not any(n["type"] == "capture_end" for n in record["notices"]):
            self._run(self._send({"type": "capture_stop", "id": cid}))
            raise HilsimError(f"the capture did not end within {wall:.1f} s of wall time")
        return _columns(reply, record, allow_loss)

    def close(self):
        """Closes the connection (the run goes on)."""
        if self._loop.is_running():
            try:
                self._run(self._ws.close(), timeout=2)
            except (HilsimError, websockets.exceptions.WebSocketException, OSError):
                pass  # the rig went first
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(2)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _trigger(spec, default_on):
    """A trigger for capture(): a tick, a condition, or (condition, "edge" | "level")."""
    if isinstance(spec, bool) or not isinstance(spec, (int, str, tuple)):
        raise HilsimError(f"a trigger is a tick, a condition or (condition, 'edge'|'level'): {spec!r}")
    if isinstance(spec, int):
        return {"tick": spec}
    if isinstance(spec, str):
        return {"when": spec, "on": default_on}
    return {"when": spec[0], "on": spec[1]}


def _columns(reply, record, allow_loss):
    """The capture's blocks as columns (first shot), checked for gaps."""
    names = reply["names"]
    out = CaptureResult({"tick": []})
    for name in names:
        out[name] = []
    out.decimation = reply["decimation"]
    for block in record["blocks"]:
        _, _, _, _, first, dec, n, c, _lost = struct.unpack_from("<BBHIqIHHQ", block)
        values = array.array("d")
        values.frombytes(block[32:32 + 8 * n * c])
        out["tick"].extend(range(first, first + n * dec, dec))
        for k, name in enumerate(names):
            out[name].extend(values[k * n:(k + 1) * n])
    notices = record["notices"]
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


def connect(url=None, token=None, timeout=10.0):
    """A Rig. Without `url`: the one console running on this machine, with its operator token
    when this user may read it (else as a viewer)."""
    if url is None:
        url, found = find_console()
        token = token or found
    rig = Rig(url, token, timeout)
    rig._wait_ready()
    return rig
