"""hilsim: drive a running rig from Python.

hilsim.client (docs/api.md), imported here: the automation API over the rig's console.

    import hilsim
    with hilsim.connect() as rig:                  # the rig running on this machine
        rig.write({"env.wind.speed": 8.0})         # -> the tick it took effect at
        tick, speed = rig.wait_for("vehicle.body.forward_speed > 0.9", timeout=10)
        data = rig.capture(["vehicle.body.speed"], seconds=2)
        dtcs = rig.uds.read_dtcs()                 # -> {0xC12300: 0x2F, …} over UDS

The client speaks the console's WebSocket protocol (hilsim.console.v1), so a script and the
console page see the same rig; state-changing calls need the operator token.

hilsim.bus (docs/bus.md): a co-simulator's reads and writes of the rig's shared-memory bus,
through libhilbus (the standard library only): `from hilsim.bus import Bus`.
"""

from .client import CaptureResult, HilsimError, Rig, UdsError, UdsResponse, connect, find_console

__all__ = ["CaptureResult", "HilsimError", "Rig", "UdsError", "UdsResponse", "connect",
           "find_console"]
