#!/usr/bin/env bash
# Fetches the handwriting the lab draws besides MNIST into data/hands/:
# handwriting fonts from the npm registry's @fontsource packages (their
# latin WOFF, one file a family) in fonts/, and Debian's Hershey stroke
# fonts (package hershey-fonts-data, unpacked, not installed) in hershey/.
# The families reserved for evaluation (../shared/RESERVED.md) are not in
# the list and are never fetched. Which families train and which are held
# out is the lab's (lab/src/hands/families.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=data/hands
mkdir -p "$dest/fonts" "$dest/hershey"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
families=(
  playwrite-de-grund playwrite-de-la playwrite-de-sas playwrite-de-va
  playwrite-at playwrite-ch playwrite-dk-loopet playwrite-nl playwrite-pl
  edu-sa-beginner edu-nsw-act-foundation edu-qld-beginner edu-vic-wa-nt-beginner edu-tas-beginner
  just-another-hand nothing-you-could-do rock-salt coming-soon crafty-girls
  calligraffitti walter-turncoat waiting-for-the-sunrise over-the-rainbow
  loved-by-the-king la-belle-aurore dawning-of-a-new-day sunshiney give-you-glory
  just-me-again-down-here mynerve gamja-flower poor-story dokdo east-sea-dokdo
  single-day yeon-sung hi-melody klee-one yomogi zen-kurenaido sriracha mali
  playpen-sans comic-neue sedgwick-ave dekko atma kavivanar chilanka
  rancho grape-nuts fuzzy-bubbles oooh-baby square-peg bad-script marck-script
  kaushan-script dancing-script nanum-brush-script beth-ellen comforter
  vibur swanky-kitten mr-dafoe kristi satisfy
)
missing=()
for f in "${families[@]}"; do
  [ -s "$dest/fonts/$f.woff" ] && continue
  if (cd "$tmp" && npm pack --silent "@fontsource/$f" >/dev/null 2>&1); then
    tar xzf "$tmp"/fontsource-"$f"-*.tgz -C "$tmp" "package/files/$f-latin-400-normal.woff" 2>/dev/null \
      && mv "$tmp/package/files/$f-latin-400-normal.woff" "$dest/fonts/$f.woff" \
      || missing+=("$f")
    rm -rf "$tmp"/package "$tmp"/fontsource-*.tgz
  else
    missing+=("$f")
  fi
done
if [ ! -s "$dest/hershey/scripts.jhf" ]; then
  (cd "$tmp" && apt-get download hershey-fonts-data >/dev/null)
  dpkg-deb -x "$tmp"/hershey-fonts-data_*.deb "$tmp/deb"
  cp "$tmp"/deb/usr/share/hershey-fonts/*.jhf "$dest/hershey/"
fi
echo "data/hands: $(ls "$dest/fonts" | wc -l) font families, $(ls "$dest/hershey" | wc -l) Hershey fonts"
[ ${#missing[@]} -eq 0 ] || echo "not in the registry (skipped): ${missing[*]}" >&2
