#!/usr/bin/python3
"""The CAN flood benchmark (issue 41, docs/can.md "Receive budget").

A RAVON run (`hilsim run --can cannelloni://…`, recorded) three times in one series: quiet (no
peer), a peer at 50 k frames/s, and a peer flooding at 10 M frames/s; each peer sends for
--flood-s seconds starting 1 s into the run, from tests/bench/can_flood.cpp pinned to the other
core (the run is pinned to CPU 0, the sender to CPU 1). Unknown ids (0x700..0x73F), 100 frames
per datagram. For each run it prints the tick's execution time (p50/p99/p99.9/max from
timing.json), overruns, the RTF from the summary, what the sender sent, and what the transport
counted (manifest.json's buses[].transport_counters when the binary has them): frames handed to
the tick, dropped by reason, the kernel's drops, and whether sent = received + dropped.

usage: can_flood_bench.py HILSIM CAN_FLOOD [--out DIR] [--flood-s S] [--rate R] [--runs N]
Exit status 1 when a goal is missed (flood p99 > 2 × quiet p99, RTF < 0.98, a frame not
accounted for, a frame lost at 50 k frames/s) and --check is given.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

PORT_RIG, PORT_PEER = 21000, 21001


def run_once(args, name, rate):
    out = os.path.join(args.out, name)
    subprocess.run(["rm", "-rf", out], check=True)
    uri = f"cannelloni://127.0.0.1:{PORT_PEER}?local=127.0.0.1:{PORT_RIG}"
    duration = args.flood_s + 2
    rig = subprocess.Popen(
        ["taskset", "-c", "0", args.hilsim, "run", "--can", uri, "--duration", f"{duration}s",
         "--record", out, "--console", "off", "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sender = None
    if rate > 0:
        time.sleep(0.5)  # the rig is up (it binds in its setup phase, well under 0.5 s)
        sender = subprocess.run(
            [args.can_flood, "--to", f"127.0.0.1:{PORT_RIG}", "--from", f"127.0.0.1:{PORT_PEER}",
             "--rate", str(rate), "--duration", str(args.flood_s), "--delay", "0.5",
             "--frames-per-packet", "100", "--cpu", "1"],
            capture_output=True, text=True, check=True)
    summary, _ = rig.communicate()
    timing = json.load(open(os.path.join(out, "timing.json")))
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    rtf = re.search(r"\(RTF ([0-9.]+)\)", summary)
    r = {
        "run": name,
        "rate": rate,
        "exec_us": {k: timing["exec_time_us"][k] for k in ("p50", "p99", "p999", "max")},
        "overruns": timing["overruns"],
        "rtf": float(rtf.group(1)) if rtf else None,
        "sent": json.loads(sender.stdout) if sender else None,
        "transport": manifest["buses"][0].get("transport_counters"),
        "summary": [line for line in summary.splitlines() if "CAN" in line or "RTF" in line],
    }
    t, s = r["transport"], r["sent"]
    if t is not None and s is not None:
        dropped = sum(t["dropped"].values())
        kernel = t["dropped"].get("kernel_overflow", 0) * 100  # datagrams of 100 frames
        r["accounted"] = t["frames"] + dropped - t["dropped"].get("kernel_overflow", 0) + kernel
        r["balance"] = s["frames"] - r["accounted"]
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("hilsim")
    p.add_argument("can_flood")
    p.add_argument("--out", default="/tmp/can_flood_bench")
    p.add_argument("--flood-s", type=float, default=4.0)
    p.add_argument("--rate", type=float, default=10e6)
    p.add_argument("--runs", type=int, default=1, help="series repeated this many times")
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ok = True
    for i in range(args.runs):
        quiet = run_once(args, f"quiet{i}", 0)
        calm = run_once(args, f"calm{i}", 50e3)
        flood = run_once(args, f"flood{i}", args.rate)
        for r in (quiet, calm, flood):
            print(json.dumps(r))
        p99q, p99f = quiet["exec_us"]["p99"], flood["exec_us"]["p99"]
        goals = {
            "flood p99 <= 2 x quiet p99": p99f <= 2 * p99q,
            "flood RTF >= 0.98": (flood["rtf"] or 0) >= 0.98,
            "flood frames all accounted": flood.get("balance") == 0,
            "50k: nothing dropped": calm["transport"] is not None
            and sum(calm["transport"]["dropped"].values()) == 0 and calm.get("balance") == 0,
        }
        print(json.dumps({"series": i, "quiet_p99_us": p99q, "flood_p99_us": p99f,
                          "ratio": p99f / p99q if p99q else None, "goals": goals}))
        ok = ok and all(goals.values())
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
