#!/usr/bin/env bash
# Formats the package's Swift files in place with the toolchain's swift-format and the
# checked-in .swift-format, then lists what the formatter can't fix (lint-only rules), if any.
# Usage: Scripts/format.sh [path...]   (default: Sources Tests Package.swift)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# Not Examples/: the README and the DocC articles quote those files character for character
# (Scripts/check-readme-examples.sh, Scripts/check-docc-snippets.py), laid out for reading.
if [ "$#" -gt 0 ]; then paths=("$@"); else paths=(Sources Tests Package.swift); fi

swift-format format --in-place --recursive --parallel --configuration .swift-format "${paths[@]}"

# A few rules (OnlyOneTrailingClosureArgument, NoBlockComments, AmbiguousTrailingClosureOverload...)
# only report: their findings need an edit by hand before Scripts/lint.sh passes.
if ! swift-format lint --strict --recursive --parallel --configuration .swift-format "${paths[@]}"; then
  echo "format.sh: formatted; the findings above are for lint-only rules: fix them by hand" >&2
  exit 1
fi
