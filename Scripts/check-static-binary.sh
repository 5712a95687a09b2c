#!/usr/bin/env bash
# Checks that migrate-store builds with the Swift runtime and Foundation linked in, as the README's
# install asks (`swift build -c release --static-swift-stdlib`), so it runs on a machine without
# Swift: builds the product with --static-swift-stdlib, then checks that neither ldd nor the
# binary's NEEDED entries name a Swift, Foundation, dispatch or ICU library, and that a copy of it
# outside the build folder runs `help` with an empty environment.
# Usage: Scripts/check-static-binary.sh [debug|release]   (default debug: the same linking as the
# release build in a fraction of its time; CI runs the default)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
configuration="${1:-debug}"
case "$configuration" in debug|release) ;; *) echo "Usage: $0 [debug|release]" >&2; exit 64 ;; esac

args=(-c "$configuration" --static-swift-stdlib)
# The debug check builds in a folder of its own: objects compiled without --static-swift-stdlib
# (the tests' debug build in .build) link against the static Foundation with undefined CoreFoundation
# and ICU symbols, so SwiftPM must compile them afresh for it. The release check runs the README's
# command as it is, in .build.
if [ "$configuration" = debug ]; then args+=(--scratch-path .build-static); fi
swift build "${args[@]}" --product migrate-store 2>&1 | tee /tmp/check-static-build.log
# The linker's note on mktemp in the toolchain's own libFoundationEssentials.a is not ours.
if grep "warning:" /tmp/check-static-build.log | grep -qv "/swift_static/"; then
  echo "check-static-binary: the build has warnings" >&2; exit 1
fi
binary="$(swift build "${args[@]}" --show-bin-path)/migrate-store"

swift_libraries='libswift|Foundation|libdispatch|libBlocksRuntime|libicu|not found'
echo "ldd $binary:"
ldd "$binary" | tee /tmp/check-static-ldd.log
if grep -qE "$swift_libraries" /tmp/check-static-ldd.log; then
  echo "check-static-binary: migrate-store needs a library of the Swift toolchain (above)" >&2; exit 1
fi
if command -v readelf >/dev/null 2>&1 && readelf -d "$binary" | grep NEEDED | grep -qE "$swift_libraries"; then
  echo "check-static-binary: migrate-store names a Swift library in its NEEDED entries" >&2; exit 1
fi

# A copy alone in a folder, so nothing beside it in the build folder is found through $ORIGIN.
work="$(mktemp -d "${TMPDIR:-/tmp}/static-migrate-store.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp "$binary" "$work/migrate-store"
if ! env -i LD_LIBRARY_PATH= "$work/migrate-store" help >"$work/help.txt" 2>&1 || ! grep -q '^USAGE: migrate-store' "$work/help.txt"; then
  cat "$work/help.txt" >&2
  echo "check-static-binary: 'migrate-store help' failed with an empty environment" >&2; exit 1
fi
echo "check-static-binary: $configuration migrate-store ($(du -h "$binary" | cut -f1)) needs no Swift library; 'help' runs with an empty environment"
