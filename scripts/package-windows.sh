#!/usr/bin/env bash
# Builds the Windows release on this Linux machine (contract: Windows):
# target/windows/aufsicht-<version>-x86_64-windows.zip (aufsicht.exe, the
# build without Tesseract with its models, forms, rule sets and messages
# inside, and the README) and target/windows/aufsicht-<version>-setup.exe
# (NSIS, packaging/windows/aufsicht.nsi). Installs what it needs first
# (mingw-w64, nsis, zip, the Rust target), where it can.
set -euo pipefail
cd "$(dirname "$0")/.."
need() { command -v "$1" >/dev/null || missing="$missing $2"; }
missing=""
need x86_64-w64-mingw32-gcc mingw-w64
need makensis nsis
need zip zip
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || { echo "package-windows: missing:$missing (apt install$missing)" >&2; exit 1; }
  apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
target=x86_64-pc-windows-gnu
rustup target list --installed 2>/dev/null | grep -qx "$target" || rustup target add "$target"
cargo build --release --locked --no-default-features --target "$target" --bin aufsicht
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
out=target/windows
stage="$out/aufsicht-$version"
rm -rf "$stage" && mkdir -p "$stage"
cp "target/$target/release/aufsicht.exe" "$stage/"
cp README.md "$stage/"
zip_file="$out/aufsicht-$version-x86_64-windows.zip"
rm -f "$zip_file"
(cd "$out" && zip -q -r "$(basename "$zip_file")" "aufsicht-$version")
makensis -V2 -DVERSION="$version" -DEXE="$PWD/$stage/aufsicht.exe" -DREADME="$PWD/$stage/README.md" \
  -DOUT="$PWD/$out/aufsicht-$version-setup.exe" packaging/windows/aufsicht.nsi
ls -l "$zip_file" "$out/aufsicht-$version-setup.exe" | awk '{print $9 ": " $5 " bytes"}'
