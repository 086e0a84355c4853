#!/usr/bin/env bash
# Builds the Debian package target/debian/aufsicht_<version>_amd64.deb
# (docs/install.md): the release binary, its man page and bash, zsh and
# fish completions (from `aufsicht generate`), the README and the example
# files, and Tesseract's English model with its legacy engine (data/tessdata).
# Installs cargo-deb where it is missing; needs the build packages of
# scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || {
  echo "package.sh: installing cargo-deb (cargo install cargo-deb --locked)" >&2
  cargo install cargo-deb --locked --quiet
}
cargo build --release --bin aufsicht
bin=target/release/aufsicht
mkdir -p target/package/de
# The man page in English where man looks first, in German for a German locale.
"$bin" --lang en generate man | gzip -9n > target/package/aufsicht.1.gz
"$bin" --lang de generate man | gzip -9n > target/package/de/aufsicht.1.gz
"$bin" generate complete-bash > target/package/aufsicht.bash
"$bin" generate complete-zsh > target/package/_aufsicht
"$bin" generate complete-fish > target/package/aufsicht.fish
cargo deb --no-build -p aufsicht
ls -l target/debian/aufsicht_*_amd64.deb
