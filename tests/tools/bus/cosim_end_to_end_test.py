#!/usr/bin/python3
"""End to end, as a user would: `hilsim run` of RAVON with the co-simulation overlay, a
Python behaviour co-simulator (hilsim.bus) driving the `behaviour` region, the wheel speeds in
`state` following it; the co-simulator SIGKILLed -> the region times out at its tick and the
safe values apply; a new one -> recovery; `hilsim bus write/dump/ls` from the shell; then
`hilsim replay` of the run gives `identical`.

  cosim_end_to_end_test.py HILSIM SOURCE_DIR LIBHILBUS
"""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HILSIM, SOURCE, LIBRARY = sys.argv[1:4]
PYTHON_DIR = os.path.join(SOURCE, "tools", "python")  # the hilsim package
sys.path.insert(0, PYTHON_DIR)
os.environ["PYTHONPATH"] = PYTHON_DIR  # for the co-simulators this test starts
os.environ["HILBUS_LIBRARY"] = LIBRARY
work = tempfile.mkdtemp(prefix="hilsim-cosim-")
os.environ["HILSIM_RUNTIME_DIR"] = os.path.join(work, "rt")
from hilsim.bus import Bus  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


WHEELS = ("fl", "fr", "rl", "rr")
REF = 2.0  # rad/s: within RAVON's envelope at 48 V
WRITER = f"""
import time
from hilsim.bus import Bus
with Bus("ravon", role="behaviour") as bus:
    step = 0
    while True:
        v = {{f"vehicle.wheel.{{w}}.speed_ref": {REF} for w in {WHEELS!r}}}
        v.update({{"vehicle.steering.front.command": 0.0, "vehicle.steering.rear.command": 0.0,
                  "vehicle.brake.park": 0.0}})
        bus.write("behaviour", v, tick=step)
        step += 1
        time.sleep(0.002)
"""

run_dir = os.path.join(work, "run")
rig = subprocess.Popen([HILSIM, "run", "--rig", os.path.join(SOURCE, "hil_rigs/ravon/rig.pbtxt"),
                        "--overlay", os.path.join(SOURCE, "hil_rigs/ravon/cosim.pbtxt"),
                        "--scenario", "none", "--no-rt", "--duration", "14s", "--record", run_dir,
                        "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
socket = os.path.join(work, "rt", "ravon.bus")
for _ in range(200):
    if os.path.exists(socket):
        break
    time.sleep(0.05)
check(os.path.exists(socket), f"the rig serves its bus at {socket}")
bus = Bus("ravon")

# 0. No co-simulator yet: behaviour times out 200 ticks into the run (the first rise checked in
# 5). Wait for the loop to be past it, however long the rig took from its socket to its loop.
for _ in range(400):
    if bus.read_meta("state")[1].tick > 400:
        break
    time.sleep(0.01)
check(bus.read_meta("state")[1].tick > 400, "the loop runs without a co-simulator")

# 1. A co-simulator drives behaviour: the wheel speeds follow within 2 %
writer = subprocess.Popen(["/usr/bin/python3", "-c", WRITER])
time.sleep(3.0)
state = bus.read("state")
speeds = [state[f"vehicle.wheel.{w}.speed"] for w in WHEELS]
check(all(abs(s - REF) <= 0.02 * REF for s in speeds), f"wheel speeds {speeds} within 2 % of {REF}")

# 2. Killed: the region times out (200 ticks) and the safe values stop the wheels
writer.send_signal(signal.SIGKILL)
writer.wait()
time.sleep(2.0)
state = bus.read("state")
check(all(abs(state[f"vehicle.wheel.{w}.speed"]) < 0.2 for w in WHEELS),
      f"after the co-simulator died the wheels stop: {[state[f'vehicle.wheel.{w}.speed'] for w in WHEELS]}")

# 3. A new co-simulator (a new session) is accepted at once: recovery
writer = subprocess.Popen(["/usr/bin/python3", "-c", WRITER])
time.sleep(3.0)
state = bus.read("state")
speeds = [state[f"vehicle.wheel.{w}.speed"] for w in WHEELS]
check(all(abs(s - REF) <= 0.02 * REF for s in speeds), f"recovered: wheel speeds {speeds}")
writer.send_signal(signal.SIGKILL)
writer.wait()

# 4. The same from the shell: hilsim bus ls / write / dump
ls = subprocess.run([HILSIM, "bus", "ls", "--json"], capture_output=True, text=True)
check(ls.returncode == 0, "hilsim bus ls")
regions = {r["region"]: r for r in json.loads(ls.stdout)[0]["regions"]} if ls.returncode == 0 else {}
check(regions.get("state", {}).get("rate_hz", 0) > 1000, f"state published at {regions.get('state', {}).get('rate_hz')} Hz")
# --follow prints at a display rate (default 10 Hz, the latest snapshot each time), --all every
# snapshot: run alongside the write, each bounded by --count, into files (a full pipe would
# hold a follower back), checked after the write's own checks
def follow(name, *options):
    out = open(os.path.join(work, f"follow_{name}.jsonl"), "w")
    return subprocess.Popen([HILSIM, "bus", "dump", "state", "--follow", "--json", *options],
                            stdout=out, stderr=subprocess.PIPE, text=True), out.name
followers = {"default": follow("default", "--count", "5"),
             "rate 50": follow("rate50", "--rate", "50", "--count", "10"),
             "all": follow("all", "--all", "--count", "400")}
w = subprocess.run([HILSIM, "bus", "write", "behaviour", "fl.speed_ref=1", "fr.speed_ref=1",
                    "rl.speed_ref=1", "rr.speed_ref=1", "park=0", "--for", "2.5s"],
                   capture_output=True, text=True)
check(w.returncode == 0, f"hilsim bus write: {w.stderr.strip()}")
d = subprocess.run([HILSIM, "bus", "dump", "state", "--json"], capture_output=True, text=True)
check(d.returncode == 0, "hilsim bus dump")
if d.returncode == 0:
    values = json.loads(d.stdout)["values"]
    fl = values["vehicle.wheel.fl.speed"]
    check(abs(fl - 1.0) <= 0.1, f"after bus write the front-left wheel turns at {fl} rad/s (ref 1)")
for name, (p, path) in followers.items():
    _, err = p.communicate(timeout=20)
    out = open(path).read()
    check(p.returncode == 0, f"hilsim bus dump --follow ({name}): {err.strip()}")
    lines = [json.loads(line) for line in out.splitlines()]
    gaps = [b["tick"] - a["tick"] for a, b in zip(lines, lines[1:])]
    if name == "default":  # 10 Hz at 4 kHz: about 400 ticks apart
        check(len(lines) == 5 and min(gaps) >= 300, f"--follow at 10 Hz: tick gaps {gaps}")
    elif name == "rate 50":  # about 80 ticks apart
        check(len(lines) == 10 and min(gaps) >= 50 and max(gaps) <= 400,
              f"--follow --rate 50: tick gaps {gaps}")
    else:  # every snapshot (a reader late by a few may miss one): a few ticks apart at most
        check(len(lines) == 400 and sum(gaps) <= 5 * len(gaps),
              f"--follow --all: 400 snapshots over {sum(gaps)} ticks")

out, err = rig.communicate(timeout=60)
check(rig.returncode == 0, f"hilsim run exit {rig.returncode}: {err[-500:]}")
check("writer restarts 2" in out, "the summary counts two writer restarts")
check(not os.path.exists(socket), "the socket is gone after the run")

# 5. The timeout happened at its tick: 200 ticks after the last snapshot applied
subprocess.run([HILSIM, "export", run_dir, "--csv", os.path.join(work, "csv"), "--channels",
                "bus.behaviour.*"], check=True, capture_output=True)
rows = list(csv.DictReader(open(os.path.join(work, "csv", "bus.behaviour.csv"))))
log = [line.split() for line in open(os.path.join(run_dir, "bus.log")) if not line.startswith("#")]
applied = sorted(int(line[0]) for line in log)
# (telemetry is sampled every few ticks: the rise lies between two samples)
rises = [(int(p["tick"]), int(r["tick"])) for p, r in zip(rows, rows[1:])
         if float(p["bus.behaviour.timeout"]) == 0 and float(r["bus.behaviour.timeout"]) == 1]
expected = [max([0] + [t for t in applied if t <= before]) + 200 for before, _ in rises]
check(len(rises) == 4 and all(b < e <= a for (b, a), e in zip(rises, expected)),
      f"timeouts rose between samples {rises}, at ticks {expected}: 200 after the last snapshot")

# 6. The run replays identically
rep = subprocess.run([HILSIM, "replay", run_dir], capture_output=True, text=True)
check(rep.returncode == 0 and "identical" in rep.stdout, f"replay: {rep.stdout.strip()[:300]}")

# 7. A changed input diverges: edit one recorded snapshot and replay
edited = os.path.join(work, "edited")
subprocess.run(["cp", "-r", run_dir, edited], check=True)
lines = open(os.path.join(edited, "bus.log")).read().splitlines()
k = next(i for i, line in enumerate(lines) if not line.startswith("#"))
fields = lines[k].split()
fields[6] = "0.5"
lines[k] = " ".join(fields)
open(os.path.join(edited, "bus.log"), "w").write("\n".join(lines) + "\n")
rep = subprocess.run([HILSIM, "replay", edited], capture_output=True, text=True)
check(rep.returncode == 1 and "DIVERGED" in rep.stdout, f"an edited bus.log diverges: {rep.stdout.strip()[:200]}")

print(f"{len(failures)} failure(s)")
if failures:
    print(f"the run and its files are kept in {work}")
else:
    shutil.rmtree(work, ignore_errors=True)  # ~100 MB of telemetry per run of the test
sys.exit(1 if failures else 0)
