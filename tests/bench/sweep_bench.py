#!/usr/bin/python3
"""Sweep throughput against a single run (issue 41, docs/sweeps.md "Figures"): in one series, on
this machine, for each hilsim binary given (e.g. the one before a change and the one after):

  * a single recorded `hilsim run --speed max` of straight_accel_brake: the RTF it prints (its
    loop's), and its whole process (start to exit) as simulated s per CPU-second;
  * `hilsim sweep run PLAN --local -j 1` and `-j 2` of the shipped 12-variant sweep
    (hil_rigs/sweeps/accel_brake_surfaces.pbtxt) and the 200-variant Monte Carlo plan of
    1.5 s variants (hil_rigs/sweeps/launch_monte_carlo.pbtxt): wall time, CPU time of the
    sweep and all its children (getrusage RUSAGE_CHILDREN), simulated seconds (the runs'
    manifests), variants per core-hour (per CPU-hour) and the ratio of the sweep's simulated
    s per CPU-second (and, with -j 1, per wall second) to the single run's RTF.

A benchmark, run by hand, not a test: nothing is asserted.

Usage: sweep_bench.py [--reps N] [--plans a,b] [--out DIR] LABEL=HILSIM [LABEL=HILSIM ...]
  e.g. tests/bench/sweep_bench.py old=/tmp/old/hilsim new=build/release/tools/hilsim
Run from the source tree (the rig is found as `ravon`).
"""
import argparse
import glob
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

PLANS = {
    "shipped": "hil_rigs/sweeps/accel_brake_surfaces.pbtxt",
    "monte_carlo": "hil_rigs/sweeps/launch_monte_carlo.pbtxt",
}
SCENARIO = "straight_accel_brake"


def measured(args):
    """Runs args; returns (wall s, CPU s of it and its descendants, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, done.stdout


def single_run(hilsim, tmp):
    record = os.path.join(tmp, "single")
    shutil.rmtree(record, ignore_errors=True)
    wall, cpu, status, out = measured(
        [hilsim, "run", "--rig", "ravon", "--scenario", SCENARIO, "--speed", "max", "--no-rt",
         "--console", "off", "-q", "--record", record])
    rtf = re.search(r"simulated in [0-9.]+ s \(RTF ([0-9.]+)\)", out)
    if status != 0 or not rtf:
        raise SystemExit(f"{hilsim} run failed ({status}):\n{out}")
    simulated = json.load(open(os.path.join(record, "manifest.json")))["simulated_s"]
    return {"rtf": float(rtf.group(1)), "wall": wall, "cpu": cpu, "simulated": simulated}


def sweep(hilsim, plan, jobs, tmp):
    out = os.path.join(tmp, "sweep")
    shutil.rmtree(out, ignore_errors=True)
    wall, cpu, status, text = measured(
        [hilsim, "sweep", "run", plan, "--local", "-j", str(jobs), "-q", "--out", out])
    runs = sorted(glob.glob(os.path.join(out, "runs", "[0-9]*")))
    simulated = sum(json.load(open(os.path.join(r, "manifest.json")))["simulated_s"]
                    for r in runs if os.path.exists(os.path.join(r, "manifest.json")))
    if status not in (0, 4):  # 4: some variants failed their gates, as planned
        raise SystemExit(f"{hilsim} sweep run {plan} failed ({status}):\n{text}")
    return {"wall": wall, "cpu": cpu, "simulated": simulated, "variants": len(runs)}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", metavar="LABEL=HILSIM")
    parser.add_argument("--reps", type=int, default=3, help="series repeated (medians kept)")
    parser.add_argument("--plans", default="shipped,monte_carlo")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    binaries = [b.split("=", 1) for b in args.binaries]
    plans = args.plans.split(",")
    jobs = [int(j) for j in args.jobs.split(",")]
    cpu_model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                      if line.startswith("model name")), "?")
    print(f"CPU: {cpu_model}, {os.cpu_count()} CPUs; {args.reps} series")
    results = {}
    tmp = tempfile.mkdtemp(prefix="hilsim-sweep-bench-")
    try:
        for _ in range(args.reps):  # one series: every binary and case in turn, then again
            for label, hilsim in binaries:
                results.setdefault((label, "single"), []).append(single_run(hilsim, tmp))
                for plan in plans:
                    for j in jobs:
                        results.setdefault((label, plan, j), []).append(
                            sweep(hilsim, PLANS[plan], j, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def med(rows, key):
        return statistics.median(r[key] for r in rows)

    figures = []
    for label, _ in binaries:
        single = results[(label, "single")]
        rtf = med(single, "rtf")
        whole = statistics.median(r["simulated"] / r["cpu"] for r in single)
        print(f"\n{label}: single recorded run of {SCENARIO}: RTF {rtf:.1f} (its loop); "
              f"whole process {whole:.1f} simulated s per CPU-second")
        print("  plan         -j  variants   wall s   CPU s  sim s/wall  sim s/CPU-s  "
              "variants/core-h  ratio(CPU)  ratio(wall)")
        for plan in plans:
            for j in jobs:
                rows = results[(label, plan, j)]
                per_cpu = statistics.median(r["simulated"] / r["cpu"] for r in rows)
                per_wall = statistics.median(r["simulated"] / r["wall"] for r in rows)
                per_core_hour = statistics.median(r["variants"] / r["cpu"] * 3600 for r in rows)
                ratio_wall = per_wall / rtf if j == 1 else None
                print(f"  {plan:12} {j:2}  {rows[0]['variants']:8}  {med(rows, 'wall'):7.2f}  "
                      f"{med(rows, 'cpu'):6.2f}  {per_wall:10.1f}  {per_cpu:11.1f}  "
                      f"{per_core_hour:15.0f}  {per_cpu / rtf:10.2f}  "
                      f"{'' if ratio_wall is None else f'{ratio_wall:11.2f}'}")
                figures.append({"binary": label, "plan": plan, "jobs": j,
                                "variants": rows[0]["variants"], "wall_s": med(rows, "wall"),
                                "cpu_s": med(rows, "cpu"), "sim_per_wall": per_wall,
                                "sim_per_cpu": per_cpu, "variants_per_core_hour": per_core_hour,
                                "single_rtf": rtf, "ratio_cpu": per_cpu / rtf,
                                "ratio_wall": ratio_wall})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_model, "figures": figures}, f, indent=1)


if __name__ == "__main__":
    main()
