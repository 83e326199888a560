#!/usr/bin/env bash
# Installs the Debian 12 packages hilsim needs to build, test and run. Idempotent: prints
# nothing and touches nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  dpkg-dev file  # cpack -G DEB: dpkg-shlibdeps and the file type of each installed file
  libboost-dev libprotobuf-dev protobuf-compiler libcli11-dev libspdlog-dev libfmt-dev
  libeigen3-dev libsocketcan-dev libsystemd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev zlib1g-dev libzstd-dev liblz4-dev libsodium-dev libssl-dev libzip-dev libpugixml-dev
  rt-tests clang libclang-rt-14-dev clang-format clang-tidy
  can-utils python3-can python3-canmatrix python3-websockets python3-pytest python3-serial
  python3-mypy
  systemd python3
  slurmctld slurmd slurm-client munge
  chromium fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages pinned in their lock files (the console page's uPlot and its ESLint, the
# browser tests' playwright-core and Foxglove client): node 20 and npm come with the machine,
# never from apt. `npm ci` only when node_modules is older than the lock file; the tests need
# the devDependencies even where NODE_ENV=production would leave them out.
here=$(cd "$(dirname "$0")/.." && pwd)
for dir in io/console/web tests/console; do
  lock="$here/$dir/package-lock.json"
  [ -f "$lock" ] || continue
  stamp="$here/$dir/node_modules/.package-lock.json"
  if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
    echo "install-deps: npm ci in $dir" >&2
    (cd "$here/$dir" && npm ci --include=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  fi
done
