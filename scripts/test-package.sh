#!/usr/bin/env bash
# Tests the Debian package the way it is used (docs/install.md): builds it
# (scripts/package.sh), unpacks it into an empty root (dpkg-deb -x) and runs
# it from a folder with no checkout beside it: --version, --help, the man
# page, the bash completion, and a scan of the bundled samples whose results
# must match the checkout's binary's. Then, as root, `apt install` of the
# package, the installed binary checked the same way, and its removal.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
command -v cargo-deb >/dev/null || cargo install cargo-deb --locked
scripts/package.sh
deb=$(ls -t target/debian/aufsicht_*_amd64.deb | head -1)
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
dpkg-deb -x "$deb" "$root"
mkdir -p "$work/night/scans"
cp samples/scans/merkur-* "$work/night/scans/"
cd "$work/night"
"$checkout/target/release/aufsicht" --lang en scan --rules merkur --out from-checkout scans >/dev/null 2>&1 || true

# One installed binary, checked as a club would use it.
check() {
  local bin=$1 man=$2 completion=$3 out=$4
  "$bin" --version | grep -qx "aufsicht $version" || { echo "FAIL: $bin --version"; exit 1; }
  "$bin" --help | grep -q "scan" || { echo "FAIL: $bin --help"; exit 1; }
  zcat "$man" | grep -q "Schafkopf" || { echo "FAIL: man page $man"; exit 1; }
  bash -c "source '$completion' && complete -p aufsicht" >/dev/null || { echo "FAIL: bash completion"; exit 1; }
  "$bin" --lang en scan --rules merkur --out "$out" scans >/dev/null 2>&1 || true
  for result in from-checkout/*.json; do
    cmp -s "$result" "$out/$(basename "$result")" || { echo "FAIL: $out differs at $(basename "$result")"; exit 1; }
  done
  [ "$(ls "$out"/*.json | wc -l)" = "$(ls from-checkout/*.json | wc -l)" ] || { echo "FAIL: $out: another count"; exit 1; }
  echo "ok: $bin: version, help, man page, completion, $(ls "$out"/*.json | wc -l) sample results as the checkout's"
}
check "$root/usr/bin/aufsicht" "$root/usr/share/man/man1/aufsicht.1.gz" \
  "$root/usr/share/bash-completion/completions/aufsicht" from-unpacked
for f in README.md examples/teilnehmer.csv examples/CLUB.toml; do
  [ -f "$root/usr/share/doc/aufsicht/$f" ] || { echo "FAIL: /usr/share/doc/aufsicht/$f missing"; exit 1; }
done
ls "$root/usr/share/zsh/vendor-completions/_aufsicht" "$root/usr/share/fish/vendor_completions.d/aufsicht.fish" >/dev/null

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get install -y -q "$checkout/$deb" >/dev/null
  check /usr/bin/aufsicht /usr/share/man/man1/aufsicht.1.gz \
    /usr/share/bash-completion/completions/aufsicht from-installed
  apt-get remove -y -q aufsicht >/dev/null
  echo "ok: apt install and remove"
else
  echo "NOT RUN: apt install (needs root and apt-get)"
fi
ls -l "$checkout/$deb" | awk '{print "package size: " $5 " bytes"}'
