#!/usr/bin/env bash
# The units as `cmake --install` fills them in, with ExecStart on the built binary, checked by
# systemd's own parser (systemd-analyze verify: any message at all fails the test) and
# security analysis (the real-time settings as systemd reads them), with and without the
# isolated-CPU drop-in. Then the proof that these checks can fail: deliberately broken copies
# (unknown key, bad value, missing binary, broken drop-in, RestrictRealtime=yes) must each be
# rejected.
#   verify_units_test.sh SOURCE_DIR HILSIM_BINARY
set -euo pipefail
src=$1
hilsim=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# ExecStart = the built binary: the "bin" directory is the one holding it.
configure_units() {  # configure_units OUTPUT_DIR [BIN_DIR]
  cmake -DHIL_UNIT_SOURCE_DIR="$src/systemd" -DHIL_UNIT_OUTPUT_DIR="$1" \
        -DHIL_BIN_DIR="${2:-$(dirname "$hilsim")}" -DHIL_DOC_DIR=share/doc/hilsim \
        -DHIL_RIGS_DIR=share/hilsim/rigs -DCMAKE_INSTALL_PREFIX=/usr \
        -P "$src/systemd/configure_units.cmake"
}

# verify UNIT...: systemd-analyze verify exits 0 and says nothing (it only warns, exit 0,
# about unknown keys and unparsable values).
verify() {
  local out
  if out=$(systemd-analyze verify --man=no "$@" 2>&1) && [ -z "$out" ]; then return 0; fi
  printf '  systemd-analyze verify %s:\n%s\n' "$*" "$out" >&2
  return 1
}

# realtime_ok UNIT: systemd's security analysis reads the unit as we mean it — real-time
# scheduling allowed, a static non-root user, the sandbox on — and its exposure stays <= 2.5.
realtime_ok() {
  local json
  json=$(systemd-analyze security --offline=yes --json=short "$1" 2>/dev/null) || true
  python3 - "$json" <<'PY' && systemd-analyze security --offline=yes --threshold=25 "$1" >/dev/null 2>&1
import json, sys
settings = {s["name"]: s["set"] for s in json.loads(sys.argv[1] or "[]")}
want = {"RestrictRealtime=": False, "PrivateDevices=": False, "User=/DynamicUser=": True,
        "NoNewPrivileges=": True, "ProtectSystem=": True, "ProtectKernelTunables=": True,
        "SystemCallFilter=~@privileged": True, "CapabilityBoundingSet=~CAP_SYS_ADMIN": True}
wrong = [f"{k} set={settings.get(k)}, want {v}" for k, v in want.items() if settings.get(k) != v]
for w in wrong:
    print("  security analysis:", w, file=sys.stderr)
sys.exit(1 if wrong else 0)
PY
}

# has UNIT LINE: the unit holds this exact line.
has() { grep -qxF -- "$2" "$1" || fail "$(basename "$1") lacks '$2'"; }

# --- the units as shipped -------------------------------------------------------------------
good="$work/good"
configure_units "$good"
verify "$good/hilsim@.service" || fail "hilsim@.service does not verify"
verify "$good/hilsim@bench.service" || fail "hilsim@bench.service does not verify"
verify "$good/hilsim-timing.service" || fail "hilsim-timing.service does not verify"
realtime_ok "$good/hilsim@.service" || fail "hilsim@.service: security analysis"

unit="$good/hilsim@.service"
has "$unit" "ExecStart=$hilsim run --rig %i --scenario none --ecu none --runs-dir /var/lib/hilsim/runs"
for line in Type=notify NotifyAccess=main WatchdogSec=3s Restart=on-failure LimitRTPRIO=99 \
            LimitMEMLOCK=infinity CPUAffinity=0 User=hilsim "StateDirectory=hilsim hilsim/runs" \
            "AmbientCapabilities=CAP_SYS_NICE CAP_IPC_LOCK CAP_NET_ADMIN" \
            "DeviceAllow=/dev/cpu_dma_latency rw" RuntimeDirectory=hilsim \
            RuntimeDirectoryMode=0750; do
  has "$unit" "$line"
done
# The bus needs these system calls; @system-service must allow them (the filter is an
# allow-list: a call outside it fails with EPERM)
# (the set lists groups: expand them one level, as systemd does)
expand() { systemd-analyze syscall-filter "$1" 2>/dev/null | grep -v '^ *#' | sed 1d | tr -d ' '; }
allowed=$(for m in $(expand @system-service); do
            if [[ $m == @* ]]; then expand "$m"; else echo "$m"; fi
          done)
for call in memfd_create futex sendmsg recvmsg fcntl ftruncate mmap getrandom; do
  grep -qw "$call" <<<"$allowed" || fail "@system-service does not allow $call (the bus needs it)"
done
for forbidden in RestrictRealtime= PrivateDevices= CPUSchedulingPolicy= CPUWeight= CPUQuota= \
                 CPUShares= AllowedCPUs= PrivateNetwork=; do
  if grep -q "^$forbidden" "$unit"; then fail "hilsim@.service sets $forbidden"; fi
done
if grep -q "@[A-Z_]*@" "$good"/*.service; then fail "unfilled @VARIABLE@ in a unit"; fi

mkdir "$good/hilsim@.service.d"
cp "$src/systemd/examples/isolated-cpus.conf" "$good/hilsim@.service.d/"
verify "$good/hilsim@bench.service" || fail "hilsim@bench.service with isolated-cpus.conf"

# --- broken copies: each must be rejected ---------------------------------------------------
broken() {  # broken NAME SED_SCRIPT [CHECK]: a copy edited by SED_SCRIPT must fail CHECK
  local dir="$work/$1"
  configure_units "$dir"
  sed -i -e "$2" "$dir/hilsim@.service"
  if "${3:-verify}" "$dir/hilsim@.service" 2>/dev/null; then
    fail "the check accepted a unit with $1"
  fi
}
broken "an unknown key" 's/^WatchdogSec=/WatchdogSecs=/'
broken "a bad value" 's/^CPUAffinity=0$/CPUAffinity=zero/'
broken "a bad specifier" 's/--rig %i/--rig %Z/'
broken "RestrictRealtime=yes" 's/^NoNewPrivileges=yes$/&\nRestrictRealtime=yes/' realtime_ok
broken "PrivateDevices=yes" 's/^NoNewPrivileges=yes$/&\nPrivateDevices=yes/' realtime_ok
configure_units "$work/nobinary" /nonexistent/bin
if verify "$work/nobinary/hilsim@.service" 2>/dev/null; then
  fail "the check accepted an ExecStart binary that does not exist"
fi
mkdir -p "$work/dropin"
configure_units "$work/dropin"
mkdir "$work/dropin/hilsim@.service.d"
sed 's/^CPUAffinity=0-1$/CPUAffinity=0-one/' "$src/systemd/examples/isolated-cpus.conf" \
  >"$work/dropin/hilsim@.service.d/isolated-cpus.conf"
if verify "$work/dropin/hilsim@bench.service" 2>/dev/null; then
  fail "the check accepted a broken drop-in"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "units verify; the isolated-CPU drop-in verifies; 7 broken variants rejected"
