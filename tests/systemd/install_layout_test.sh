#!/usr/bin/env bash
# `cmake --install` into a DESTDIR, as a package build does (--prefix /usr), then checks the
# layout: the binary runs from there and validates the installed rigs; the Python package
# (where Debian's python3 finds it) loads the installed libhilbus; the units name that
# binary and verify against the staged tree (systemd-analyze verify --root); the sysusers.d
# and tmpfiles.d entries create the user and /var/lib/hilsim in it; nothing else is
# installed. A second install (--prefix /opt/hilsim) checks that the units and the Python
# package follow the prefix given at install time.
#   install_layout_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_file() { [ -f "$root/$1" ] || fail "not installed: /$1"; }

install_to() {  # install_to DESTDIR PREFIX
  if ! DESTDIR="$1" cmake --install "$build" --prefix "$2" >"$work/install.log" 2>&1; then
    cat "$work/install.log" >&2
    echo "FAIL: cmake --install --prefix $2" >&2
    exit 1
  fi
}

root="$work/root"
install_to "$root" /usr

# --- what is installed, and nothing more ----------------------------------------------------
expected="usr/bin/hilsim
usr/include/hilbus.h
usr/lib/libhilbus.so.1.1.0
usr/lib/pkgconfig/hilbus.pc
usr/lib/python3/dist-packages/hilsim/__init__.py
usr/lib/python3/dist-packages/hilsim/_capture.py
usr/lib/python3/dist-packages/hilsim/_discovery.py
usr/lib/python3/dist-packages/hilsim/_installed.py
usr/lib/python3/dist-packages/hilsim/_lockstep.py
usr/lib/python3/dist-packages/hilsim/_native.py
usr/lib/python3/dist-packages/hilsim/_protocol.py
usr/lib/python3/dist-packages/hilsim/_uds.py
usr/lib/python3/dist-packages/hilsim/bus.py
usr/lib/python3/dist-packages/hilsim/client.py
usr/lib/python3/dist-packages/hilsim/py.typed
usr/lib/systemd/system/hilsim-timing.service
usr/lib/systemd/system/hilsim@.service
usr/lib/sysusers.d/hilsim.conf
usr/lib/tmpfiles.d/hilsim.conf
usr/lib/udev/rules.d/60-hilsim.rules
usr/share/doc/hilsim/README.md
usr/share/doc/hilsim/examples/hilsim@.service.d/isolated-cpus.conf
usr/share/doc/hilsim/realtime-setup.md"
for f in $expected; do expect_file "$f"; done
(cd "$src/hil_rigs" && find . -type f) | sed 's|^\./|usr/share/hilsim/rigs/|' >"$work/rigs"
(cd "$src/docs" && find . -type f) | sed 's|^\./|usr/share/doc/hilsim/|' >"$work/docs"
sort -u <(echo "$expected") "$work/rigs" "$work/docs" >"$work/allowed"
(cd "$root" && find . -type f | sed 's|^\./||' | sort) >"$work/installed"
if ! diff -u "$work/allowed" "$work/installed" >"$work/layout.diff"; then
  cat "$work/layout.diff" >&2
  fail "installed files differ from the expected layout (- expected, + installed)"
fi
diff -r "$src/hil_rigs" "$root/usr/share/hilsim/rigs" >/dev/null || fail "rigs differ from hil_rigs/"

# --- the binary works from there and reads the installed rigs --------------------------------
[ -x "$root/usr/bin/hilsim" ] || fail "/usr/bin/hilsim is not executable"
"$root/usr/bin/hilsim" --help >/dev/null || fail "installed hilsim --help"
"$root/usr/bin/hilsim" check "$root/usr/share/hilsim/rigs/bench/rig.pbtxt" >"$work/check.log" 2>&1 ||
  { cat "$work/check.log" >&2; fail "installed hilsim check of the installed bench rig"; }

# --- the Python package loads the installed libhilbus, with no HILBUS_LIBRARY -----------------
python_finds_libhilbus() {  # python_finds_libhilbus PACKAGE_DIR LIBRARY
  local out
  out=$(cd / && env -u HILBUS_LIBRARY PYTHONPATH="$1" PYTHONDONTWRITEBYTECODE=1 \
        HILSIM_RUNTIME_DIR="$work/rt" /usr/bin/python3 -c \
        'import hilsim, hilsim.bus, hilsim._native as n
print(n.library_path(), hilsim.bus.runtime_directory())' 2>&1) || true
  [ "$out" = "$2 $work/rt" ] || fail "the Python package in $1: '$out', expected '$2 $work/rt'"
}
python_finds_libhilbus "$root/usr/lib/python3/dist-packages" "$root/usr/lib/libhilbus.so.1"

# --- the units name the installed files --------------------------------------------------------
unit="$root/usr/lib/systemd/system/hilsim@.service"
grep -qxF "ExecStart=/usr/bin/hilsim run --rig %i --scenario none --ecu none --runs-dir /var/lib/hilsim/runs" \
  "$unit" || fail "hilsim@.service: ExecStart does not name /usr/bin/hilsim"
grep -qxF "Documentation=file:///usr/share/doc/hilsim/realtime-setup.md" "$unit" ||
  fail "hilsim@.service: Documentation= does not name the installed realtime-setup.md"
grep -qxF "ExecStart=/usr/bin/hilsim timing --period 250us --duration 60s --priority 80 --cpu 1 --json /var/lib/hilsim/timing.json" \
  "$root/usr/lib/systemd/system/hilsim-timing.service" || fail "hilsim-timing.service: ExecStart"
if grep -q "@[A-Z_]*@" "$root"/usr/lib/systemd/system/*; then fail "unfilled @VARIABLE@ in a unit"; fi

# --- user and state directory, created inside the staged tree ---------------------------------
mkdir -p "$root/etc"
systemd-sysusers --root="$root" >/dev/null 2>&1 || fail "systemd-sysusers --root rejects hilsim.conf"
grep -q '^hilsim:x:[0-9]*:[0-9]*:[^:]*:/var/lib/hilsim:/usr/sbin/nologin$' "$root/etc/passwd" ||
  fail "sysusers did not create the hilsim user (no login, home /var/lib/hilsim)"
grep -q '^dialout:x:[0-9]*:hilsim$' "$root/etc/group" || fail "hilsim is not in group dialout"
if [ "$(id -u)" -eq 0 ]; then  # tmpfiles chowns to hilsim: only root can
  systemd-tmpfiles --root="$root" --create >"$work/tmpfiles.log" 2>&1 ||
    { cat "$work/tmpfiles.log" >&2; fail "systemd-tmpfiles --root --create"; }
  uid=$(awk -F: '$1 == "hilsim" { print $3 }' "$root/etc/passwd")
  for d in var/lib/hilsim var/lib/hilsim/runs; do
    [ "$(stat -c '%u %a' "$root/$d" 2>/dev/null)" = "$uid 750" ] ||
      fail "/$d is not a directory of hilsim with mode 0750"
  done
else
  echo "note: not root, the tmpfiles.d entry was not applied (chown needs root)"
fi

# --- the installed units verify against the staged tree ---------------------------------------
# The staged tree has no systemd of its own: lend it the host's targets (After=, WantedBy=).
cp -n /lib/systemd/system/*.target "$root/usr/lib/systemd/system/"
if ! out=$(systemd-analyze verify --man=no --root="$root" hilsim@bench.service \
             hilsim-timing.service 2>&1) || [ -n "$out" ]; then
  echo "$out" >&2
  fail "systemd-analyze verify --root on the installed units"
fi

# --- another prefix, given at install time -----------------------------------------------------
install_to "$work/opt" /opt/hilsim
grep -q "^ExecStart=/opt/hilsim/bin/hilsim run " "$work/opt/opt/hilsim/lib/systemd/system/hilsim@.service" ||
  fail "with --prefix /opt/hilsim, hilsim@.service does not name /opt/hilsim/bin/hilsim"
[ -f "$work/opt/opt/hilsim/share/hilsim/rigs/bench/rig.pbtxt" ] || fail "rigs under /opt/hilsim"
python_finds_libhilbus "$(echo "$work"/opt/opt/hilsim/lib/python3.*/dist-packages)" \
  "$work/opt/opt/hilsim/lib/libhilbus.so.1"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "installed $(wc -l <"$work/installed") files under /usr; units verify against the staged tree"
