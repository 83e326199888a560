#!/usr/bin/env bash
# The test command of README.md and CI: installs what is missing, builds from scratch and runs
# every suite — release, then AddressSanitizer+UBSan, then ThreadSanitizer — and a short run
# of each fuzz target over its corpus.
#   tools/test.sh            everything (what CI runs)
#   tools/test.sh release    one preset only (release, asan, tsan, fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

presets=("${@:-release asan tsan fuzz}")
read -r -a presets <<<"${presets[*]}"
jobs=$(nproc)

build() {  # configure and build one preset from a clean build tree
  rm -rf "build/$1"
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$jobs"
}

for preset in "${presets[@]}"; do
  echo "=== $preset ==="
  case "$preset" in
    release|asan)
      build "$preset"
      ctest --preset "$preset" -j "$jobs"
      ;;
    tsan)
      build tsan
      # The kernel's mmap randomisation can defeat TSan's shadow mapping: run without ASLR.
      setarch "$(uname -m)" -R ctest --preset tsan -j "$jobs" --label-exclude bench
      ;;
    fuzz)
      build fuzz
      for fuzzer in build/fuzz/tests/fuzz/*_fuzz; do
        [ -x "$fuzzer" ] || continue
        name=$(basename "$fuzzer" _fuzz)
        echo "--- $name: 30 s of fuzzing, seeded from tests/fuzz/corpus/$name"
        work=$(mktemp -d)
        if ! "$fuzzer" -max_total_time=30 -print_final_stats=1 -artifact_prefix="$work/" "$work" "tests/fuzz/corpus/$name" \
            >"$work.log" 2>&1; then
          tail -n 60 "$work.log"
          echo "$name fuzzer found a crash (input kept in $work/): add it as a regression test" >&2
          exit 1
        fi
        grep -E "stat::number_of_executed_units" "$work.log"
        rm -rf "$work" "$work.log"
      done
      ;;
    *) echo "unknown preset '$preset' (release, asan, tsan, fuzz)" >&2; exit 2 ;;
  esac
done
