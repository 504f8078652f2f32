#!/bin/sh
# Installs the Debian packages causeway needs to build and test, if any are missing.
# Safe to run repeatedly: it does nothing when everything is present.
set -eu

PACKAGES="
  build-essential cmake ninja-build pkg-config clang clang-format clang-tidy libclang-rt-14-dev lld
  libomp-14-dev
  libopen-trace-format2-dev otf2-tools python3-otf2
  libopenmpi-dev openmpi-bin gfortran libelf-dev libdw-dev
  hpcc lammps lammps-examples
  libcli11-dev nlohmann-json3-dev libexpected-dev libarchive-dev libpugixml-dev libjs-d3
  chromium
  libgtest-dev libgmock-dev libbenchmark-dev
  time graphviz python3-networkx libunwind8 ccache
"

missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi

echo "Installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
