#!/usr/bin/env bash
# Generates the evaluation sets of docs/reading.md (held-out: hA hB hP hQ,
# tuning: tA tB tP, and wA wB wP with a writer's mistake on every sheet;
# development: dA dB, larger, to find what fails without looking at the
# held-out sets; fresh: eA eB, scanner sheets drawn later than the
# choices on the others, to see how far the tuning and development sets flatter;
# wide: vA vB vP to tune on and xA xB xP to report, drawn with
# real paper's hands (generate --hands wide), corrections on 40% of the
# sheets and a tenth of the merkur scans turned a quarter; mA mB mP the
# same with moderate hands (digits 0.5-0.85 boxes, rings 1-1.5 cells);
# all drawn with the digits the model's training held back) into DIR (default /tmp/eval) with a participant list per set, then,
# with --run, evaluates each (results in DIR/SET/out).
# Choose on the tuning sets, report on the held-out ones. PARTICIPANTS=1
# evaluates with the participant list. FRESH=SEED adds a fresh scanner
# pair drawn with that seed (fA<SEED> merkur, fB<SEED> Doppelkopf, 150
# sheets each) and a fresh phone pair (fP<SEED> schwaig, fQ<SEED>
# Doppelkopf, 100 each), to measure on sheets no choice was made on.
# Seeds used so far (docs/reading.md): 1001, 1102 (scanner), 1203 (phone).
set -euo pipefail
cd "$(dirname "$0")/.."
# The built binaries find the checkout's Tesseract model (scripts/install-deps.sh) here.
export AUFSICHT_TESSDATA=${AUFSICHT_TESSDATA:-$PWD/data/tessdata}
dir=${1:-/tmp/eval}
run=${2:-}
lab=${AUFSICHT_LAB:-./target/release/aufsicht-lab}
a4=templates/forms/punkteliste-a4-32.json
doko=templates/forms/doko-a4-24x5.json
# name rules form capture count seed held-back writer-errors [hands corrections landscape digit-size ring-height]
sets="hA merkur $a4 scanner 30 501 1 0.3
hB doppelkopf $doko scanner 30 501 1 0.3
hP schwaig $a4 phone 20 502 1 0.3
hQ doppelkopf $doko phone 20 502 1 0.3
tA merkur $a4 scanner 30 601 1 0.3
tB doppelkopf $doko scanner 30 601 1 0.3
tP schwaig $a4 phone 30 601 1 0.3
wA merkur $a4 scanner 60 701 1 1
wB doppelkopf $doko scanner 60 701 1 1
wP schwaig $a4 phone 40 701 1 1
dA merkur $a4 scanner 100 801 1 0.3
dB doppelkopf $doko scanner 100 801 1 0.3
eA merkur $a4 scanner 150 901 1 0.3
eB doppelkopf $doko scanner 150 901 1 0.3
vA merkur $a4 scanner 20 201 1 0.3 wide 0.4 0.1
vB doppelkopf $doko scanner 16 202 1 0.3 wide 0.4 0
vP merkur $a4 phone 12 203 1 0.3 wide 0.4 0
xA merkur $a4 scanner 20 301 1 0.3 wide 0.4 0.1
xB doppelkopf $doko scanner 16 302 1 0.3 wide 0.4 0
xP merkur $a4 phone 12 303 1 0.3 wide 0.4 0
mA merkur $a4 scanner 20 401 1 0.3 wide 0.4 0.1 0.5..0.85 1.0..1.5
mB doppelkopf $doko scanner 16 402 1 0.3 wide 0.4 0 0.5..0.85 1.0..1.5
mP merkur $a4 phone 12 403 1 0.3 wide 0.4 0 0.5..0.85 1.0..1.5"
if [ -n "${FRESH:-}" ]; then
  sets="$sets
fA$FRESH merkur $a4 scanner 150 $FRESH 1 0.3
fB$FRESH doppelkopf $doko scanner 150 $FRESH 1 0.3
fP$FRESH schwaig $a4 phone 100 $FRESH 1 0.3
fQ$FRESH doppelkopf $doko phone 100 $FRESH 1 0.3"
fi
echo "$sets" | while read -r name rules form capture count seed held errors hands corrections landscape size ring; do
  out="$dir/$name"
  if [ ! -d "$out/truth" ]; then
    flag=""; [ "$held" = 1 ] && flag="--held-back"
    $lab generate --rules "$rules" --form "$form" --count "$count" --seed "$seed" \
      --capture "$capture" --writer-errors "$errors" $flag --out "$out" \
      --hands "${hands:-tidy}" --corrections "${corrections:-0}" --landscape "${landscape:-0}" \
      --digit-size "${size:-0.5..1.4}" --ring-height "${ring:-1.0..2.5}" > /dev/null
    # the night's list: every participant number the truth holds
    python3 -c 'import json,glob,sys
nums=sorted({p for f in glob.glob(sys.argv[1]+"/truth/*.json") for p in json.load(open(f))["players"] if p})
open(sys.argv[1]+"/participants.txt","w").write("\n".join(nums)+"\n")' "$out"
  fi
  if [ "$run" = --run ]; then
    echo "== $name ($rules, $capture)"
    rm -rf "$out/out"
    OMP_THREAD_LIMIT=1 $lab evaluate --truth "$out/truth" --scans "$out/scans" \
      --rules "$rules" --results "$out/out" ${PARTICIPANTS:+--participants "$out/participants.txt"}
  fi
done
