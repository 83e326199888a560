#!/usr/bin/python3
"""A sweep on a real Slurm (issue 17): munged, slurmctld and slurmd started here on 127.0.0.1
(Debian's slurm-wlm, no cgroups), `hilsim sweep submit PLAN --slurm --wait` of the 16-variant
tests/tools/sweep/sixteen.pbtxt (one variant built to fail) as a job array of 6 tasks and a
collect job; then: 15 passed and 1 failed with its exit status and run directory, in the
collect summary and in Slurm's own accounting (jobcomp); the same plan with `--local -j 2`
gives the same results.csv byte for byte; a failed variant's run replays identically; each
array task ran its slice in one warmed-up worker, a child per variant (issue 41).

Usage: slurm_sweep_test.py HILSIM SOURCE_DIR
Exit 77 (ctest: skipped) with the reason when Slurm or munge is not installed or cannot start.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


def run(args, env=None, timeout=300, check=False):
    r = subprocess.run(args, env=env, timeout=timeout, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {r.returncode}:\n{r.stdout}")
    return r


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    hilsim, source = sys.argv[1], sys.argv[2]
    for tool in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo"):
        if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
            skip(f"{tool} not installed (tools/install-deps.sh installs slurm-wlm and munge)")
    if not os.path.exists("/etc/munge/munge.key"):
        skip("no /etc/munge/munge.key (the munge package creates it)")
    if os.geteuid() != 0:
        skip("the test starts slurmd, which needs root")

    tmp = tempfile.mkdtemp(prefix="hilsim-slurm-")
    host = socket.gethostname().split(".")[0]
    conf = os.path.join(tmp, "slurm.conf")
    sock = os.path.join(tmp, "munge.socket")
    cpus = os.cpu_count() or 1
    for d in ("state", "spool"):
        os.makedirs(os.path.join(tmp, d))
    with open(conf, "w") as f:
        f.write(f"""ClusterName=hilsimtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/slurmctld.log
SlurmdLogFile={tmp}/slurmd.log
JobCompType=jobcomp/filetxt
JobCompLoc={tmp}/jobcomp.txt
ReturnToService=2
MpiDefault=none
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP
""")
    env = dict(os.environ, SLURM_CONF=conf)
    daemons = []
    try:
        munged = run(["munged", f"--socket={sock}", f"--pid-file={tmp}/munged.pid",
                      "--key-file=/etc/munge/munge.key", f"--log-file={tmp}/munged.log",
                      f"--seed-file={tmp}/munged.seed", "--force"])
        if munged.returncode != 0:
            skip(f"munged did not start: {munged.stdout.strip()}")
        daemons.append(f"{tmp}/munged.pid")
        for daemon in ("slurmctld", "slurmd"):
            r = run([daemon, "-f", conf], env=env)
            if r.returncode != 0:
                skip(f"{daemon} did not start: {r.stdout.strip()}")
            daemons.append(f"{tmp}/{daemon}.pid")
        deadline = time.time() + 60
        state = ""
        while time.time() < deadline:
            state = run(["sinfo", "-h", "-o", "%T"], env=env).stdout.strip()
            if state == "idle":
                break
            time.sleep(0.5)
        if state != "idle":
            logs = "".join(open(f"{tmp}/{d}.log").read()[-2000:] for d in ("slurmctld", "slurmd")
                           if os.path.exists(f"{tmp}/{d}.log"))
            skip(f"the Slurm node did not become idle in 60 s (sinfo: '{state}'):\n{logs}")
        print(f"slurm: node {host} idle ({cpus} CPUs)")

        plan = os.path.join(source, "tests/tools/sweep/sixteen.pbtxt")
        out = os.path.join(tmp, "sweep-slurm")
        started = time.time()
        submitted = run([hilsim, "sweep", "submit", plan, "--slurm", "--out", out, "--wait"],
                        env=env, timeout=600)
        took = time.time() - started
        print(submitted.stdout)
        print(f"slurm: 16 variants in {took:.1f} s (submission to collect)")
        expect(submitted.returncode == 4, f"expected exit 4 (one variant failed), got "
               f"{submitted.returncode}")
        text = submitted.stdout
        expect("as array job" in text and "(6 tasks of 3)" in text, text)
        expect("16 variants: 15 passed, 1 failed, 0 went wrong (error, crash, time-out), 0 "
               "missing" in text, text)
        expect("000012 straight_accel_brake terrain.surface.type=ice "
               "terrain.surface.friction_scale=1: failed (exit status 4)" in text, text)
        expect(f"replay: hilsim replay {out}/runs/000012" in text, text)
        for i in range(16):
            expect(os.path.exists(f"{out}/runs/{i:06}/manifest.json"), f"run {i} missing")
        # Each array task ran its slice (3 variants) in one warmed-up worker, one child each
        for task in range(6):
            workers = [json.load(open(f"{out}/runs/{i:06}/sweep.json"))["worker"]
                       for i in range(task * 3, min(16, task * 3 + 3))]
            expect(len({w["pid"] for w in workers}) == 1 and all(w["warm"] for w in workers)
                   and len({w["child_pid"] for w in workers}) == len(workers)
                   and all(w["child_pid"] != w["pid"] for w in workers),
                   f"task {task}: not one warmed-up worker with a child per variant: {workers}")

        # Slurm's own accounting: 6 array tasks, the one holding variant 12 (task 4) exited 4
        jobcomp = open(f"{tmp}/jobcomp.txt").read()
        tasks = [line for line in jobcomp.splitlines() if "ArrayTaskId=" in line
                 and " Name=hilsim-sixteen " in line]
        expect(len(tasks) == 6, f"expected 6 array tasks in jobcomp, got {len(tasks)}:\n{jobcomp}")
        failed_tasks = [t for t in tasks if "ExitCode=4:0" in t]
        expect(len(failed_tasks) == 1 and "ArrayTaskId=4 " in failed_tasks[0] + " ",
               f"expected task 4 to exit 4:\n{jobcomp}")

        # The same plan on this machine: the same table
        local_out = os.path.join(tmp, "sweep-local")
        local = run([hilsim, "sweep", "run", plan, "--local", "-j", "2", "--out", local_out, "-q"],
                    timeout=600)
        expect(local.returncode == 4, local.stdout)
        collected = run([hilsim, "sweep", "collect", local_out])
        expect(collected.returncode == 4, collected.stdout)
        slurm_csv = open(f"{out}/results.csv").read()
        local_csv = open(f"{local_out}/results.csv").read()
        expect(slurm_csv == local_csv,
               f"results.csv differs between Slurm and --local:\n{slurm_csv}\n---\n{local_csv}")
        expect(slurm_csv.count(",passed,") == 15 and slurm_csv.count(",failed,4,") == 1, slurm_csv)

        # The failed variant's run replays identically
        replay = run([hilsim, "replay", f"{out}/runs/000012", "-q"], timeout=300)
        expect(replay.returncode == 0 and "identical" in replay.stdout, replay.stdout)
        print("PASS: Slurm array of 16 variants: 15 passed, 1 failed (exit 4, task 4); "
              "results.csv identical to --local -j 2; the failed run replays identically")
    finally:
        for pid_file in reversed(daemons):
            try:
                os.kill(int(open(pid_file).read().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        time.sleep(1)
        if os.environ.get("HILSIM_KEEP_SLURM_DIR"):
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
