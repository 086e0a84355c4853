#!/usr/bin/env bash
# Reading on learned club forms: for each layout, its blank (scanned or
# photographed: CAPTURE, default mixed) is learnt with `form learn`, sheets
# are drawn on the true layout, scanned with the learnt template and with
# the true one, and both rated against the truth.
#   scripts/eval-club-forms.sh [DIR]        # held-out layouts (seeds 1000 on)
#   FIRST=1 COUNT=8 scripts/eval-club-forms.sh /tmp/ecf-tune
# PRINT (default black; blue, red, green, light-blue, or mixed: each
# layout its own) is the colour the forms are printed in, blank and sheets.
set -euo pipefail
cd "$(dirname "$0")/.."
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
export OMP_THREAD_LIMIT=1
dir=${1:-/tmp/eval-club-forms}
first=${FIRST:-1000}
count=${COUNT:-8}
sheets=${SHEETS:-6}
capture=${CAPTURE:-mixed}
print=${PRINT:-black}
lab=${AUFSICHT_LAB:-./target/release/aufsicht-lab}
bin=${AUFSICHT_BIN:-./target/release/aufsicht}
mkdir -p "$dir"
for seed in $(seq "$first" $((first + count - 1))); do
  id=club-$seed
  out=$dir/$id
  line=$("$lab" club-forms --seed "$seed" --count 1 --dpi 200 --capture "$capture" \
    --print "$print" --out "$out")
  rules=$(echo "$line" | awk '{print $2}' | tr -d :)
  colour=$(echo "$line" | sed -n 's/.*printed \([a-z-]*\).*/\1/p')
  echo "== $line"
  if ! "$bin" form learn "$out/$id.png" --out "$out/learned.json" 2>"$out/learn.log"; then
    echo "learn: $(tail -1 "$out/learn.log")"
    continue
  fi
  if [ ! -d "$out/sheets/truth" ]; then
    "$lab" generate --rules "$rules" --form "$out/$id.json" --count "$sheets" \
      --hands many --hand-sources font,hershey --families held-out \
      --capture mixed --print "${colour:-black}" --writer-errors 0.5 --seed "$seed" --out "$out/sheets" >/dev/null
  fi
  for form in learned "$id"; do
    rm -rf "$out/read-$form"
    "$bin" scan --rules "$rules" --form "$out/$form.json" --out "$out/read-$form" \
      "$out/sheets/scans" >/dev/null 2>&1 || true
    echo "-- read on the $( [ "$form" = learned ] && echo learnt || echo true ) template"
    "$lab" evaluate --truth "$out/sheets/truth" --results "$out/read-$form" 2>/dev/null |
      grep -E '^(sheets|cells|worst|writer-error recall [0-9])' || true
  done
done
