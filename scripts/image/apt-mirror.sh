#!/usr/bin/env bash
# Prints the Debian mirror this machine's apt uses for bookworm (deb822 .sources or one-line .list files), so the
# stand-in base comes from the same mirror (and proxy) that already works here. Falls back to deb.debian.org.
set -euo pipefail
shopt -s nullglob
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -r "$f" ] || continue
  if [[ "$f" == *.sources ]]; then
    # A stanza's URIs line, for a stanza whose Suites include plain bookworm.
    url="$(awk 'BEGIN{RS=""} /Suites:[^\n]*bookworm( |\n|$)/ && !/debian-security/ {
             for (i = 1; i <= NF; i++) if ($i == "URIs:") { print $(i + 1); exit } }' "$f")"
  else
    url="$(awk '$1 == "deb" && $0 ~ / bookworm / && $0 !~ /security/ {
             for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/) { print $i; exit } }' "$f")"
  fi
  if [ -n "$url" ]; then
    echo "$url"
    exit 0
  fi
done
echo "http://deb.debian.org/debian"
