"""RAVON parks on a 15 % grade (docs/api.md): it settles on its parking brake and then holds."""
import math

import hilsim

TICKS_PER_S = 4000


def settle(rig: hilsim.Rig, seconds: float) -> None:
    """Lets `seconds` of the run pass from its start (stepped when paused)."""
    tick = rig.read(["vehicle.body.forward_speed"])[0]
    if tick < seconds * TICKS_PER_S:
        rig.capture(["vehicle.body.forward_speed"], ticks=int(seconds * TICKS_PER_S) - max(tick, 0),
                    decimation=400)


def test_it_parks_on_a_15_percent_grade(parked: hilsim.Rig) -> None:
    settle(parked, 3.0)  # the wheels find the slope and the brake takes the load
    data = parked.capture(["vehicle.body.position.x", "vehicle.body.pitch", "vehicle.brake.park",
                           "vehicle.body.forward_speed"], seconds=5, decimation=40)
    x = data["vehicle.body.position.x"]
    assert len(x) == 500
    assert all(p == 1.0 for p in data["vehicle.brake.park"]), "the parking brake is on"
    assert max(x) - min(x) < 0.002, f"it crept {max(x) - min(x):.4f} m in 5 s"
    assert max(abs(v) for v in data["vehicle.body.forward_speed"]) < 0.002
    # it stands on the slope: pitched nose up by about atan(0.15), less the springs' sag
    pitch = -data["vehicle.body.pitch"][-1]  # ISO 8855: pitch + nose down
    assert abs(pitch - math.atan(0.15)) < 0.05, pitch
