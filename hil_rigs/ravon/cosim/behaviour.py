#!/usr/bin/env python3
"""A behaviour controller for RAVON on the bus (hil_rigs/ravon/cosim.pbtxt): drives straight
at a reference wheel speed, then along a slow sine of front and rear steering, and prints
what the vehicle does. What RAVON's navigation modules did through the mirrored shared
memory (shared/seeds/ravon-distributed-realtime-sim.txt, line 187).

  hilsim run --rig ravon --overlay hil_rigs/ravon/cosim.pbtxt --scenario none &
  PYTHONPATH=tools/python python3 hil_rigs/ravon/cosim/behaviour.py --speed 5 --seconds 20

(from a source checkout; installed, python3 /usr/share/hilsim/rigs/ravon/cosim/behaviour.py:
docs/bus.md, docs/install.md)
"""
import argparse
import math
import time

from hilsim.bus import Bus

WHEELS = ("fl", "fr", "rl", "rr")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rig", default="ravon", help="the running rig's bus name (default ravon)")
    ap.add_argument("--speed", type=float, default=5.0, help="reference wheel speed [rad/s]")
    ap.add_argument("--steer", type=float, default=0.0, help="steering amplitude [rad]")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to drive")
    ap.add_argument("--rate", type=float, default=200.0, help="publish rate [Hz]")
    args = ap.parse_args()

    with Bus(args.rig, role="behaviour") as bus:
        start = time.monotonic()
        step = 0
        while time.monotonic() - start < args.seconds:
            t = time.monotonic() - start
            steer = args.steer * math.sin(2 * math.pi * 0.1 * t)
            values = {f"vehicle.wheel.{w}.speed_ref": args.speed for w in WHEELS}
            values.update({"vehicle.steering.front.command": steer,
                           "vehicle.steering.rear.command": -steer,
                           "vehicle.brake.park": 0.0})
            bus.write("behaviour", values, tick=step)
            if step % int(args.rate) == 0:
                state = bus.read("state")
                speeds = " ".join(f"{state[f'vehicle.wheel.{w}.speed']:6.2f}" for w in WHEELS)
                print(f"t {t:5.1f} s  wheel speeds {speeds} rad/s  "
                      f"battery {state['vehicle.battery.voltage']:5.1f} V "
                      f"{state['vehicle.battery.current']:6.1f} A", flush=True)
            step += 1
            time.sleep(max(0.0, start + step / args.rate - time.monotonic()))


if __name__ == "__main__":
    main()
