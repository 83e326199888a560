#!/usr/bin/env bash
# An installed hilsim, used as docs/install.md and docs/bus.md say, from a directory outside
# any source tree: a run at --speed max with the rig from the prefix and its replay; a rig
# from $HILSIM_RIGS; an unknown rig's error (it lists the prefix's rigs); `import hilsim`;
# the bus quick start (a real-time run with the cosim overlay, behaviour.py and battery.py, the
# C example of bus.md compiled with pkg-config, the co-simulated run replayed); the units
# through systemd-analyze verify. No output and no file of a run may name the source or the
# build tree.
#   smoke_test.sh PREFIX [FORBIDDEN_PATH]...
# PREFIX: where hilsim is installed (/usr for the .deb: Python and pkg-config find it without
# help; another prefix: PYTHONPATH=PREFIX/lib/python3.X/dist-packages,
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig, LD_LIBRARY_PATH=PREFIX/lib, as docs/install.md says).
# HIL_SMOKE_UNITS=0 leaves out systemd-analyze (a tree unpacked elsewhere than its prefix);
# HIL_SMOKE_KEEP=1 keeps the working directory (every output in out/).
set -euo pipefail
prefix=$1
shift
forbidden=("$@")
work=$(mktemp -d /tmp/hilsim-smoke-XXXXXX)
rig_pid=""
cleanup() {
  [ -z "$rig_pid" ] || kill "$rig_pid" 2>/dev/null || true
  if [ "${HIL_SMOKE_KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
cd "$work"
out="$work/out"
mkdir "$out"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
step() { echo "--- $*"; }

# Nothing of a developer's environment: the install must find its own files.
unset HILSIM_RIGS HILBUS_LIBRARY PYTHONPATH PKG_CONFIG_PATH LD_LIBRARY_PATH
export HILSIM_RUNTIME_DIR="$work/rt"  # sockets and token files of these runs only
hilsim="$prefix/bin/hilsim"
rigs="$prefix/share/hilsim/rigs"
if [ "$prefix" != /usr ]; then
  python_dirs=("$prefix"/lib/python3*/dist-packages)
  py_env=(PYTHONPATH="${python_dirs[0]}")
  pc_env=(PKG_CONFIG_PATH="$prefix/lib/pkgconfig")
  ld_env=(LD_LIBRARY_PATH="$prefix/lib")
else
  py_env=() pc_env=() ld_env=()
fi

# run NAME CMD...: CMD's output to $out/NAME.log; its exit status returned
run() {
  local name=$1
  shift
  "$@" >"$out/$name.log" 2>&1
}
show() { sed 's/^/    /' "$out/$1.log" | tail -n "${2:-20}" >&2; }

if [ ! -s "$hilsim" ] || ! "$hilsim" --help >/dev/null 2>&1; then  # the rest would only echo it
  echo "FAIL: $hilsim does not run (empty, or copied while it was being linked?)" >&2
  exit 1
fi

step "hilsim run --speed max --duration 2s (the rig from $rigs)"
if run run "$hilsim" run --speed max --duration 2s --console off; then
  grep -q "^hilsim run: ravon, scenario double_lane_change — completed" "$out/run.log" ||
    { show run; fail "hilsim run: no completed ravon run"; }
else
  show run
  fail "hilsim run --speed max --duration 2s exits non-zero"
fi
run_dirs=(runs/ravon-*)
run_dir=${run_dirs[0]}
if [ -d "$run_dir" ]; then
  grep -qF "\"rig_file\": \"$rigs/ravon/rig.pbtxt\"" "$run_dir/manifest.json" ||
    fail "the run's manifest does not name $rigs/ravon/rig.pbtxt: $(grep rig_file "$run_dir/manifest.json")"
  step "hilsim replay $run_dir"
  run replay "$hilsim" replay "$run_dir" --console off ||
    { show replay; fail "hilsim replay exits non-zero"; }
  grep -q "^identical: " "$out/replay.log" || { show replay; fail "the replay is not identical"; }
else
  fail "no run directory runs/ravon-* in $work"
fi

step "hilsim run --rig NOSUCH, --scenario NOSUCH: the errors list the installed ones"
run nosuch "$hilsim" run --rig nosuch --speed max --duration 1s --console off &&
  fail "hilsim run --rig nosuch exits 0"
grep -qxF "  $rigs/nosuch/rig.pbtxt" "$out/nosuch.log" &&
  grep -q "^rigs available: bench, hmmwv, ravon " "$out/nosuch.log" ||
  { show nosuch; fail "the error does not list $rigs and its rigs"; }

run nosuch_scenario "$hilsim" run --scenario nosuch --speed max --duration 1s --console off &&
  fail "hilsim run --scenario nosuch exits 0"
grep -qxF "  $rigs/scenarios/nosuch.pbtxt" "$out/nosuch_scenario.log" &&
  grep -q "^scenarios available: .*double_lane_change" "$out/nosuch_scenario.log" ||
  { show nosuch_scenario; fail "the error does not list $rigs/scenarios and its scenarios"; }

step "HILSIM_RIGS: a rig of one's own, by name"
mkdir -p "$work/myrigs"
cp -r "$rigs/bench" "$work/myrigs/mybench"
run myrig env HILSIM_RIGS="$work/myrigs" "$hilsim" run --rig mybench --speed max --duration 1s \
  --no-record --console off || { show myrig; fail "hilsim run --rig mybench (HILSIM_RIGS)"; }
grep -q "^hilsim run: mybench" "$out/myrig.log" || { show myrig; fail "HILSIM_RIGS's rig not run"; }

step "python3 -c 'import hilsim' ${py_env[*]}"
run python env "${py_env[@]}" /usr/bin/python3 -c \
  'import hilsim, hilsim.bus, hilsim._native as n; print(hilsim.__file__); print(n.library_path())' ||
  { show python; fail "import hilsim"; }
grep -q "^$prefix/lib/python3[^/]*/dist-packages/hilsim/__init__.py$" "$out/python.log" &&
  grep -qxF "$prefix/lib/libhilbus.so.1" "$out/python.log" ||
  { show python; fail "hilsim is not the installed package with the installed libhilbus"; }

step "the bus quick start of docs/bus.md: a real-time run with the cosim overlay"
"$hilsim" run --rig ravon --overlay "$rigs/ravon/cosim.pbtxt" --scenario none --duration 7s \
  --no-rt --console off -q --record "$work/cosim_run" >"$out/cosim_rig.log" 2>&1 &
rig_pid=$!
for _ in $(seq 100); do
  [ -S "$HILSIM_RUNTIME_DIR/ravon.bus" ] && break
  sleep 0.05
done
[ -S "$HILSIM_RUNTIME_DIR/ravon.bus" ] || fail "the rig serves no bus at $HILSIM_RUNTIME_DIR/ravon.bus"
env "${py_env[@]}" /usr/bin/python3 "$rigs/ravon/cosim/behaviour.py" --speed 2 --seconds 2 \
  >"$out/behaviour.log" 2>&1 &
behaviour_pid=$!
env "${py_env[@]}" /usr/bin/python3 "$rigs/ravon/cosim/battery.py" --seconds 1.5 \
  >"$out/battery.log" 2>&1 || { show battery; fail "battery.py --seconds 1.5 exits non-zero"; }
wait "$behaviour_pid" || { show behaviour; fail "behaviour.py --speed 2 --seconds 2 exits non-zero"; }
grep -qE '^t +1\.0 s  wheel speeds +(1\.9[5-9]|2\.0[0-5]) ' "$out/behaviour.log" ||
  { show behaviour; fail "behaviour.py: the wheels do not follow 2 rad/s after 1 s"; }
run bus_ls "$hilsim" bus ls || { show bus_ls; fail "hilsim bus ls"; }
grep -qE '^  battery +in +battery +none +1 +[1-9][0-9]* ' "$out/bus_ls.log" ||
  { show bus_ls; fail "hilsim bus ls: battery.py published nothing"; }

step "the C example of docs/bus.md, compiled with pkg-config"
awk '/^```c$/ { inside = 1; next } /^```$/ { inside = 0 } inside' \
  "$prefix/share/doc/hilsim/bus.md" >app.c
[ -s app.c ] || fail "no C example in $prefix/share/doc/hilsim/bus.md"
if flags=$(env "${pc_env[@]}" pkg-config --cflags --libs hilbus 2>"$out/pkg-config.log") &&
   read -r -a flag_words <<<"$flags" && run cc cc -o app app.c "${flag_words[@]}"; then
  # it drives region `behaviour` until the rig stops at 7 s
  run app env "${ld_env[@]}" ./app || { show app; fail "the C example exits non-zero"; }
  grep -qE '^wheel fl (1\.9[5-9]|2\.0[0-5]) rad/s at tick [0-9]+: the rig stopped$' "$out/app.log" ||
    { show app; fail "the C example: the wheels do not follow its 2 rad/s"; }
else
  show pkg-config
  show cc
  fail "cc app.c \$(pkg-config --cflags --libs hilbus) ($flags)"
fi
if wait "$rig_pid"; then
  rig_pid=""
  run cosim_replay "$hilsim" replay "$work/cosim_run" --console off ||
    { show cosim_replay; fail "hilsim replay of the co-simulated run exits non-zero"; }
  grep -q "^identical: " "$out/cosim_replay.log" ||
    { show cosim_replay; fail "the co-simulated run does not replay identically"; }
else
  rig_pid=""
  show cosim_rig
  fail "the co-simulated hilsim run exits non-zero"
fi

if [ "${HIL_SMOKE_UNITS:-1}" = 1 ]; then
  step "systemd-analyze verify of the installed units"
  units="$prefix/lib/systemd/system"
  run units systemd-analyze verify --man=no "$units/hilsim@bench.service" \
    "$units/hilsim-timing.service" || fail "systemd-analyze verify exits non-zero"
  [ ! -s "$out/units.log" ] || { show units; fail "systemd-analyze verify complains"; }
fi

step "no output names the source or build tree"
for path in "${forbidden[@]}"; do
  if hits=$(grep -rlF -- "$path" "$out" runs "$work/cosim_run" 2>/dev/null); then
    for f in $hits; do grep -F -- "$path" "$f" | head -n 3 | sed "s|^|    $f: |" >&2; done
    fail "output names $path"
  fi
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s) for the install in $prefix" >&2
  exit 1
fi
echo "the install in $prefix works: run, replay, HILSIM_RIGS, import hilsim, the bus quick start" \
     "(Python and C), units"
