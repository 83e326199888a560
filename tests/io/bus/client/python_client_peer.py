"""Run by python_client_test.cpp against a bus the C++ test owns (argv[1]: its endpoint,
argv[2]: the runtime directory C++ chose; PYTHONPATH=tools/python, HILBUS_LIBRARY set).

The C++ side publishes `state` = [tick, 2*tick, -1] every few ms (tick counting up from 1);
this script checks what it reads, waits, then writes `behaviour` for the C++ side to check.
Exit code 0 = every check here passed; failures print why.
"""
import os
import subprocess
import sys

import hilsim
from hilsim.bus import Bus, HilbusError, Meta, runtime_directory

endpoint, cxx_runtime_directory = sys.argv[1:3]


def expect(cond, what):
    if not cond:
        print("FAILED: " + what)
        sys.exit(1)


def expect_raises(exc, status_or_text, fn):
    try:
        fn()
    except exc as e:
        text = getattr(e, "status", None) or str(e)
        expect(status_or_text in text, "%r not in %r" % (status_or_text, text))
        return str(e)
    expect(False, "no %s raised" % exc.__name__)


# One runtime directory: Python asks libhilbus, which asks the C++ rule
expect(runtime_directory() == cxx_runtime_directory,
       "Python's runtime directory %r, C++'s %r" % (runtime_directory(), cxx_runtime_directory))
expect(os.path.dirname(endpoint) == cxx_runtime_directory, "the bus socket is in it")
msg = expect_raises(hilsim.HilsimError, "no hilsim consoles", hilsim.find_console)
expect(cxx_runtime_directory in msg, "hilsim.client looks for consoles there: " + msg)
with Bus("ravon") as by_name:  # a rig name: its socket in the runtime directory
    expect(by_name.regions() == ["behaviour", "env", "state"], "attached by rig name")

# A library that is not there: one clear error naming what was tried
env = dict(os.environ, HILBUS_LIBRARY="/nonexistent/libhilbus.so.1")
missing = subprocess.run([sys.executable, "-c", "import hilsim.bus; hilsim.bus.Bus('ravon')"],
                         env=env, capture_output=True, text=True)
expect(missing.returncode != 0 and "LibraryNotFoundError: no usable libhilbus" in missing.stderr
       and "$HILBUS_LIBRARY /nonexistent/libhilbus.so.1: no such file" in missing.stderr,
       "a missing HILBUS_LIBRARY: " + missing.stderr)

# Three lines, as docs/bus.md shows them
with Bus(endpoint, role="behaviour") as bus:
    expect(bus.regions() == ["behaviour", "env", "state"], "regions %r" % bus.regions())
    expect(bus.channels("behaviour") == ["vehicle.wheel.fl.speed_ref",
                                         "vehicle.steering.front.command"], "channels")

    # What C++ published: values tie to the tick
    state, meta = bus.read_meta("state")
    expect(isinstance(meta, Meta), "read_meta gives (values, Meta)")
    expect(meta.region_seq >= 1 and meta.status == 0, "state published: seq %d" % meta.region_seq)
    expect(state["vehicle.wheel.fl.speed"] == meta.tick
           and state["vehicle.speed"] == 2 * meta.tick
           and state["vehicle.yaw_rate"] == -1.0, "state values %r tick %d" % (state, meta.tick))
    expect(meta.session == 0x5eed, "session %x" % meta.session)

    # wait: a newer snapshot arrives; a region nobody writes times out
    expect(bus.wait("state", meta.region_seq, 2.0), "wait for a new state snapshot")
    newer, meta2 = bus.read_meta("state")
    expect(meta2.region_seq > meta.region_seq, "seq moved %d -> %d"
           % (meta.region_seq, meta2.region_seq))
    expect(not bus.wait("env", 0, 0.02), "env is never written: wait times out")
    env, env_meta = bus.read_meta("env")
    expect(env_meta.region_seq == 0 and env == {"env.road.friction.fl": 0.0}, "env stale")

    # Errors: names, roles, the lease
    msg = expect_raises(ValueError, "missing", lambda: bus.write(
        "behaviour", {"vehicle.wheel.fl.speed_ref": 1.0, "vehicle.nope": 2.0}))
    expect("vehicle.steering.front.command" in msg and "vehicle.nope" in msg, msg)
    expect_raises(ValueError, "has 2 channels", lambda: bus.write("behaviour", [1.0]))
    expect_raises(ValueError, "no region", lambda: bus.read("nope"))
    expect_raises(HilbusError, "not_writer", lambda: bus.write("env", [0.5]))
    msg = expect_raises(HilbusError, "role_taken", lambda: Bus(endpoint, role="behaviour"))
    expect("held by pid" in msg, msg)
    expect_raises(HilbusError, "role_unknown", lambda: Bus(endpoint, role="battery"))
    expect_raises(HilbusError, "no_endpoint", lambda: Bus(endpoint + ".missing"))

    bus.write("behaviour", {"vehicle.wheel.fl.speed_ref": 12.5,
                            "vehicle.steering.front.command": -0.25}, tick=42)
    bus.write("behaviour", [13.5, -0.5], tick=43)
    expect(not bus.detached(), "attached")
expect(bus.detached(), "closed at the end of the with")
expect_raises(HilbusError, "bad_argument", lambda: bus.read("state"))
print("PYTHON OK")
