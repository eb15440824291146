#!/usr/bin/env bash
# Installs the system packages the suite needs, when any is missing (Debian).
set -euo pipefail
need=(cmake ninja-build gcc libc6-dev libhdf5-dev hdf5-tools libnetpbm-dev python3)
missing=()
for p in "${need[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
