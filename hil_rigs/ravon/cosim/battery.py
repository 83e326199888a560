#!/usr/bin/env python3
"""An external battery model for RAVON on the bus (hil_rigs/ravon/cosim.pbtxt): reads the
battery current hilsim computes (region `state`), integrates its own state of charge and
writes the terminal voltage back (region `battery`) — the Simulink battery of RAVON
(shared/seeds/ravon-distributed-realtime-sim.txt, line 159: current out of the vehicle
model, actual battery voltage back in). The model is a linear open-circuit voltage with an
internal resistance (a Rint model): V = E0 + k·soc − R·i, d(soc)/dt = −i/Q.

  PYTHONPATH=tools/python python3 hil_rigs/ravon/cosim/battery.py --soc 0.9

(from a source checkout; installed, python3 /usr/share/hilsim/rigs/ravon/cosim/battery.py:
docs/bus.md, docs/install.md)
"""
import argparse

from hilsim.bus import Bus

PERIOD_S = 250e-6  # the rig's tick (hil_rigs/ravon/rig.pbtxt, executive.period_us)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rig", default="ravon")
    ap.add_argument("--soc", type=float, default=0.9, help="initial state of charge [-]")
    ap.add_argument("--capacity-ah", type=float, default=100.0)
    ap.add_argument("--e0", type=float, default=46.0, help="open-circuit voltage at soc 0 [V]")
    ap.add_argument("--k", type=float, default=6.0, help="open-circuit voltage per soc [V]")
    ap.add_argument("--r", type=float, default=0.02, help="internal resistance [ohm]")
    ap.add_argument("--seconds", type=float, default=0.0, help="stop after this long (0: never)")
    args = ap.parse_args()

    soc = args.soc
    q = args.capacity_ah * 3600.0
    with Bus(args.rig, role="battery") as bus:
        seq = 0
        last_tick: int | None = None
        first_tick: int | None = None
        while True:
            if not bus.wait("state", seq, 1.0):
                continue
            state, meta = bus.read_meta("state")
            seq = meta.region_seq
            tick = meta.tick
            current = state["vehicle.battery.current"]
            if last_tick is not None:
                soc -= current * (tick - last_tick) * PERIOD_S / q
            last_tick = tick
            first_tick = tick if first_tick is None else first_tick
            voltage = max(0.0, args.e0 + args.k * soc - args.r * current)
            bus.write("battery", {"vehicle.battery.external_voltage": voltage}, tick=tick)
            if args.seconds and (tick - first_tick) * PERIOD_S >= args.seconds:
                break


if __name__ == "__main__":
    main()
