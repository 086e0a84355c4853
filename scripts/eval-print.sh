#!/usr/bin/env bash
# Measures what a build reads of the print (docs/install.md): printed
# nights of both forms, every sheet's code blotted out so that its round,
# table and players must be read from the print, in mixed captures
# (scanner, phone, black-and-white). Generates into DIR (default
# /tmp/eval-print) and, with --run, evaluates each set with the lab at
# AUFSICHT_LAB (results in DIR/SET/$RESULTS), printing the header's
# figures, the form's confirmation and the speed.
set -euo pipefail
cd "$(dirname "$0")/.."
# The built binaries find the checkout's Tesseract model (scripts/install-deps.sh) here.
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
dir=${1:-/tmp/eval-print}
run=${2:-}
seed=${SEED:-7100}
res=${RESULTS:-out}
lab=${AUFSICHT_LAB:-./target/release/aufsicht-lab}
export OMP_THREAD_LIMIT=1
a4=templates/forms/punkteliste-a4-32.json
doko=templates/forms/doko-a4-24x5.json
# name rules form players blotted offset
sets="pA merkur $a4 48 1.0 1
pB doppelkopf $doko 40 1.0 2
cA merkur $a4 48 0.0 3"
echo "$sets" | while read -r name rules form players blotted offset; do
  out="$dir/$name"
  if [ ! -d "$out/truth" ]; then
    "$lab" generate --rules "$rules" --form "$form" --night "$players" --printed \
      --codes-blotted "$blotted" --held-back --capture mixed \
      --seed $((seed + offset)) --out "$out" >/dev/null
  fi
  if [ "$run" = --run ]; then
    echo "== $name ($rules, codes blotted: $blotted)"
    "$lab" evaluate --truth "$out/truth" --scans "$out/scans" --rules "$rules" \
      --results "$out/$res" 2>/dev/null |
      grep -E '^(sheets|cells|scan:|player id|round/table|writer-clean)' || true
    grep -hoE '"(title_matches|row_numbers_read|numbers_from_print)": [a-z0-9]+' \
      "$out/$res"/*.json | sort | uniq -c
  fi
done
