#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` in a built tree gives hilsim_<version>_<arch>.deb with the
# documented contents and declared dependencies; `apt-get install ./hilsim_*.deb` installs it
# (its postinst creates the user hilsim and /var/lib/hilsim), and smoke_test.sh runs from /usr.
# Changes the machine: run by `tools/test.sh deb` (and `all`), not by ctest. The package is
# removed again afterwards unless it was installed before or HIL_KEEP_DEB=1 (the user hilsim
# and /var/lib/hilsim stay, as Debian leaves them). Not root: the package is unpacked with
# dpkg -x instead and the smoke test runs from there, without the units.
#   deb_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/hilsim-deb-XXXXXX)
installed_here=0
cleanup() {
  if [ "$installed_here" = 1 ] && [ "${HIL_KEEP_DEB:-0}" != 1 ]; then
    echo "--- removing the package again (HIL_KEEP_DEB=1 keeps it)"
    dpkg --purge hilsim >/dev/null || echo "warning: dpkg --purge hilsim failed" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

echo "--- cpack -G DEB"
SECONDS=0
if ! (cd "$build" && cpack -G DEB -B "$work/pkg") >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log" >&2
  echo "FAIL: cpack -G DEB" >&2
  exit 1
fi
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
deb="$work/pkg/hilsim_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || { ls "$work/pkg" >&2; echo "FAIL: no $(basename "$deb")" >&2; exit 1; }
echo "    $(basename "$deb"): $(du -h "$deb" | cut -f1), ${SECONDS} s"

# --- what the package holds and declares ---------------------------------------------------
dpkg-deb --contents "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$work/contents"  # links too
for f in /usr/bin/hilsim /usr/lib/libhilbus.so.1.1.0 /usr/lib/libhilbus.so.1 /usr/lib/libhilbus.so \
         /usr/include/hilbus.h /usr/lib/pkgconfig/hilbus.pc \
         /usr/lib/python3/dist-packages/hilsim/__init__.py \
         /usr/lib/python3/dist-packages/hilsim/_installed.py \
         /usr/lib/python3/dist-packages/hilsim/bus.py \
         /usr/share/hilsim/rigs/ravon/rig.pbtxt /usr/share/hilsim/rigs/ravon/cosim/battery.py \
         /usr/share/hilsim/rigs/scenarios/double_lane_change.pbtxt \
         /usr/lib/systemd/system/hilsim@.service /usr/lib/systemd/system/hilsim-timing.service \
         /usr/lib/sysusers.d/hilsim.conf /usr/lib/tmpfiles.d/hilsim.conf \
         /usr/share/doc/hilsim/README.md /usr/share/doc/hilsim/install.md \
         /usr/share/doc/hilsim/bus.md; do
  grep -qxF "$f" "$work/contents" || fail "the package lacks $f"
done
grep -q "__pycache__\|/build/" "$work/contents" && fail "the package holds build leftovers"
dpkg-deb --field "$deb" Package Version Architecture Depends >"$work/control"
sed 's/^/    /' "$work/control"
grep -q "^Depends: .*libc6" "$work/control" && grep -q "^Depends: .*python3" "$work/control" &&
  grep -q "^Depends: .*libprotobuf" "$work/control" ||
  fail "Depends lacks the shared libraries (dpkg-shlibdeps) or python3"
dpkg -x "$deb" "$work/x"
# Installed text files (the docs' transcripts aside) name neither tree: the units, hilbus.pc,
# the Python package, the rigs; the binaries are stripped (no line tables naming the sources).
for path in "$src" "$build"; do
  if hits=$(grep -rlIF --exclude-dir=doc -- "$path" "$work/x/usr"); then
    fail "installed files name $path: $hits"
  fi
done
for elf in "$work/x/usr/bin/hilsim" "$work/x/usr/lib/libhilbus.so.1.1.0"; do
  readelf -S "$elf" | grep -q "\.debug_" && fail "$(basename "$elf") is not stripped"
done
grep -qx "ExecStart=/usr/bin/hilsim run .*" "$work/x/usr/lib/systemd/system/hilsim@.service" ||
  fail "hilsim@.service does not run /usr/bin/hilsim"
grep -qx 'LIBHILBUS = "../../../libhilbus.so.1" .*' \
  "$work/x/usr/lib/python3/dist-packages/hilsim/_installed.py" ||
  fail "hilsim/_installed.py does not point at /usr/lib/libhilbus.so.1"

# --- installed, then used from /usr -----------------------------------------------------------
if [ "$(id -u)" -eq 0 ]; then
  dpkg-query -W -f='${Status}' hilsim 2>/dev/null | grep -q "install ok installed" ||
    installed_here=1
  echo "--- apt-get install $(basename "$deb")"
  if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" \
       >"$work/apt.log" 2>&1; then
    getent passwd hilsim >/dev/null || fail "the postinst did not create the user hilsim"
    [ -d /var/lib/hilsim/runs ] || fail "the postinst did not create /var/lib/hilsim/runs"
    bash "$here/smoke_test.sh" /usr "$src" "$build" || fail "the smoke test from /usr"
  else
    cat "$work/apt.log" >&2
    fail "apt-get install ./$(basename "$deb")"
  fi
else
  echo "--- not root: dpkg -x, the smoke test from the unpacked tree (no units)"
  HIL_SMOKE_UNITS=0 bash "$here/smoke_test.sh" "$work/x/usr" "$src" "$build" ||
    fail "the smoke test from the unpacked package"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "the .deb: built, installed and used from /usr in ${SECONDS} s"
