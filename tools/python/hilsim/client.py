"""The hilsim client: one WebSocket to the rig's console (docs/api.md), blocking calls.

Debian 12's python3-websockets (10.4) has only the asyncio API; the client runs its event loop
on a thread of its own and every call waits for its reply there.
"""

import asyncio
import fnmatch
import glob
import itertools
import json
import operator
import os
import re
import struct
import threading
import time
import urllib.parse

import websockets

__all__ = ["HilsimError", "Rig", "connect", "find_console"]


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
    files = sorted(glob.glob(os.path.join(_runtime_directory(), "console-*.token")))
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


_COMPARE = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le,
            "==": operator.eq, "!=": operator.ne}


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
        self._frames = []
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
                    self._frames.append(message)
                    continue
                m = json.loads(message)
                kind = m.get("type")
                if kind == "server_info":
                    self._info = m
                elif kind == "channels":
                    self._channels = m["channels"]
                    self._ready.set()
                elif m.get("req") is not None and kind in ("ack", "error", "read", "subscribed",
                                                           "pong"):
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
        """The rig, scenario, run id, period, speed mode and your role (viewer or operator)."""
        self._wait_ready()
        return dict(self._info)

    def channels(self, pattern="*"):
        """The channels whose names match the wildcard `pattern`: name, unit, direction,
        description."""
        self._wait_ready()
        return [c for c in self._channels if fnmatch.fnmatchcase(c["name"], pattern)]

    def read(self, names):
        """(tick, {name: value}) of channels (names or patterns), all of one tick."""
        reply = self._call({"type": "read", "channels": list(names)})
        return reply["tick"], reply["values"]

    def _command(self, message):
        """A call applied at a tick: in a paused run that is the next tick, which this runs."""
        self._wait_ready()
        req = self._post(message)
        if self._paused:
            try:
                self.step(ticks=1)
            except HilsimError:
                pass  # the command's own refusal says more
        return self._reply(req, message["type"])["tick"]

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

    def _advance(self, seconds):
        """Lets time pass: a step in a paused run, a sleep in a running one."""
        self._wait_ready()
        if self._paused:
            self.step(seconds=seconds)
        else:
            time.sleep(seconds)

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

    def wait_for(self, condition, timeout=10.0, poll=0.01):
        """Waits until `condition` ("vehicle.body.speed > 0.9") holds: (tick, value). Polls
        read() every `poll` seconds (of simulated time, stepped, in a paused run); raises
        HilsimError after `timeout` seconds of wall time."""
        m = re.fullmatch(r"\s*([\w.]+)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*", condition)
        if not m:
            raise HilsimError(f"'{condition}': expected CHANNEL OP VALUE, e.g. 'x.y > 0.9'")
        name, op, value = m.group(1), _COMPARE[m.group(2)], float(m.group(3))
        end = time.monotonic() + timeout
        last = None
        while True:
            tick, values = self.read([name])
            last = values[name]
            if last is not None and op(last, value):
                return tick, last
            if time.monotonic() > end:
                raise HilsimError(f"{condition}: not within {timeout} s (last {last} at tick {tick})")
            self._advance(poll)

    def capture(self, names, seconds):
        """The console's samples of `names` for `seconds` (stepped in a paused run), from now:
        {"tick": [...], name: [...], ...} (the console's 1 kHz grid, min/max kept apart in
        "<name>.min" and "<name>.max")."""
        self._wait_ready()
        sub = 100 + next(self._req) % 60000
        self._frames.clear()
        reply = self._call({"type": "subscribe", "id": sub, "channels": list(names)})
        indices = reply["channels"]
        self._advance(seconds)
        time.sleep(0.05)  # the last frames of the ticks just run
        self._run(self._send({"type": "unsubscribe", "id": sub}))
        order = [self._channels[i]["name"] for i in indices]
        out = {"tick": []}
        for name in order:
            out[name], out[name + ".min"], out[name + ".max"] = [], [], []
        for frame in list(self._frames):
            op, flags, sid, seq, first, stride, n, c, _wall = struct.unpack_from("<BBHIqIHHd", frame)
            if op != 1 or sid != sub or flags & 1:
                continue
            values = struct.unpack_from(f"<{3 * n * c}d", frame, 32)
            out["tick"].extend(first + i * stride for i in range(n))
            for k, name in enumerate(order):
                out[name].extend(values[k * n:(k + 1) * n])
                out[name + ".min"].extend(values[(c + k) * n:(c + k + 1) * n])
                out[name + ".max"].extend(values[(2 * c + k) * n:(2 * c + k + 1) * n])
        return out

    def close(self):
        """Closes the connection (the run goes on)."""
        if self._loop.is_running():
            try:
                self._run(self._ws.close(), timeout=2)
            except HilsimError:
                pass
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(2)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def connect(url=None, token=None, timeout=10.0):
    """A Rig. Without `url`: the one console running on this machine, with its operator token
    when this user may read it (else as a viewer)."""
    if url is None:
        url, found = find_console()
        token = token or found
    rig = Rig(url, token, timeout)
    rig._wait_ready()
    return rig
