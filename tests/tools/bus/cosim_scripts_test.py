#!/usr/bin/python3
"""RAVON's co-simulation scripts (hil_rigs/ravon/cosim/) as docs/bus.md runs them: `hilsim run`
with the cosim overlay, then behaviour.py and battery.py with PYTHONPATH=tools/python. The
wheels follow behaviour.py's reference; while battery.py runs, the rig's battery voltage is its
Rint model's (V = E0 + k·soc − R·i); both scripts exit 0.

  cosim_scripts_test.py HILSIM SOURCE_DIR LIBHILBUS
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HILSIM, SOURCE, LIBRARY = sys.argv[1:4]
COSIM = os.path.join(SOURCE, "hil_rigs", "ravon", "cosim")
work = tempfile.mkdtemp(prefix="hilsim-cosim-scripts-")
env = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "tools", "python"),
           HILBUS_LIBRARY=LIBRARY, HILSIM_RUNTIME_DIR=os.path.join(work, "rt"))
os.environ.update(env)
sys.path.insert(0, env["PYTHONPATH"])
from hilsim.bus import Bus  # noqa: E402

failures = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else "\n" + detail),
          flush=True)
    if not ok:
        failures.append(what)


def script(name, *args):
    return subprocess.Popen(["/usr/bin/python3", os.path.join(COSIM, name), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


rig = subprocess.Popen([HILSIM, "run", "--rig", os.path.join(SOURCE, "hil_rigs/ravon/rig.pbtxt"),
                        "--overlay", os.path.join(SOURCE, "hil_rigs/ravon/cosim.pbtxt"),
                        "--scenario", "none", "--no-rt", "--duration", "15s", "--no-record",
                        "--console", "off", "-q"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
socket = os.path.join(work, "rt", "ravon.bus")
for _ in range(200):
    if os.path.exists(socket):
        break
    time.sleep(0.05)
check(os.path.exists(socket), f"the rig serves its bus at {socket}")

behaviour = script("behaviour.py", "--speed", "2", "--seconds", "8")
time.sleep(2.0)
battery = script("battery.py", "--soc", "0.9", "--seconds", "3")
samples = []
with Bus("ravon") as bus:
    while battery.poll() is None:
        state = bus.read("state")
        samples.append((state["vehicle.battery.voltage"], state["vehicle.battery.current"]))
        time.sleep(0.1)
    wheels = [bus.read("state")[f"vehicle.wheel.{w}.speed"] for w in ("fl", "fr", "rl", "rr")]
out = battery.stdout.read() if battery.stdout else ""
check(battery.returncode == 0, "battery.py --seconds 3 exits 0", out[-2000:])
# its model: E0 46 V, k 6 V, R 0.02 ohm, from soc 0.9 (100 Ah: soc moves < 1e-4 in 3 s)
late = samples[len(samples) // 2:]
errors = [abs(v - (46.0 + 6.0 * 0.9 - 0.02 * i)) for v, i in late]
check(bool(late) and max(errors) < 0.05,
      f"the battery voltage is battery.py's: off by at most {max(errors, default=-1):.3f} V "
      f"over {len(late)} samples")
check(all(abs(w - 2.0) < 0.04 for w in wheels), f"the wheels follow behaviour.py: {wheels}")

out, _ = behaviour.communicate(timeout=30)
lines = [line for line in out.splitlines() if line.startswith("t ")]
check(behaviour.returncode == 0 and len(lines) >= 7,
      "behaviour.py --seconds 8 exits 0 and reports every second", out[-2000:])

rig.terminate()
try:
    _, err = rig.communicate(timeout=30)
except subprocess.TimeoutExpired:
    rig.kill()
    _, err = rig.communicate()
check(rig.returncode == 0, f"hilsim run exits 0 ({rig.returncode})", err[-2000:])

print(f"{len(failures)} failure(s)")
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failures else 0)
