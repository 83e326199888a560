"""The rig's UDS tester through the console (docs/api.md "uds", docs/diagnostics.md): `rig.uds`.

Each request is a command of the run: applied at a tick, written to commands.log, sent by the
rig's tester on its diagnostics bus (to the built-in ECU, or a real one), so the run replays it.
The reply comes when the ECU answered (or P2/P2* expired)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._protocol import HilsimError, Message

# statusOfDTC bits, ISO 14229-1 Annex D.2
TEST_FAILED = 0x01
TEST_FAILED_THIS_OPERATION_CYCLE = 0x02
PENDING = 0x04
CONFIRMED = 0x08
TEST_NOT_COMPLETED_SINCE_LAST_CLEAR = 0x10
TEST_FAILED_SINCE_LAST_CLEAR = 0x20
TEST_NOT_COMPLETED_THIS_OPERATION_CYCLE = 0x40
WARNING_INDICATOR_REQUESTED = 0x80


class UdsError(HilsimError):
    """A negative response (its NRC in .nrc) or no response at all (.nrc None)."""

    def __init__(self, message: str, response: UdsResponse) -> None:
        super().__init__(message)
        self.response = response
        self.nrc = response.negative or None


@dataclass(frozen=True)
class UdsResponse:
    """What came back for one request."""

    request: bytes
    response: bytes   # the final response; empty when none came or it was suppressed
    text: str         # described: "ReadDataByIdentifier F190 = … \"RAVON0HILSIM00001\""
    tick: int         # the tick the exchange ended at
    sent_tick: int    # the tick the rig's tester sent it at
    negative: int     # the NRC of a negative response, 0 otherwise
    pending: int      # "response pending" (0x78) answers before the final one
    timed_out: bool   # no response within P2 (P2* after pending)

    @property
    def positive(self) -> bool:
        return not self.timed_out and self.negative == 0


class Uds:
    """The rig's UDS tester (rig.uds). Thread-safe as the Rig is."""

    def __init__(self, call: Callable[[Message, float | None], Message]) -> None:
        self._call = call

    def request(self, data: bytes | str, functional: bool = False,
                timeout: float = 15.0) -> UdsResponse:
        """Sends one request (bytes, or hex text "22F190") and returns what came back, negative
        or not. Raises HilsimError when the rig refuses it (no diagnostics block, queue full)."""
        raw = bytes.fromhex(data) if isinstance(data, str) else bytes(data)
        reply = self._call({"type": "uds", "request": raw.hex().upper(),
                            "functional": functional}, timeout)
        if reply["type"] == "ack":  # not applied: the tester's queue was full
            raise HilsimError(reply.get("message", "the rig did not take the request"))
        return UdsResponse(request=raw, response=bytes.fromhex(reply["response"]),
                           text=reply["text"], tick=reply["tick"], sent_tick=reply["sent_tick"],
                           negative=reply["negative"], pending=reply["pending"],
                           timed_out=reply["timed_out"] or reply.get("refused", False))

    def _positive(self, data: bytes | str) -> UdsResponse:
        r = self.request(data)
        if not r.positive:
            raise UdsError(f"{bytes.fromhex(data) if isinstance(data, str) else data!r}: "
                           f"{r.text}", r)
        return r

    def session(self, session: int) -> UdsResponse:
        """DiagnosticSessionControl: 1 default, 2 programming, 3 extended."""
        return self._positive(bytes([0x10, session]))

    def read_dtcs(self, mask: int = 0xFF) -> dict[int, int]:
        """ReadDTCInformation 19 02 mask: {DTC code: status byte} of the DTCs the mask matches."""
        r = self._positive(bytes([0x19, 0x02, mask]))
        records = r.response[3:]
        return {int.from_bytes(records[i:i + 3], "big"): records[i + 3]
                for i in range(0, len(records) - 3, 4)}

    def clear_dtcs(self, group: int = 0xFFFFFF) -> UdsResponse:
        """ClearDiagnosticInformation (0x14) of a group (default all)."""
        return self._positive(bytes([0x14]) + group.to_bytes(3, "big"))

    def read_did(self, did: int) -> bytes:
        """ReadDataByIdentifier: the DID's data."""
        r = self._positive(bytes([0x22]) + did.to_bytes(2, "big"))
        return r.response[3:]

    def write_did(self, did: int, data: bytes) -> UdsResponse:
        """WriteDataByIdentifier (needs a non-default session; a secured DID security too)."""
        return self._positive(bytes([0x2E]) + did.to_bytes(2, "big") + bytes(data))

    def unlock(self, level: int = 1, key_mask: int = 0x5A5A5A5A) -> None:
        """SecurityAccess: requests the seed, sends key = seed XOR key_mask (the rig's)."""
        seed = self._positive(bytes([0x27, 2 * level - 1])).response[2:]
        value = int.from_bytes(seed, "big")
        if value:  # a zero seed: already unlocked
            key = (value ^ key_mask).to_bytes(len(seed), "big")
            self._positive(bytes([0x27, 2 * level]) + key)

    def reset(self, hard: bool = True) -> UdsResponse:
        """ECUReset: hard (01) or soft (03); a new operation cycle in the default session."""
        return self._positive(bytes([0x11, 0x01 if hard else 0x03]))
