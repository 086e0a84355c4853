#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for building and testing aufsicht.
# Idempotent: does nothing when everything is there.
set -euo pipefail
need=()
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
