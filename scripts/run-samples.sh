#!/usr/bin/env bash
# Runs aufsicht on the bundled samples: the scans under samples/scans (file
# names start with their rule set) are read and checked, results go to
# out/samples/, then compared with the generator's truth; the typed sheets
# under samples/sheets are verified.
set -euo pipefail
cd "$(dirname "$0")/.."
# The built binaries find the checkout's Tesseract model (scripts/install-deps.sh) here.
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
scripts/install-deps.sh
# The lab draws and measures here; its training (candle) is left out, and
# built where a script trains (scripts/train-digits.sh). One build for
# both: the binary and the lab compile side by side after the library.
cargo build --release --locked --quiet -p aufsicht -p aufsicht-lab \
  --no-default-features --features aufsicht/tesseract,aufsicht-lab/tesseract
bin=./target/release/aufsicht
lab=./target/release/aufsicht-lab
rm -rf out/samples && mkdir -p out/samples/scans out/samples/sheets
for rules in $(ls samples/scans | cut -d- -f1 | sort -u); do
  $bin scan --rules "$rules" --out out/samples/scans samples/scans/"$rules"-*
done
echo "== scans against their truth"
$lab evaluate --truth samples/truth --results out/samples/scans
echo "== typed sheets"
for sheet in samples/sheets/*.json; do
  name=$(basename "$sheet" .json)
  rules=$(echo "$name" | cut -d_ -f2)
  $bin verify --rules "$rules" "$sheet" > "out/samples/sheets/$name.json"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1]+":", d["status"], ", ".join(f["code"] for f in d["flags"]) or "-")' "out/samples/sheets/$name.json"
done
echo "== a drawn night (32 players, two rounds), played on the printed sheets: scan, standings, review page"
$lab generate --rules merkur --form punkteliste-a4-32 --night 32 --printed --seed 7 --capture scanner --out out/samples/night
night="--participants out/samples/night/participants.csv --seating out/samples/night/seating.csv"
$bin scan --rules merkur --tournament "sample night" --out out/samples/night/results out/samples/night/scans
$bin standings --rules merkur $night --checks out/samples/night/checks-typed.csv out/samples/night/truth > out/samples/night/standings-typed.csv
$bin standings --rules merkur $night --checks out/samples/night/checks.csv out/samples/night/results > out/samples/night/standings-scanned.csv
$bin review --title "sample night" --out out/samples/night/review.html out/samples/night/results
echo "standings from the typed sheets: out/samples/night/standings-typed.csv"
echo "standings from the scans:        out/samples/night/standings-scanned.csv"
echo "review page:                     out/samples/night/review.html"
