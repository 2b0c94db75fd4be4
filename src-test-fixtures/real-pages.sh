#!/usr/bin/env bash
# Regenerates the real-pages sample in src/main/resources/real-pages/ from Debian's documentation packages (installed
# with apt-get when missing): every Nth HTML file of each package in path order, up to 200 KB each, gzipped, plus
# index.txt (one "package/path" per line). Deterministic for the same package versions (listed in NOTICE.md).
#
#   src-test-fixtures/real-pages.sh
set -euo pipefail
cd "$(dirname "$0")"
OUT=src/main/resources/real-pages
declare -A ROOTS=(
  [rust-doc]=/usr/share/doc/rust-doc/html
  [apache2-doc]=/usr/share/doc/apache2-doc/manual
  [libboost1.81-doc]=/usr/share/doc/libboost1.81-doc
  [python-django-doc]=/usr/share/doc/python-django-doc/html
)
declare -A COUNTS=([rust-doc]=160 [apache2-doc]=60 [libboost1.81-doc]=60 [python-django-doc]=40)
for package in "${!ROOTS[@]}"; do
  [ -d "${ROOTS[$package]}" ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null; }
done
rm -rf "$OUT" && mkdir -p "$OUT"
for package in rust-doc apache2-doc libboost1.81-doc python-django-doc; do
  root=${ROOTS[$package]}
  mapfile -t files < <(cd "$root" && find . -type f \( -name '*.html' -o -name '*.htm' \) -size -200k | sed 's|^\./||' | LC_ALL=C sort)
  step=$(( ${#files[@]} / ${COUNTS[$package]} ))
  [ "$step" -ge 1 ] || step=1
  for ((i = 0; i < ${#files[@]}; i += step)); do
    file=${files[$i]}
    mkdir -p "$OUT/$package/$(dirname "$file")"
    gzip -9 -n -c "$root/$file" > "$OUT/$package/$file.gz"
    echo "$package/$file" >> "$OUT/index.txt"
  done
done
echo "$(wc -l < "$OUT/index.txt") pages, $(du -sh "$OUT" | cut -f1) in $OUT"
