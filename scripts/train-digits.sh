#!/usr/bin/env bash
# Remakes models/digits.safetensors as the committed model was made
# (docs/reading.md): the model committed in ed226d5 (trained
# afresh, `train-digits --epochs 5 --seed 1 --sheets 600`, on the pipeline
# of its day), then trained on three times more, each time on 600
# new sheets drawn and cut by today's pipeline, at a lower learning rate.
# About 20 minutes a step on 2 cores (the fresh start: 45). Needs the MNIST
# training split (scripts/fetch-mnist.sh). Usage: scripts/train-digits.sh [OUT]
#
# With --second it remakes models/second.safetensors instead, the second
# net whose opinion is asked on a flagged seat's footer (docs/reading.md):
# a deep net trained afresh (`train-digits --deep`,
# five epochs), then one step on (two epochs at 3e-4, seed 3), as the
# committed one was made. Training on this CPU is not bit-identical from
# run to run, so measure what it makes (scripts/eval-sets.sh). About 70
# minutes. Usage: scripts/train-digits.sh --second [OUT]
#
# The committed models/digits.safetensors is the MNIST model (all the
# above) trained on with hands of many sources: three epochs on MNIST's
# digits beside 60 000 glyphs of 6 000 writers of the training families
# (fonts, Hershey fonts, synthesised hands; the held-out families never),
# and every other harvested sheet written in them; then two more at a
# lower rate beside 80 000 glyphs of 8 000 other writers. With --hands
# these steps are run on the MNIST model of 1bcd62e (or on one trained by
# the recipe above where the history lacks it). About 100 minutes on 2
# cores (the recipe before it: another hour). Needs scripts/fetch-hands.sh.
# RENDERING=both draws the training families' glyphs both ways (outline
# and pressure, docs/measurements.md; 91 minutes): measured, not committed.
# Usage: [RENDERING=both] scripts/train-digits.sh --hands [OUT]
#
# With --wide it trains the wide net (four 3×3 convolutions, 256 dense
# units) afresh on MNIST's training split and the hands of every training
# family, drawn both ways, with one sheet in five captured in black and
# white: six epochs, about 6 hours on 2 cores. It writes a checkpoint
# every 15 minutes and at each epoch's end (CHECKPOINT, default
# models/wide.checkpoint); run the same command again and it goes on from
# there, so a killed training goes on where it stopped. Usage: scripts/train-digits.sh --wide [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
# The built binaries find the checkout's Tesseract model (scripts/install-deps.sh) here.
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
second=""
hands=""
wide=""
case "${1:-}" in
  --second) second=1; shift ;;
  --hands) hands=1; shift ;;
  --wide) wide=1; shift ;;
esac
out=${1:-models/digits.safetensors}
[ -z "$second" ] || out=${1:-models/second.safetensors}
# Build from this checkout: an older binary may lack --from.
[ -n "${AUFSICHT_LAB:-}" ] || cargo build --release -p aufsicht-lab
bin=${AUFSICHT_LAB:-./target/release/aufsicht-lab}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$wide" ]; then
  scripts/fetch-mnist.sh
  scripts/fetch-hands.sh
  exec "$bin" train-digits --wide --hands data/hands --rendering both --bilevel \
    --epochs 6 --seed 21 --sheets 900 --hand-writers 10000 \
    --out "${1:-models/wide.safetensors}" --checkpoint "${CHECKPOINT:-models/wide.checkpoint}" --resume
fi
if [ -n "$hands" ]; then
  scripts/fetch-hands.sh
  if ! git show 1bcd62e:models/digits.safetensors > "$work/mnist.safetensors" 2>/dev/null; then
    AUFSICHT_LAB="$bin" "$0" "$work/mnist.safetensors"
  fi
  rendering=${RENDERING:-outline}
  "$bin" train-digits --hands data/hands --rendering "$rendering" --from "$work/mnist.safetensors" \
    --epochs 3 --learning-rate 1e-3 --seed 11 --sheets 600 --out "$work/hands1.safetensors"
  "$bin" train-digits --hands data/hands --rendering "$rendering" --from "$work/hands1.safetensors" \
    --epochs 2 --learning-rate 3e-4 --seed 12 --sheets 600 --hand-writers 8000 --out "$out"
  exit 0
fi
if [ -n "$second" ]; then
  "$bin" train-digits --deep --epochs 5 --seed 1 --sheets 600 --out "$work/deep0.safetensors"
  "$bin" train-digits --from "$work/deep0.safetensors" --epochs 2 --learning-rate 3e-4 --seed 3 \
    --out "$out"
  exit 0
fi
# The start: that model from the history, or, in a checkout without it
# (a shallow clone), one trained afresh. That one is not the same: on
# today's cuts a fresh net learns another balance of digits and "not one
# digit" parts (docs/reading.md), so measure it.
if ! git show ed226d5:models/digits.safetensors > "$work/step0.safetensors" 2>/dev/null; then
  "$bin" train-digits --epochs 5 --seed 1 --sheets 600 --out "$work/step0.safetensors"
fi
"$bin" train-digits --from "$work/step0.safetensors" --epochs 2 --learning-rate 3e-4 --seed 3 \
  --out "$work/step1.safetensors"
"$bin" train-digits --from "$work/step1.safetensors" --epochs 2 --learning-rate 1.1e-4 --seed 4 \
  --out "$work/step2.safetensors"
"$bin" train-digits --from "$work/step2.safetensors" --epochs 2 --learning-rate 6.6e-5 --seed 5 \
  --out "$out"
