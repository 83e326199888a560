#!/usr/bin/env bash
# The test command of README.md and CI: installs what is missing, builds from scratch and runs
# the suites.
#   tools/test.sh            clang-format drift, the release build and every test (the
#                            examples of README.md and docs/ among them: label docs), then the
#                            .deb installed and smoke-tested from /usr (deb, below): what CI
#                            runs (~25 min on 2 cores)
#   tools/test.sh all        also AddressSanitizer+UBSan (clang; the same build holds the
#                            libFuzzer targets, each fuzzed briefly over its seed corpus) and
#                            ThreadSanitizer on the tests whose code runs threads (target
#                            `threaded_tests`): the gate before a merge (~45 min on 2 cores)
#                            and clang-tidy over every source (.clang-tidy, warnings are errors)
#                            and the Debian package (deb)
#   tools/test.sh asan|tsan|fuzz|tidy   one step; HIL_FUZZ_SECONDS sets the fuzzing time (15)
#   tools/test.sh deb        the .deb (cpack -G DEB in build/release, built first if needed),
#                            installed with apt-get, smoke-tested from /usr, removed again
#                            (docs/install.md; changes the machine: root, as CI runs)
#   tools/test.sh lint       the console page's ESLint and unit tests alone, no build (seconds;
#                            every build's ctest runs them too: console_page_lint, _unit)
#   tools/test.sh docs       the examples of README.md and docs/ alone, one test per page
#                            (tests/docs, doc_<page>; ~2 min), in the release build tree as it
#                            is (configured and the examples' targets built when needed)
# Tests labelled `timing` measure wall-clock time; they run alone (RUN_SERIAL).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

presets=("${@:-release deb}")
[ "${presets[*]}" = all ] && presets=(release deb asan tsan tidy)
read -r -a presets <<<"${presets[*]}"
jobs=$(nproc)
fuzz_seconds=${HIL_FUZZ_SECONDS:-15}

configure() {  # a clean build tree for one preset
  rm -rf "build/$1"
  cmake --preset "$1" >/dev/null
}

fuzz_all() {  # each fuzz target of build/$1 for $fuzz_seconds from its seed corpus
  for fuzzer in "build/$1"/tests/fuzz/*_fuzz; do
    [ -x "$fuzzer" ] || continue
    name=$(basename "$fuzzer" _fuzz)
    echo "--- $name: $fuzz_seconds s of fuzzing, seeded from tests/fuzz/corpus/$name"
    work=$(mktemp -d)
    if ! "$fuzzer" -max_total_time="$fuzz_seconds" -print_final_stats=1 -artifact_prefix="$work/" \
        "$work" "tests/fuzz/corpus/$name" >"$work.log" 2>&1; then
      tail -n 60 "$work.log"
      echo "$name fuzzer found a crash (input kept in $work/): add it as a regression test" >&2
      exit 1
    fi
    grep -E "stat::number_of_executed_units" "$work.log"
    rm -rf "$work" "$work.log"
  done
}

format_check() {  # every C++ file as clang-format (.clang-format) writes it
  local drift
  drift=$(git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run 2>&1 | grep -c 'warning:' || true)
  if [ "$drift" != 0 ]; then
    git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run 2>&1 | grep 'warning:' | head -20
    echo "clang-format: $drift lines differ; run: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i" >&2
    exit 1
  fi
}

naming_check() {  # docs/architecture.md "Names"; clang-tidy (tidy) checks the rest
  local bad
  # configuration types end in Spec (what configures a component) or Params (a model's
  # physical parameters): no Config, Options or Settings
  bad=$(git grep -nE '\b(struct|class|using) [A-Z][A-Za-z0-9]*(Config|Options|Settings)\b' \
    -- '*.cpp' '*.hpp' || true)
  # enumerators are lower_snake (constants are kCamel)
  bad+=$(git ls-files '*.cpp' '*.hpp' | xargs perl -0ne \
    'while (/\benum\b[^;{()]*\{\s*(?:\/\/[^\n]*\n\s*)*(k[A-Z]\w*)/g) { print "$ARGV: enumerator $1\n" }')
  if [ -n "$bad" ]; then
    echo "$bad" | head -20
    echo "names: configuration types end in Spec or Params, enumerators are lower_snake" >&2
    exit 1
  fi
}

tidy_all() {  # clang-tidy over every source, from the tidy preset's compile_commands.json
  configure tidy
  cmake --build --preset tidy -j "$jobs" --target hil_config_proto hil_config_test_proto hil_scene_proto \
    >/dev/null  # the generated Protobuf headers the sources include
  git ls-files '*.cpp' | grep -v '^tests/fuzz/' |
    xargs -P "$jobs" -n 8 clang-tidy -p build/tidy --quiet --warnings-as-errors='*' \
      --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-ignored-optimization-argument \
      2>/dev/null  # GCC's flags in the database (-ffat-lto-objects, -Wno-stringop-overflow)
}

format_check
naming_check
for preset in "${presets[@]}"; do
  echo "=== $preset ==="
  SECONDS=0
  case "$preset" in
    release)
      configure release
      cmake --build --preset release -j "$jobs"
      ctest --preset release -j "$jobs"
      ;;
    asan)
      configure asan
      cmake --build --preset asan -j "$jobs"
      ctest --preset asan -j "$jobs" --label-exclude 'bench|docs'  # the examples: on the release build
      fuzz_all asan
      ;;
    tsan)
      configure tsan
      cmake --build --preset tsan -j "$jobs" --target threaded_tests
      # The tests that build made (the others are placeholders *_NOT_BUILT; benchmarks and the
      # install checks are not built either). The kernel's mmap randomisation can defeat
      # TSan's shadow mapping: run without ASLR.
      setarch "$(uname -m)" -R ctest --preset tsan -j "$jobs" -E '_NOT_BUILT$|^systemd_' \
        --label-exclude 'bench|docs'
      ;;
    tidy)
      tidy_all
      ;;
    deb)  # the release build's package (the release step above made it; else build it)
      [ -f build/release/build.ninja ] || configure release
      cmake --build --preset release -j "$jobs"
      bash tests/install/deb_install_test.sh build/release .
      ;;
    docs)  # every documented example (docs/architecture.md "Docs as tests")
      [ -f build/release/build.ninja ] || configure release
      cmake --build --preset release -j "$jobs" --target doc_examples
      ctest --preset release -j "$jobs" -L docs
      ;;
    lint)  # the console page's JavaScript (docs/console.md "Developing the page")
      (cd io/console/web && npm run --silent lint && node --test)
      ;;
    fuzz)  # the fuzz targets alone (asan builds them too), for longer runs: HIL_FUZZ_SECONDS
      configure fuzz
      cmake --build --preset fuzz -j "$jobs"
      fuzz_all fuzz
      ;;
    *) echo "unknown preset '$preset' (release, deb, asan, tsan, fuzz, tidy, lint, docs, all)" >&2; exit 2 ;;
  esac
  echo "=== $preset: ${SECONDS} s ==="
done
