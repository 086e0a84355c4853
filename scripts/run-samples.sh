#!/usr/bin/env bash
# Runs aufsicht on the bundled samples: every typed sheet under samples/sheets
# is verified with the rule set its file name starts after the first `_`
# (e.g. muster_merkur_...json -> merkur); results go to out/samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release --locked --quiet
mkdir -p out/samples
status=0
for sheet in samples/sheets/*.json; do
  name=$(basename "$sheet" .json)
  rules=$(echo "$name" | cut -d_ -f2)
  out="out/samples/$name.json"
  if ./target/release/aufsicht verify --rules "$rules" "$sheet" > "$out"; then
    python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
codes = ", ".join(f["code"] for f in d["flags"]) or "-"
print(f'{sys.argv[1]}: {d["status"]} ({len(d["flags"])} flags: {codes})')
PY
  else
    status=1
  fi
done
exit $status
