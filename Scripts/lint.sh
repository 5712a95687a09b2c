#!/usr/bin/env bash
# Checks the package's Swift files against the checked-in .swift-format with the toolchain's
# swift-format; fails on any finding (layout or rule). Scripts/format.sh fixes the layout ones.
# Usage: Scripts/lint.sh [path...]   (default: Sources Tests Examples Package.swift)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
if [ "$#" -gt 0 ]; then paths=("$@"); else paths=(Sources Tests Examples Package.swift); fi

log="$(mktemp "${TMPDIR:-/tmp}/swift-format-lint.XXXXXX")"
trap 'rm -f "$log"' EXIT
if swift-format lint --strict --recursive --parallel --configuration .swift-format "${paths[@]}" >"$log" 2>&1; then
  echo "lint: no findings"
else
  cat "$log"
  echo "lint: $(grep -c ': error: ' "$log" || true) finding(s); run Scripts/format.sh, then fix what it still lists by hand" >&2
  exit 1
fi
