#!/usr/bin/env bash
# Upgrades a copy of the bundled v1 sample store with migrate-store and verifies the result.
# Usage: Scripts/upgrade-sample.sh [work-dir]   (default: a new temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/migrate-store-demo.XXXXXX")}"
swift build --product migrate-store >/dev/null
tool="$(swift build --show-bin-path)/migrate-store"

cp -R Samples/v1-store "$work/store"
echo "\$ migrate-store migrate $work/store --backup-dir $work/backup"
"$tool" migrate "$work/store" --backup-dir "$work/backup"
echo
echo "\$ migrate-store verify $work/store --against $work/backup"
"$tool" verify "$work/store" --against "$work/backup"
echo
echo "The upgraded store is in $work/store. Its work streams and queue match Samples/v4-store, which adds"
echo "two drafts and the app's preferences on top, written through the library (Samples/README.md):"
diff -r --exclude=store.json --exclude=settings.json --exclude=user-sessions --exclude='.*' "$work/store" Samples/v4-store \
  && echo "  identical (store.json, settings.json and user-sessions/ aside)"
