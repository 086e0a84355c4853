#!/usr/bin/env bash
# Times the review desk on a generated night: scans N sheets into an
# archive, serves it, then prints how long the queue and the first sheet's
# view take, and a correction from request to re-verified answer.
# Usage: scripts/desk-bench.sh [SHEETS] [DIR]   (default 100 sheets in out/desk-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
# The built binaries find the checkout's Tesseract model (scripts/install-deps.sh) here.
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
n=${1:-100}; dir=${2:-out/desk-bench}
export OMP_THREAD_LIMIT=1
cargo build --release --locked --quiet --workspace
bin=./target/release/aufsicht
lab=./target/release/aufsicht-lab
rm -rf "$dir" && mkdir -p "$dir"
$lab generate --rules merkur --form punkteliste-a4-32 --count "$n" --seed 21 --capture scanner --out "$dir/gen" 2>/dev/null
$bin scan --rules merkur --out "$dir/out" "$dir/gen/scans" 2>/dev/null
$bin review --serve --listen 127.0.0.1:0 --archive "$dir/out/aufsicht.sqlite" --rules merkur >"$dir/url" 2>/dev/null &
desk=$!
trap 'kill $desk 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$dir/url" ] && break; sleep 0.1; done
url=$(head -1 "$dir/url")
time_of() { curl -s -o "$dir/last" -w '%{time_total}' "$@"; }
queue=$(time_of "${url}api/sheets")
first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["id"])' "$dir/last")
view=$(time_of "${url}api/sheets/$first/view")
path=$(python3 -c 'import json,sys; print(next((f["path"] for f in json.load(open(sys.argv[1]))["flags"] if f["path"]), ""))' "$dir/last")
post=$(curl -s -o "$dir/last" -w '%{http_code} %{time_total}' -X POST -H 'content-type: application/json' \
  -d "{\"by\":\"bench\",\"values\":[{\"path\":\"$path\",\"value\":3}]}" "${url}api/sheets/$first/values")
[ "${post%% *}" = 200 ] || { echo "the correction was refused: $post $(cat "$dir/last")" >&2; exit 1; }
post=${post#* }
again=$(time_of "${url}api/sheets/$first/view")
standings=$(time_of "${url}api/standings")
echo "desk on $n sheets: queue $queue s, first sheet's view $view s, correction re-verified $post s, the sheet shown again $again s, standings $standings s"
