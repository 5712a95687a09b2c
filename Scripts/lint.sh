#!/usr/bin/env bash
# Checks the package's Swift files against the checked-in .swift-format with the toolchain's
# swift-format; fails on any finding (layout or rule). Scripts/format.sh fixes the layout ones.
# Usage: Scripts/lint.sh [path...]   (default: Sources Tests Package.swift)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# Not Examples/: the README and the DocC articles quote those files character for character
# (Scripts/check-readme-examples.sh, Scripts/check-docc-snippets.py), laid out for reading.
if [ "$#" -gt 0 ]; then paths=("$@"); else paths=(Sources Tests Package.swift); fi

# The layers import one way (ARCHITECTURE.md): no target imports one listed after it. A clean build
# already refuses an upward import (Package.swift does not list it, and listing it would be a
# dependency cycle), but an incremental build can resolve it against the higher module's earlier
# build products; this check reads the sources only.
layers=(StoreJSON Schema StoreFiles StoreCore JSONStore MigrateStoreCLI)
for ((low = 0; low < ${#layers[@]}; low++)); do
  for ((high = low + 1; high < ${#layers[@]}; high++)); do
    if grep -rnE "^[[:space:]]*(@[_a-zA-Z]+[[:space:]]+)*import[[:space:]]+([a-z]+[[:space:]]+)?${layers[high]}([.[:space:]]|$)" \
      "Sources/${layers[low]}"; then
      echo "lint: Sources/${layers[low]} imports ${layers[high]}, a higher layer (ARCHITECTURE.md)" >&2
      exit 1
    fi
  done
done

log="$(mktemp "${TMPDIR:-/tmp}/swift-format-lint.XXXXXX")"
trap 'rm -f "$log"' EXIT
if swift-format lint --strict --recursive --parallel --configuration .swift-format "${paths[@]}" >"$log" 2>&1; then
  echo "lint: no findings"
else
  cat "$log"
  echo "lint: $(grep -c ': error: ' "$log" || true) finding(s); run Scripts/format.sh, then fix what it still lists by hand" >&2
  exit 1
fi
