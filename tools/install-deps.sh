#!/usr/bin/env bash
# Installs the Debian 12 packages hilsim needs to build, test and run. Idempotent: prints
# nothing and touches nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libboost-dev libprotobuf-dev protobuf-compiler libcli11-dev libspdlog-dev libfmt-dev
  libeigen3-dev libsocketcan-dev libsystemd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev zlib1g-dev libsodium-dev
  rt-tests clang libclang-rt-14-dev clang-format clang-tidy
  can-utils python3-can python3-canmatrix python3-serial
  systemd python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
