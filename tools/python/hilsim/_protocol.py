"""What the client's modules share of the console's protocol (docs/api.md): its WebSocket
subprotocol, a message, and the error a refused call or a failed connection raises."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._capture import CaptureResult

SUBPROTOCOL = "hilsim.console.v1"
Message = dict[str, Any]  # a JSON message of the protocol (docs/api.md "Messages")


class HilsimError(Exception):
    """The rig refused a call (the server's message), or the connection failed. A capture that
    lost samples carries what arrived in .result."""

    result: CaptureResult | None = None
