#!/usr/bin/env bash
# Measures the reader on hands of many sources (docs/reading.md): printed
# nights of both forms, office scans, corrections on 40% of the sheets,
# a writer's mistake on half, written in the families held out of every
# training (fonts and Hershey fonts, scripts/fetch-hands.sh) and, beside
# them, in the MNIST digits the training held back. Generates into DIR
# (default /tmp/eval-hands) and, with --run, evaluates each set (results in
# DIR/SET/out, or DIR/SET/$RESULTS), printing the figures by source and the
# worst sheet. SEED (default 5900) draws other nights of the same kind.
set -euo pipefail
cd "$(dirname "$0")/.."
# The built binaries find the checkout's Tesseract model (scripts/install-deps.sh) here.
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
dir=${1:-/tmp/eval-hands}
run=${2:-}
seed=${SEED:-5900}
res=${RESULTS:-out}
lab=${AUFSICHT_LAB:-./target/release/aufsicht-lab}
export OMP_THREAD_LIMIT=1
a4=templates/forms/punkteliste-a4-32.json
doko=templates/forms/doko-a4-24x5.json
# name rules form players sources offset rendering
sets="oA merkur $a4 48 font,hershey 1 outline
oB doppelkopf $doko 40 font,hershey 2 outline
pA merkur $a4 48 font,hershey 5 pressure
pB doppelkopf $doko 40 font,hershey 6 pressure
nA merkur $a4 48 mnist 3 outline
nB doppelkopf $doko 40 mnist 4 outline"
echo "$sets" | while read -r name rules form players sources offset rendering; do
  out="$dir/$name"
  if [ ! -d "$out/truth" ]; then
    "$lab" generate --rules "$rules" --form "$form" --night "$players" --printed \
      --hands many --hand-sources "$sources" --families held-out --held-back \
      --rendering "$rendering" \
      --corrections 0.4 --writer-errors 0.5 --capture scanner \
      --seed $((seed + offset)) --out "$out" >/dev/null
  fi
  if [ "$run" = --run ]; then
    echo "== $name ($rules, $sources, $rendering)"
    "$lab" evaluate --truth "$out/truth" --scans "$out/scans" --rules "$rules" \
      --results "$out/$res" 2>/dev/null |
      grep -E '^(sheets|writer-error recall [0-9]|cells|source|worst|writer-clean|scan:)'
  fi
done
