#!/usr/bin/env bash
# `cmake --install BUILD_DIR --prefix P` into a fresh temporary prefix (no DESTDIR: the tree is
# used where it was installed), then smoke_test.sh from a directory outside the source tree:
# hilsim finds its rigs under P, Python its package and libhilbus, pkg-config hilbus.pc, and no
# output names the source or the build tree (docs/install.md).
#   prefix_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d /tmp/hilsim-prefix-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
if ! cmake --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1; then
  cat "$prefix.log" >&2
  rm -f "$prefix.log"
  echo "FAIL: cmake --install --prefix $prefix" >&2
  exit 1
fi
rm -f "$prefix.log"
bash "$here/smoke_test.sh" "$prefix" "$src" "$build"
