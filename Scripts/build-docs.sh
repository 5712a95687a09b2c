#!/usr/bin/env bash
# Builds the library's documentation, Sources/JSONStore/JSONStore.docc, with the toolchain's own
# tools (no package dependency, no plugin): the module is built, its public symbols are extracted
# with swift-symbolgraph-extract (those of StoreCore, Schema and StoreFiles, which `import JSONStore`
# re-exports, included), and `docc convert` turns the catalog and the symbol graph into a
# documentation archive.
# Every DocC warning is an error (a broken ``symbol link``, a missing article, a doc comment
# documenting a parameter that does not exist): exit 1 with the diagnostics. `--analyze` also
# prints DocC's notes (today there are none); they do not fail the build. Then every code
# sample of the articles is checked against the code (Scripts/check-docc-snippets.py).
#
#     Scripts/build-docs.sh [output folder]      default: .build/docs/JSONStore.doccarchive
#
# In CI it runs after `swift build`, whose products it reuses: the `swift build --target JSONStore`
# below then builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

output=${1:-.build/docs/JSONStore.doccarchive}
catalog=Sources/JSONStore/JSONStore.docc

swift build --target JSONStore
bin=$(swift build --show-bin-path)
modules=$bin/Modules
[[ -d $modules ]] || modules=$bin   # the layout of SwiftPM before 6.0
triple=$(swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)

graphs=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$graphs" "$log"' EXIT

# Public symbols of JSONStore, plus those of the modules it re-exports (`@_exported import
# StoreCore`, `Schema` and `StoreFiles`; Schema re-exports StoreJSON's document value types): an
# app sees them as JSONStore's. CSHA256 is a C target (StoreFiles imports it): its module map is the one SwiftPM
# generated beside its build products.
swift-symbolgraph-extract -module-name JSONStore -target "$triple" -I "$modules" -I Sources/CSHA256/include \
  -Xcc -fmodule-map-file="$bin/CSHA256.build/module.modulemap" \
  -minimum-access-level public -skip-synthesized-members \
  -experimental-allowed-reexported-modules=StoreCore,Schema,StoreJSON,StoreFiles \
  -output-dir "$graphs"

rm -rf "$output"
mkdir -p "$(dirname "$output")"
status=0
docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$output" \
  --fallback-display-name JSONStore --fallback-bundle-identifier dev.910labs.JSONStore \
  --analyze --warnings-as-errors 2>&1 | tee "$log" || status=$?

warnings=$(grep -c -E '(^|: )(warning|error):' "$log" || true)
if ((status != 0 || warnings != 0)); then
  echo "build-docs: docc reported $warnings warning(s) or error(s) (exit $status): fix them (every warning is an error here)" >&2
  exit 1
fi

# Every code sample of the articles is real API: an excerpt of an example CI builds, or a block
# that type-checks against the module just built.
python3 Scripts/check-docc-snippets.py "$catalog" "$modules" "$bin" "$triple"
echo "build-docs: $output, no warnings"
