#!/usr/bin/env python3
"""The UDP mirror across two network namespaces joined by a veth pair (docs/bus.md "Mirror
health"): the rig (RAVON with its co-simulation bus) in one, `hilsim bus mirror` and a writer
(`hilsim bus write behaviour ...`) in the other.

  1. the wheels follow the remote writer's reference speeds (read back on the far side's
     replica of the rig's `state` region: the round trip writer -> mirror -> rig -> mirror);
  2. datagrams sent at the rig from the peer's address with a wrong tag (20), a wrong bus
     schema (5) and an old session (the far side's first session, replayed after a second one
     started), and 3 from an address that is no peer, show up counted by reason in the run
     summary and manifest.json;
  3. `hilsim replay RUN_DIR` prints `identical`;
  4. `hilsim bus ls` on the rig's side shows the mirror's health per peer.

The old session's datagrams are the far mirror's own, captured on the veth with a packet
socket (AF_PACKET), so no key or hash is re-implemented here. Needs root (netns, veth,
AF_PACKET); exits 77 (ctest SKIP_RETURN_CODE) when that is unavailable.

  netns_mirror_test.py HILSIM SOURCE_DIR
"""

import ctypes
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
TAG = os.getpid() % 100000
RIG_NS, FAR_NS = f"hilm_rig{TAG}", f"hilm_far{TAG}"
RIG_IF, FAR_IF = f"hmr{TAG}", f"hmf{TAG}"
RIG_IP, FAR_IP = "10.231.0.1", "10.231.0.2"
RIG_PORT, FAR_PORT = 29500, 29501
WRONG_TAG, WRONG_SCHEMA, STRANGER = 20, 5, 3


_libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET = 0x40000000


def setns(fd):
    """setns(2) for this thread (os.setns is Python 3.12+; Debian 12 has 3.11)."""
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns")


def sh(*args, check=True):
    return subprocess.run(args, check=check, capture_output=True, text=True)


def setup_namespaces():
    if os.geteuid() != 0:
        return "not root"
    r = sh("ip", "netns", "add", RIG_NS, check=False)
    if r.returncode != 0:
        return f"ip netns add: {r.stderr.strip()}"
    sh("ip", "netns", "add", FAR_NS)
    sh("ip", "link", "add", RIG_IF, "type", "veth", "peer", "name", FAR_IF)
    sh("ip", "link", "set", RIG_IF, "netns", RIG_NS)
    sh("ip", "link", "set", FAR_IF, "netns", FAR_NS)
    for ns, dev, ip in ((RIG_NS, RIG_IF, RIG_IP), (FAR_NS, FAR_IF, FAR_IP)):
        sh("ip", "-n", ns, "addr", "add", f"{ip}/24", "dev", dev)
        sh("ip", "-n", ns, "link", "set", dev, "up")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
    return None


def teardown_namespaces():
    for ns in (RIG_NS, FAR_NS):
        sh("ip", "netns", "del", ns, check=False)


def in_ns(ns, args, env, **kw):
    return subprocess.Popen(["ip", "netns", "exec", ns] + args, env=env, **kw)


class Capture(threading.Thread):
    """The far mirror's DATA datagrams to the rig, as it sent them (UDP payloads)."""

    def __init__(self):
        super().__init__(daemon=True)
        self.packets, self.stop = [], False
        # A packet socket opened inside the far namespace: setns through /proc
        fd = os.open(f"/var/run/netns/{FAR_NS}", os.O_RDONLY)
        own = os.open("/proc/self/ns/net", os.O_RDONLY)
        setns(fd)
        try:
            self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
            self.sock.bind((FAR_IF, 0))
        finally:
            setns(own)
            os.close(fd)
            os.close(own)
        self.sock.settimeout(0.1)

    def run(self):
        while not self.stop:
            try:
                frame = self.sock.recv(4096)
            except socket.timeout:
                continue
            if len(frame) < 14 + 20 + 8 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
                continue
            ip = frame[14:]
            ihl = (ip[0] & 0x0F) * 4
            sport, dport = struct.unpack_from("!HH", ip, ihl)
            payload = ip[ihl + 8:]
            if sport == FAR_PORT and dport == RIG_PORT and payload[:4] == b"HSB1" and payload[5] == 1:
                self.packets.append(bytes(payload))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    hilsim, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    why = None
    for attempt in range(3):  # `ip netns` of another test at the same moment can race ours
        try:
            why = setup_namespaces()
            break
        except subprocess.CalledProcessError as e:
            print(f"setup attempt {attempt + 1}: {' '.join(e.cmd)}: {e.stderr.strip()}")
            teardown_namespaces()
            sh("ip", "link", "del", RIG_IF, check=False)
            time.sleep(1)
    else:
        print("FAIL could not set up the namespaces")
        return 1
    if why is not None:
        print(f"SKIP: network namespaces unavailable ({why})")
        teardown_namespaces()
        return SKIP
    procs = []
    try:
        return run_test(hilsim, source, procs)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        teardown_namespaces()


def run_test(hilsim, source, procs):
    tmp = tempfile.mkdtemp(prefix="netns_mirror_")
    key = os.path.join(tmp, "bus.key")
    sh(hilsim, "bus", "keygen", key)
    overlay = os.path.join(tmp, "mirror.pbtxt")
    with open(overlay, "w") as f:
        f.write(f"""bus {{ mirror {{
  bind: "{RIG_IP}:{RIG_PORT}"  key_file: "{key}"
  peers {{ address: "{FAR_IP}:{FAR_PORT}"  send: "state"  receive: "behaviour" }}
}} }}
""")
    cosim = os.path.join(source, "hil_rigs", "ravon", "cosim.pbtxt")
    rig_args = ["--rig", "ravon", "--overlay", cosim, "--overlay", overlay]
    base = dict(os.environ)
    rig_env = dict(base, HILSIM_RUNTIME_DIR=os.path.join(tmp, "rt_rig"))
    far_env = dict(base, HILSIM_RUNTIME_DIR=os.path.join(tmp, "rt_far"))
    run_dir = os.path.join(tmp, "run")
    rig = in_ns(RIG_NS, [hilsim, "run"] + rig_args +
                ["--scenario", "none", "--duration", "14s", "--record", run_dir, "--console", "off"],
                rig_env, cwd=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    procs.append(rig)
    time.sleep(1.5)
    capture = Capture()
    capture.start()

    def far_mirror():
        p = in_ns(FAR_NS, [hilsim, "bus", "mirror"] + rig_args +
                  ["--bind", f"{FAR_IP}:{FAR_PORT}", "--peer", f"{RIG_IP}:{RIG_PORT}", "--quiet"],
                  far_env, cwd=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(p)
        return p

    def stop(p):
        p.send_signal(signal.SIGINT)
        p.wait(timeout=10)

    def far_writer():  # attached to the far replica: it goes when that mirror stops
        p = in_ns(FAR_NS, [hilsim, "bus", "write", "--rig", "ravon", "behaviour",
                           "fl.speed_ref=4", "fr.speed_ref=4", "rl.speed_ref=4", "rr.speed_ref=4",
                           "brake.park=0", "--for", "inf", "--rate", "200"],
                  far_env, cwd=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(p)
        return p

    mirror = far_mirror()
    time.sleep(1.0)
    writer = far_writer()
    time.sleep(3.0)
    # 1. The wheels follow: the rig's state, as the far replica holds it
    dump = in_ns(FAR_NS, [hilsim, "bus", "dump", "--rig", "ravon", "state", "--json"], far_env,
                 cwd=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = dump.communicate(timeout=10)
    if dump.returncode != 0:
        print(f"FAIL bus dump state on the far side: {err}")
        return 1
    state = json.loads(out)["values"]
    wheels = [state[f"vehicle.wheel.{w}.speed"] for w in ("fl", "fr", "rl", "rr")]
    print(f"far replica of state: wheel speeds {wheels} rad/s (reference 4)")
    if not all(abs(w - 4.0) < 1.0 for w in wheels):
        print("FAIL the wheels do not follow the remote writer's reference")
        return 1
    # `hilsim bus ls` on the rig's side shows the mirror's health (the rig's health file)
    ls = in_ns(RIG_NS, [hilsim, "bus", "ls", "--rig", "ravon"], rig_env, cwd=source,
               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ls_out, ls_err = ls.communicate(timeout=10)
    print(ls_out)
    if f"mirror on {RIG_IP}:{RIG_PORT}" not in ls_out or f"peer {FAR_IP}:{FAR_PORT}" not in ls_out:
        print(f"FAIL hilsim bus ls shows no mirror health: {ls_out} {ls_err}")
        return 1
    # A second session of the far mirror: the first one's datagrams are now an old session
    stop(writer)
    stop(mirror)
    first_session = list(capture.packets)
    mirror = far_mirror()
    time.sleep(1.0)
    writer = far_writer()
    time.sleep(1.0)
    stop(writer)
    stop(mirror)
    capture.stop = True
    capture.join()
    if len(first_session) < 10:
        print(f"FAIL captured only {len(first_session)} datagrams of the far mirror")
        return 1
    old = first_session[-10:]
    # 2. Refused datagrams from the peer's own address (the far mirror is stopped), and a stranger
    fd = os.open(f"/var/run/netns/{FAR_NS}", os.O_RDONLY)
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    setns(fd)
    try:
        peer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        peer.bind((FAR_IP, FAR_PORT))
        stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        stranger.bind((FAR_IP, 0))
    finally:
        setns(own)
        os.close(fd)
        os.close(own)
    to = (RIG_IP, RIG_PORT)
    good = old[-1]
    for i in range(WRONG_TAG):  # a wrong key: the tag does not verify
        bad = bytearray(good)
        bad[-1 - (i % 16)] ^= 0x5A
        peer.sendto(bytes(bad), to)
        time.sleep(0.002)
    for i in range(WRONG_SCHEMA):  # another bus: its schema hash differs
        bad = bytearray(good)
        bad[8] ^= 0xFF
        peer.sendto(bytes(bad), to)
        time.sleep(0.002)
    for p in old:  # authentic, but from a session older than the one applied last
        peer.sendto(p, to)
        time.sleep(0.002)
    for _ in range(STRANGER):
        stranger.sendto(good, to)
        time.sleep(0.002)
    out, err = rig.communicate(timeout=60)
    if rig.returncode != 0:
        print(f"FAIL hilsim run exited {rig.returncode}:\n{out}\n{err}")
        return 1
    print(out)
    with open(os.path.join(run_dir, "manifest.json")) as f:
        manifest = json.load(f)
    health = manifest.get("bus_mirror")
    if health is None:
        print("FAIL manifest.json has no bus_mirror")
        return 1
    peer_health = health["peers"][0]
    dropped = peer_health["dropped"]
    print(f"manifest bus_mirror peer {peer_health['address']}: {json.dumps(peer_health)}")
    failures = []
    if dropped["auth_failed"] != WRONG_TAG:
        failures.append(f"auth_failed {dropped['auth_failed']} != {WRONG_TAG}")
    if dropped["schema"] != WRONG_SCHEMA:
        failures.append(f"schema {dropped['schema']} != {WRONG_SCHEMA}")
    if dropped["old_session"] != len(old):
        failures.append(f"old_session {dropped['old_session']} != {len(old)}")
    if health["totals"]["dropped"]["unknown_source"] != STRANGER:
        failures.append(f"unknown_source {health['totals']['dropped']['unknown_source']}")
    if peer_health["applied"] < 100 or peer_health["writer_restarts"] != 1:
        failures.append(f"applied {peer_health['applied']}, restarts "
                        f"{peer_health['writer_restarts']}: expected ≥ 100 and 1")
    for text in (f"{WRONG_TAG} auth_failed", f"{WRONG_SCHEMA} schema",
                 f"{len(old)} old_session", f"{STRANGER} unknown_source"):
        if text not in out:
            failures.append(f"the run summary does not say '{text}'")
    # 3. The run replays identically
    replay = subprocess.run([hilsim, "replay", run_dir], capture_output=True, text=True,
                            cwd=source, env=rig_env, timeout=300)
    if replay.returncode != 0 or "identical" not in replay.stdout:
        failures.append(f"replay: {replay.returncode} {replay.stdout[-500:]} {replay.stderr[-500:]}")
    if failures:
        print("FAIL " + "; ".join(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
