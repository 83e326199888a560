#!/usr/bin/python3
"""The radar's object list, read by a DBC-driven peer that is not hilsim.

`hilsim run --rig hmmwv --overlay hil_rigs/hmmwv/perception.pbtxt` with the scenario
radar_targets.pbtxt (an oncoming car, a crossing pedestrian, a crate, a barrel; the HMMWV drives
straight at 3 m/s), recorded. Then, from this process:

  * every radar frame of can.log is decoded with canmatrix from hil_rigs/common/radar_objects.dbc
    (not with hilsim's codec): each 70 ms cycle (280 ticks) is one Radar_ObjectListStatus whose
    Obj_NofObjects Radar_ObjectGeneral frames follow in the same tick, Obj_MeasCounter +1 a cycle;
  * the ground truth comes from the recording (`hilsim export --csv`: the vehicle's pose, velocity
    and rates, each object's world.<name>.x/y/z/yaw/speed at the cycle's tick) and the sizes this
    file's scenario gives, through the model docs/sensors.md "Radar" describes, written here
    again: nearest point of the footprint, sensor frame, velocities over ground minus the
    mount's. The objects listed are exactly those in the field of view, nearest first; each
    one's distances and velocities are within 4.5 sigma of the configured noise plus half a
    DBC step of the truth, their RMS error matches sqrt(sigma^2 + step^2/12) within 20 %,
    RCS and dynamic property are the truth's, and each target keeps one Obj_ID while listed,
    never reused;
  * `hilsim replay` of the run prints `identical` (its radar frames recomputed and compared).

Run: HILSIM=build/release/tools/hilsim tests/tools/radar/radar_canmatrix_test.py
Debian's python3-canmatrix (imports under /usr/bin/python3).
"""
import csv
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import canmatrix.formats

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DBC = os.path.join(REPO, "hil_rigs", "common", "radar_objects.dbc")
OVERLAY = os.path.join(REPO, "hil_rigs", "hmmwv", "perception.pbtxt")
SCENARIO = os.path.join(HERE, "radar_targets.pbtxt")
CYCLE_TICKS = 280  # cycle_ms 70 at 250 us
STEP = {"Obj_DistLong": 0.2, "Obj_DistLat": 0.2, "Obj_VrelLong": 0.25, "Obj_VrelLat": 0.25}
MOVING = 0.5  # m/s over ground


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def overlay_radar():
    """The radar's settings as the overlay writes them (mount, fov, noise)."""
    text = open(OVERLAY).read()
    block = text[text.index("radars {"):]
    def number(name, default):
        m = re.search(r"\b%s:\s*([-0-9.]+)" % name, block)
        return float(m.group(1)) if m else default
    mount = re.search(r"mount\s*\{([^}]*)\}", block).group(1)
    def axis(name):
        m = re.search(r"\b%s:\s*([-0-9.]+)" % name, mount)
        return float(m.group(1)) if m else 0.0
    return {"mount": (axis("x"), axis("y"), axis("z")),
            "fov": math.radians(number("fov_azimuth_deg", 90)),
            "range": number("range_max_m", 200),
            "sigma_d": number("distance_noise_m", 0.1),
            "sigma_v": number("velocity_noise_mps", 0.1)}


def scenario_objects():
    """name -> (shape, length, width, height, rcs) from the scenario file."""
    out = {}
    for block in re.findall(r"objects \{(.*?)\n\}", open(SCENARIO).read(), re.S):
        def field(name):
            return re.search(r"\b%s:\s*([-A-Za-z0-9_.\"]+)" % name, block).group(1)
        shape = field("shape")
        out[field("name").strip('"')] = (
            shape, float(field("length")) if shape == "BOX" else 0.0, float(field("width")),
            float(field("height")), float(field("rcs_dbsm")))
    return out


def rotation(roll, pitch, yaw):
    """Rz(yaw) Ry(pitch) Rx(roll): ISO 8855 z-y-x, frame -> world (rows)."""
    cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch),
                              math.cos(yaw), math.sin(yaw))
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def mul(m, v):
    return [sum(m[i][k] * v[k] for k in range(3)) for i in range(3)]


def mul_t(m, v):  # m transposed times v
    return [sum(m[k][i] * v[k] for k in range(3)) for i in range(3)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def truth(row, objects, radar):
    """What the radar should list at one telemetry row: name -> figures, in view only."""
    v = lambda name: float(row[name])
    body = rotation(v("vehicle.body.roll"), v("vehicle.body.pitch"), v("vehicle.body.yaw"))
    cg = [v("vehicle.body.position.%s" % a) for a in "xyz"]
    mount = list(radar["mount"])
    origin = [c + d for c, d in zip(cg, mul(body, mount))]
    omega = [v("vehicle.body.roll_rate"), v("vehicle.body.pitch_rate"), v("vehicle.body.yaw_rate")]
    v_cg = [v("vehicle.body.velocity.%s" % a) for a in "xyz"]
    v_sensor = [a + b for a, b in zip(v_cg, mul(body, cross(omega, mount)))]
    out = {}
    for name, (shape, length, width, height, rcs) in objects.items():
        x, y, z = v("world.%s.x" % name), v("world.%s.y" % name), v("world.%s.z" % name)
        yaw, speed = v("world.%s.yaw" % name), v("world.%s.speed" % name)
        dx, dy = origin[0] - x, origin[1] - y
        if shape == "BOX":
            c, s = math.cos(yaw), math.sin(yaw)
            u = min(max(c * dx + s * dy, -length / 2), length / 2)
            w = min(max(-s * dx + c * dy, -width / 2), width / 2)
            px, py = x + c * u - s * w, y + s * u + c * w
        else:
            d = math.hypot(dx, dy)
            k = min(1.0, (width / 2) / d)
            px, py = x + k * dx, y + k * dy
        pz = min(max(origin[2], z), z + height)
        q = mul_t(body, [px - origin[0], py - origin[1], pz - origin[2]])
        rng, az = math.hypot(q[0], q[1]), math.atan2(q[1], q[0])
        v_obj = [speed * math.cos(yaw), speed * math.sin(yaw), 0.0]
        rel = mul_t(body, [a - b for a, b in zip(v_obj, v_sensor)])
        over_ground = mul_t(body, v_obj)
        out[name] = {"range": rng, "az": az, "Obj_DistLong": q[0], "Obj_DistLat": q[1],
                     "Obj_VrelLong": rel[0], "Obj_VrelLat": rel[1], "Obj_RCS": rcs,
                     "moving": math.hypot(over_ground[0], over_ground[1]) > MOVING,
                     "over_ground": over_ground}
    return out


def dynamic_property(t, seen_moving):
    """The ARS 408 value table as docs/sensors.md maps it."""
    along, across = t["over_ground"][0], t["over_ground"][1]
    if not t["moving"]:
        return 7 if seen_moving else 1  # stopped / stationary
    if abs(across) > abs(along):
        return 6  # crossing moving
    return 2 if along < 0 else 0  # oncoming / moving


def read_rows(csv_dir):
    """tick -> {channel: text} over every CSV file of the export."""
    rows = {}
    for path in glob.glob(os.path.join(csv_dir, "*.csv")):
        with open(path) as f:
            for r in csv.DictReader(f):
                if "tick" in r:
                    rows.setdefault(int(r["tick"]), {}).update(r)
    return rows


def main():
    hilsim = os.environ.get("HILSIM") or fail("set HILSIM to the hilsim binary")
    db = canmatrix.formats.loadp_flat(DBC)
    status = db.frame_by_name("Radar_ObjectListStatus")
    general = db.frame_by_name("Radar_ObjectGeneral")
    radar = overlay_radar()
    objects = scenario_objects()
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run")
        subprocess.run([hilsim, "run", "--rig", "hmmwv", "--overlay", OVERLAY, "--scenario",
                        SCENARIO, "--speed", "max", "--no-rt", "--console", "off", "--quiet",
                        "--record", run], check=True, stdout=subprocess.DEVNULL)
        replay = subprocess.run([hilsim, "replay", run], capture_output=True, text=True)
        if replay.returncode != 0 or "identical" not in replay.stdout:
            fail("replay is not identical:\n" + replay.stdout + replay.stderr)
        csv_dir = os.path.join(tmp, "csv")
        subprocess.run([hilsim, "export", run, "--csv", csv_dir, "--channels", "world.*",
                        "--channels", "vehicle.body.*"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        rows = read_rows(csv_dir)
        manifest = json.load(open(os.path.join(run, "manifest.json")))
        epoch_ns, dt_ns = manifest["start_epoch_ns"], manifest["period_ns"]
        frames = []  # (tick, id, data)
        for line in open(os.path.join(run, "can.log")):
            m = re.match(r"\((\d+)\.(\d+)\) radar ([0-9A-F]+)#([0-9A-F]*)", line)
            if m:
                ns = int(m.group(1)) * 10**9 + int(m.group(2)) * 1000
                tick = round((ns - epoch_ns) / dt_ns)
                frames.append((tick, int(m.group(3), 16), bytes.fromhex(m.group(4))))

    errors = {k: [] for k in STEP}
    ids, retired, seen_moving, checked = {}, set(), set(), 0
    cycle, i = 0, 0
    while i < len(frames):
        tick, fid, data = frames[i]
        if fid != status.arbitration_id.id:
            fail("frame %d at tick %d: 0x%X where a cycle's status was due" % (i, tick, fid))
        if tick != cycle * CYCLE_TICKS:
            fail("cycle %d at tick %d, expected %d" % (cycle, tick, cycle * CYCLE_TICKS))
        head = {k: s.phys_value for k, s in status.decode(data).items()}
        if int(head["Obj_MeasCounter"]) != cycle % 65536:
            fail("cycle %d: Obj_MeasCounter %s" % (cycle, head["Obj_MeasCounter"]))
        n = int(head["Obj_NofObjects"])
        listed = []
        for tick_o, fid_o, data_o in frames[i + 1:i + 1 + n]:
            if tick_o != tick or fid_o != general.arbitration_id.id:
                fail("cycle %d: an object frame 0x%X at tick %d" % (cycle, fid_o, tick_o))
            listed.append({k: float(s.phys_value) for k, s in general.decode(data_o).items()})
        i += 1 + n
        row = rows.get(tick) or fail("no telemetry at tick %d" % tick)
        expected = truth(row, objects, radar)
        in_view = {k: t for k, t in expected.items()
                   if t["range"] <= radar["range"] and abs(t["az"]) <= radar["fov"] / 2}
        near_edge = any(abs(abs(t["az"]) - radar["fov"] / 2) < math.radians(1)
                        for t in expected.values())
        if not near_edge and len(listed) != len(in_view):
            fail("tick %d: %d objects listed, %d in view" % (tick, len(listed), len(in_view)))
        names = []
        for obj in listed:  # match: the object in view nearest to what was reported
            name = min(in_view, key=lambda k: math.hypot(
                in_view[k]["Obj_DistLong"] - obj["Obj_DistLong"],
                in_view[k]["Obj_DistLat"] - obj["Obj_DistLat"]))
            names.append(name)
            t = in_view[name]
            for k in STEP:
                sigma = radar["sigma_d"] if "Dist" in k else radar["sigma_v"]
                e = obj[k] - t[k]
                if abs(e) > 4.5 * sigma + STEP[k] / 2 + 1e-9:
                    fail("tick %d, %s: %s %.3f, truth %.3f" % (tick, name, k, obj[k], t[k]))
                errors[k].append(e)
            if abs(obj["Obj_RCS"] - t["Obj_RCS"]) > 0.25:
                fail("tick %d, %s: RCS %s" % (tick, name, obj["Obj_RCS"]))
            want = dynamic_property(t, name in seen_moving)
            if int(obj["Obj_DynProp"]) != want:
                fail("tick %d, %s: Obj_DynProp %d, expected %d"
                     % (tick, name, obj["Obj_DynProp"], want))
            if t["moving"]:
                seen_moving.add(name)
            oid = int(obj["Obj_ID"])
            if name in ids and ids[name] != oid:
                fail("tick %d: %s changed id %d -> %d" % (tick, name, ids[name], oid))
            if name not in ids and oid in retired | set(ids.values()):
                fail("tick %d: %s got id %d, used before" % (tick, name, oid))
            ids[name] = oid
            checked += 1
        if len(set(names)) != len(names):
            fail("tick %d: one object listed twice: %s" % (tick, names))
        ranges = [in_view[k]["range"] for k in names]
        if ranges != sorted(ranges):
            fail("tick %d: not nearest first: %s" % (tick, list(zip(names, ranges))))
        for name in list(ids):  # a track that ended: its id is not to be seen again
            if name not in names:
                retired.add(ids.pop(name))
                seen_moving.discard(name)
        cycle += 1

    if cycle < 12 / 0.07 - 1 or checked < 300:
        fail("too little checked: %d cycles, %d objects" % (cycle, checked))
    for k, e in errors.items():
        sigma = radar["sigma_d"] if "Dist" in k else radar["sigma_v"]
        rms = math.sqrt(sum(x * x for x in e) / len(e))
        expected_rms = math.sqrt(sigma ** 2 + STEP[k] ** 2 / 12)
        print("%s: %d values, RMS error %.4f (expected %.4f), mean %+.4f"
              % (k, len(e), rms, expected_rms, sum(e) / len(e)))
        if abs(rms / expected_rms - 1) > 0.2:
            fail("%s: RMS error %.4f, expected %.4f" % (k, rms, expected_rms))
    print("OK: %d cycles, %d objects decoded by canmatrix match the ground truth; ids %s; "
          "replay identical" % (cycle, checked, sorted(retired | set(ids.values()))))


if __name__ == "__main__":
    main()
