#!/usr/bin/env bash
# Tests the Windows release as a club uses it, here under Wine
# (scripts/wine-run.sh): builds the zip and the installer
# (scripts/package-windows.sh), installs with `setup.exe /S`, and runs the
# installed aufsicht.exe from a folder with umlauts in its name: --version,
# a scan of the merkur samples, with the night's list as a German Excel
# saves it, whose values and flags equal the Linux build's and hold to the
# samples' truth, standings on the results, and
# the desk serving /api/nights on loopback. The machine's PATH is made
# longer than NSIS's 1,024 characters first: setup adds its folder and
# keeps every entry, the uninstall leaves the PATH as it was before, and
# takes away the folder, the Start-menu entry and the uninstall key.
# Without Wine it says so and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
command -v wine >/dev/null || { echo "test-windows: FAIL: Wine is missing (scripts/install-deps.sh installs it)"; exit 1; }
scripts/package-windows.sh
# The Linux build it is held to, and the lab's evaluation.
cargo build --release --locked --quiet -p aufsicht -p aufsicht-lab
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
setup="$checkout/target/windows/aufsicht-$version-setup.exe"
export WINEPREFIX="$checkout/target/wine/test-prefix"
rm -rf "$WINEPREFIX"
run() { "$checkout/scripts/wine-run.sh" "$@"; }
installed='C:\Program Files\aufsicht\aufsicht.exe'
unix_installed="$WINEPREFIX/drive_c/Program Files/aufsicht/aufsicht.exe"
fail() { echo "test-windows: FAIL: $*"; exit 1; }

environment='HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment'
# The machine's PATH as one line, its entries as written.
machine_path() {
  run reg query "$environment" /v Path | tr -d '\r' |
    sed -n 's/^ *Path *REG_[A-Z_]*SZ *//p'
}
# Every entry of PATH $1 is in PATH $2, in the same order.
entries_kept() {
  python3 - "$1" "$2" <<'PY'
import sys
before, after = (p.split(";") for p in sys.argv[1:3])
rest = [e for e in after if e in before]
sys.exit(0 if rest == before else 1)
PY
}
# A PATH past NSIS's 1,024 characters: the installer must keep all of it.
long=$(machine_path)
for i in $(seq -w 1 120); do long="$long;C:\\Werkzeuge\\Verein $i\\bin"; done
[ ${#long} -gt 3000 ] || fail "the test's PATH is only ${#long} characters"
run reg add "$environment" /v Path /t REG_EXPAND_SZ /d "$long" /f >/dev/null || fail "setting a long PATH"
long=$(machine_path)
[ ${#long} -gt 3000 ] || fail "the long PATH did not take (${#long} characters)"

run "$setup" /S || fail "setup.exe /S"
[ -f "$unix_installed" ] || fail "nothing installed under Program Files"
installed_path=$(machine_path)
echo "$installed_path" | grep -qi 'Program Files\\aufsicht' || fail "aufsicht is not on the PATH"
entries_kept "$long" "$installed_path" || fail "the setup lost entries of a ${#long}-character PATH"
# The Start menu of the user who installed (Wine names its folders itself).
menu=$(find "$WINEPREFIX/drive_c" -type d -path '*Start Menu/Programs/aufsicht' | head -1)
[ -n "$menu" ] && [ -f "$menu/aufsicht Prüfstelle.lnk" ] || fail "no Start-menu entry"
uninstall_key='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\aufsicht'
run reg query "$uninstall_key" /v DisplayName >/dev/null 2>&1 || fail "no uninstall key"
run "$installed" --version | tr -d '\r' | grep -qx "aufsicht $version" || fail "--version"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
night="$work/Rückrunde Ötting"
mkdir -p "$night/scans"
cp samples/scans/merkur-* "$night/scans/"
cd "$night"
# The night's list as a German Excel saves it: Windows-1252, semicolons, CRLF.
printf 'Nummer;number;name\r\n1;27;J\xfcrgen\r\n2;0357;G\xf6tz\r\n3;801;Str\xe4\xdfer\r\n4;912;\xd6zt\xfcrk\r\n' > liste.csv
AUFSICHT_TESSDATA="$checkout/data/tessdata" "$checkout/target/release/aufsicht" --lang en \
  scan --rules merkur --participants liste.csv --out linux scans 2>/dev/null || fail "the Linux build's scan"
run "$installed" --lang en scan --rules merkur --participants liste.csv --out windows scans \
  >/dev/null 2>"$work/scan.log" ||
  { tr -d '\r' < "$work/scan.log"; fail "the installed build's scan of the samples"; }
python3 - linux windows <<'PY' || fail "values or flags differ from the Linux build's"
import json, pathlib, sys
linux, windows = (pathlib.Path(d) for d in sys.argv[1:3])
def held(p):
    r = json.loads(p.read_text(encoding="utf-8"))
    games = [(g["no"], [(c["plus"], c["minus"], c["circled"]) for c in g["cells"]]) for g in r["games"]]
    flags = sorted(((f["code"], f.get("row"), f.get("seat"), f.get("field")) for f in r["flags"]), key=repr)
    return (r["status"], r["round"], r["table"], r["players"], games, r["gesamt"],
            r["abzug"], r["endergebnis"], flags)
names = sorted(p.name for p in linux.glob("*.json"))
assert names == sorted(p.name for p in windows.glob("*.json")), names
for n in names:
    if held(linux / n) != held(windows / n):
        sys.exit(f"{n} differs")
print(f"ok: {len(names)} results, values and flags as the Linux build's")
PY
lab="$checkout/target/release/aufsicht-lab"
mkdir -p truth && cp "$checkout"/samples/truth/merkur-* truth/
"$lab" evaluate --truth truth --results windows 2>/dev/null | head -1 |
  grep -q "^sheets 3  missing results 0  unreadable 0 .*silent errors 0$" || fail "the results against the samples' truth"
run "$installed" --lang en standings --rules merkur windows > standings.csv 2>/dev/null || fail "standings"
tr -d '\r' < standings.csv | head -1 | grep -q "^rank,player,total" || fail "standings' CSV"

# The desk on loopback: its address is the first line on stdout.
run "$installed" --lang en review --serve --listen 127.0.0.1:0 --archive 'windows\aufsicht.sqlite' \
  > desk.out 2>/dev/null &
desk=$!
for _ in $(seq 60); do grep -q '^http' desk.out 2>/dev/null && break; sleep 1; done
url=$(tr -d '\r' < desk.out | head -1)
[ -n "$url" ] || { kill $desk 2>/dev/null; fail "the desk did not start"; }
nights=$(curl -fsS "${url}api/nights" || true)
# Ends the desk: Wine's own processes of this prefix, not just its launcher.
kill $desk 2>/dev/null || true
wineserver -k 2>/dev/null || true
wait $desk 2>/dev/null || true
echo "$nights" | grep -q '"sheets":3' || fail "the desk's /api/nights: $nights"

cd "$checkout"
run 'C:\Program Files\aufsicht\uninstall.exe' /S || fail "uninstall"
for _ in $(seq 20); do [ -f "$unix_installed" ] || break; sleep 1; done
[ ! -f "$unix_installed" ] || fail "aufsicht.exe is still there after the uninstall"
[ ! -d "$(dirname "$unix_installed")" ] || fail "the install folder is still there"
[ ! -e "$menu" ] || fail "the Start-menu entry is still there"
if run reg query "$uninstall_key" >/dev/null 2>&1; then fail "the uninstall key is still there"; fi
[ "$(machine_path)" = "$long" ] || fail "the PATH after the uninstall is not the PATH before the setup"
echo "ok: Windows: setup and uninstall keep a ${#long}-character PATH, --version, samples as the Linux build's and their truth, standings, desk, uninstall"

