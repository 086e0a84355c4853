#!/usr/bin/env bash
# Runs a Windows build of aufsicht here, under Wine (Debian's `wine`):
# scripts/wine-run.sh EXE ARGS... What Wine 8 needs to start it stays in
# the harness: a stand-in bcryptprimitives.dll (packaging/windows/
# bcryptprimitives.c, built with mingw-w64) in the system folder of a Wine
# prefix of the checkout's own (target/wine/prefix, WINEPREFIX to use
# another). Fails in one line where Wine or mingw-w64 is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/wine-run.sh EXE ARGS..." >&2; exit 2; }
command -v wine >/dev/null ||
  { echo "wine-run: Wine is missing (apt install wine wine64)" >&2; exit 1; }
dlls="$here/target/wine/dlls"
stub="$dlls/bcryptprimitives.dll"
if [ ! -f "$stub" ] || [ "$here/packaging/windows/bcryptprimitives.c" -nt "$stub" ]; then
  command -v x86_64-w64-mingw32-gcc >/dev/null ||
    { echo "wine-run: mingw-w64 is missing (apt install mingw-w64)" >&2; exit 1; }
  mkdir -p "$dlls"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$stub" "$here/packaging/windows/bcryptprimitives.c" -ladvapi32
fi
export WINEPREFIX=${WINEPREFIX:-$here/target/wine/prefix}
# Native first for the stand-in only; no Wine dialogs, no debug chatter.
export WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree,mshtml=${WINEDLLOVERRIDES:+;$WINEDLLOVERRIDES}"
export WINEDEBUG=${WINEDEBUG:--all}
export WINEARCH=win64
if [ ! -d "$WINEPREFIX/drive_c" ]; then
  mkdir -p "$WINEPREFIX"
  wineboot -i >/dev/null 2>&1 || { echo "wine-run: cannot make a Wine prefix in $WINEPREFIX" >&2; exit 1; }
fi
system32="$WINEPREFIX/drive_c/windows/system32"
cmp -s "$stub" "$system32/bcryptprimitives.dll" || cp "$stub" "$system32/bcryptprimitives.dll"
exec wine "$@"
