#!/usr/bin/env bash
# Tests the Debian package the way it is used (docs/install.md): builds it
# (scripts/package.sh), unpacks it into an empty root (dpkg-deb -x) and runs
# it from a folder with no checkout beside it, with no model but its own
# (no AUFSICHT_TESSDATA, the system's Tesseract models out of reach):
# --version, --help, the man page, the bash completion, and a scan of the
# bundled samples that must succeed, read the printed row numbers with the
# package's model, hold to the samples' committed truth (every sheet read,
# no wrong value without a flag, cells as the checkout reads them) and
# equal the checkout's binary's results. Then, as root, `apt install` of
# the package, the installed binary checked the same way, and its removal.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
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
AUFSICHT_TESSDATA="$checkout/data/tessdata" "$checkout/target/release/aufsicht" --lang en \
  scan --rules merkur --out from-checkout scans 2>"$work/checkout.log" ||
  { cat "$work/checkout.log"; echo "FAIL: the checkout's scan of the samples"; exit 1; }
lab="$checkout/target/release/aufsicht-lab"
[ -x "$lab" ] || (cd "$checkout" && cargo build --release --locked --quiet -p aufsicht-lab)

# The scan's results held to the samples' truth: every sheet read, no
# wrong value without a flag, and the cells read at least as well as here.
held_to_truth() {
  local out=$1 report
  report=$("$lab" evaluate --truth "$work/truth" --results "$out" 2>/dev/null | head -1)
  echo "$report" | grep -q "^sheets 3  missing results 0  unreadable 0 " ||
    { echo "FAIL: $out: $report"; exit 1; }
  echo "$report" | grep -q "silent errors 0$" || { echo "FAIL: $out: $report"; exit 1; }
}
mkdir -p "$work/truth"
cp "$checkout"/samples/truth/merkur-* "$work/truth/"
held_to_truth from-checkout

# One installed binary, checked as a club would use it.
check() {
  local bin=$1 man=$2 completion=$3 out=$4
  "$bin" --version | grep -qx "aufsicht $version" || { echo "FAIL: $bin --version"; exit 1; }
  "$bin" --help | grep -q "scan" || { echo "FAIL: $bin --help"; exit 1; }
  zcat "$man" | grep -q "Reads and checks Schafkopf" || { echo "FAIL: man page $man"; exit 1; }
  zcat "$(dirname "$(dirname "$man")")/de/man1/aufsicht.1.gz" | grep -q "Liest und prüft Punktelisten" ||
    { echo "FAIL: the German man page beside $man"; exit 1; }
  bash -c "source '$completion' && complete -p aufsicht" >/dev/null || { echo "FAIL: bash completion"; exit 1; }
  # Only the package's own model: no checkout's, none of the system's.
  env -u AUFSICHT_TESSDATA TESSDATA_PREFIX="$work/no-models" "$bin" --lang en \
    scan --rules merkur --out "$out" scans 2>"$work/$out.log" ||
    { cat "$work/$out.log"; echo "FAIL: $bin scan of the samples"; exit 1; }
  # The row numbers are read by Tesseract with the package's model (the
  # title's ink alone settles the title).
  grep -q '"row_numbers_read": 3' "$out/merkur-scanner.json" ||
    { echo "FAIL: $bin read no row numbers: its Tesseract model is missing"; exit 1; }
  held_to_truth "$out"
  for result in from-checkout/*.json; do
    cmp -s "$result" "$out/$(basename "$result")" || { echo "FAIL: $out differs at $(basename "$result")"; exit 1; }
  done
  [ "$(ls "$out"/*.json | wc -l)" = "$(ls from-checkout/*.json | wc -l)" ] || { echo "FAIL: $out: another count"; exit 1; }
  echo "ok: $bin: version, help, man page, completion, $(ls "$out"/*.json | wc -l) sample results held to their truth and as the checkout's"
}
check "$root/usr/bin/aufsicht" "$root/usr/share/man/man1/aufsicht.1.gz" \
  "$root/usr/share/bash-completion/completions/aufsicht" from-unpacked
for f in README.md examples/teilnehmer.csv examples/CLUB.toml; do
  [ -f "$root/usr/share/doc/aufsicht/$f" ] || { echo "FAIL: /usr/share/doc/aufsicht/$f missing"; exit 1; }
done
ls "$root/usr/share/zsh/vendor-completions/_aufsicht" "$root/usr/share/fish/vendor_completions.d/aufsicht.fish" >/dev/null

# The install as a club does it: as root, or through sudo; a machine that
# allows neither fails here rather than passing untested.
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo -n"
$SUDO apt-get install -y -q "$checkout/$deb" >/dev/null ||
  { echo "FAIL: apt install of the package (needs root or sudo)"; exit 1; }
check /usr/bin/aufsicht /usr/share/man/man1/aufsicht.1.gz \
  /usr/share/bash-completion/completions/aufsicht from-installed
$SUDO apt-get remove -y -q aufsicht >/dev/null
[ ! -e /usr/bin/aufsicht ] || { echo "FAIL: /usr/bin/aufsicht left after apt remove"; exit 1; }
echo "ok: apt install and remove"
ls -l "$checkout/$deb" | awk '{print "package size: " $5 " bytes"}'
