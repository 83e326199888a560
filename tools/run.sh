#!/usr/bin/env bash
# Builds hilsim (release preset) if needed and runs it: tools/run.sh run --duration 30s
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
[ -f build/release/build.ninja ] || cmake --preset release >/dev/null
cmake --build --preset release --target hilsim >/dev/null
exec build/release/tools/hilsim "$@"
