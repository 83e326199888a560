"""`hilsim run` on a full disk and with split files, as a user meets them (docs/recording.md).

A run recording into an 8 MiB tmpfs (mounted in a private mount namespace: needs root, as CI
has): telemetry stops at the watermark and says at which tick, can.log keeps every line, the
summary is printed, manifest.json and timing.json are complete, the exit status is 5, and
`hilsim replay` replays it identically up to the cut. A run split into 3 telemetry files
exports and replays like the same run unsplit.

    /usr/bin/python3 tests/tools/record/endurance_run_test.py HILSIM
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile

HILSIM = os.path.abspath(sys.argv[1])
RUN = ["run", "--speed", "max", "--console", "off", "--no-rt"]


def check(condition, what):
    if not condition:
        raise SystemExit(f"FAIL: {what}")


def disk_full(work):
    small, out = os.path.join(work, "small"), os.path.join(work, "copied")
    os.makedirs(small)
    script = (f"mount -t tmpfs -o size=8m tmpfs {small} && "
              f"{HILSIM} {' '.join(RUN)} --duration 60s --record {small}/r; code=$?; "
              f"cp -r {small}/r {out}; exit $code")
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                       capture_output=True, text=True)
    check(p.returncode == 5, f"exit 5 for a recording stopped by a full disk, got {p.returncode}: "
                             f"{p.stderr[-2000:]}")
    check("recording stopped: disk full at tick" in p.stdout, f"the summary says so:\n{p.stdout}")
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    timing = json.load(open(os.path.join(out, "timing.json")))
    check(manifest["ended"] == "completed", f"the run itself completed: {manifest['ended']}")
    rec = manifest["recording"]
    check(rec["ended"].startswith("recording stopped: disk full at tick"), rec["ended"])
    check(rec["telemetry_stopped_at_tick"] > 0, rec)
    check(rec["can_frames_dropped"] == 0, f"can.log kept its reserve: {rec}")
    check(timing["ticks"] == 240000 and timing["stop_reason"], f"timing.json complete: {timing}")
    can = open(os.path.join(out, "can.log"), "rb").read()
    check(can.endswith(b"\n") and can.count(b"\n") == rec["can_frames"],
          "can.log: every frame, whole lines")
    replay = subprocess.run([HILSIM, "replay", out, "--console", "off", "-q"],
                            capture_output=True, text=True)
    check(replay.returncode == 0 and replay.stdout.startswith("identical"),
          f"replay identical up to the cut: {replay.stdout}{replay.stderr}")
    print(f"disk full: telemetry stopped at tick {rec['telemetry_stopped_at_tick']}, "
          f"{rec['can_frames']} frames in can.log, replay: {replay.stdout.splitlines()[0]}")


def split(work):
    runs = {}
    for name, extra in (("split", ["--split-duration", "10s"]), ("whole", [])):
        d = os.path.join(work, name)
        subprocess.run([HILSIM, *RUN, "--duration", "30s", "--record", d, "-q", *extra],
                       check=True, capture_output=True)
        subprocess.run([HILSIM, "export", d, "--csv", d + "-csv"], check=True,
                       capture_output=True)
        runs[name] = d
    parts = sorted(f for f in os.listdir(runs["split"]) if f.endswith(".mcap"))
    check(parts == ["telemetry.1.mcap", "telemetry.2.mcap", "telemetry.mcap"], parts)
    check(json.load(open(os.path.join(runs["split"], "manifest.json")))["recording"]
          ["telemetry_files"] == 3, "the manifest counts the files")
    cmp = filecmp.dircmp(runs["split"] + "-csv", runs["whole"] + "-csv")
    check(not cmp.diff_files and not cmp.left_only and not cmp.right_only,
          f"the split export equals the whole one: {cmp.diff_files} {cmp.left_only}")
    for f in cmp.common_files:
        check(filecmp.cmp(os.path.join(runs["split"] + "-csv", f),
                          os.path.join(runs["whole"] + "-csv", f), shallow=False), f)
    replay = subprocess.run([HILSIM, "replay", runs["split"], "--console", "off", "-q"],
                            capture_output=True, text=True)
    # 12600 of the rig's messages and 301 of its UDS tester: 300 DTC reads (19 02 FF every
    # 100 ms) and the flow control of the first answer (every DTC 0x50: 23 bytes, segmented)
    check(replay.returncode == 0 and replay.stdout.startswith("identical: 12901 frames, 30000"),
          f"the split run replays identically: {replay.stdout}{replay.stderr}")
    print(f"split: 3 files export like one ({len(cmp.common_files)} CSV files equal), "
          f"{replay.stdout.splitlines()[0]}")


def rig_block(work):
    rigs = os.path.join(os.path.dirname(__file__), "..", "..", "..", "hil_rigs", "ravon")
    ok = subprocess.run([HILSIM, "check", os.path.join(rigs, "rig.pbtxt"), "--overlay",
                         os.path.join(rigs, "endurance.pbtxt")], capture_output=True, text=True)
    check(ok.returncode == 0, f"the shipped endurance overlay checks: {ok.stdout}{ok.stderr}")
    bad = os.path.join(work, "bad.pbtxt")
    with open(bad, "w") as f:
        f.write('recording {\n  rates { groups: "vehicle.*" rate_hz: 9000 }\n'
                '  compression: "brotli"\n}\n')
    p = subprocess.run([HILSIM, "check", os.path.join(rigs, "rig.pbtxt"), "--overlay", bad],
                       capture_output=True, text=True)
    out = p.stdout + p.stderr
    check(p.returncode == 1 and "bad.pbtxt:2:40: recording.rates[0].rate_hz: 9000 Hz" in out
          and "bad.pbtxt:3:16: recording.compression: \"brotli\" is not a compression" in out,
          f"located errors: {out}")


if __name__ == "__main__":
    work = tempfile.mkdtemp(prefix="hilsim-endurance-")
    try:
        rig_block(work)
        split(work)
        if os.geteuid() == 0 and shutil.which("unshare"):
            disk_full(work)
        else:
            print("SKIP disk full: needs root for a private tmpfs")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("PASS")
