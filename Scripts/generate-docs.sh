#!/usr/bin/env bash
# Writes the command reference from the commands' own specifications (the data `help` prints):
# docs/commands.md and the man page docs/migrate-store.1. Run it after changing a command's help,
# options or arguments, or adding a command, and commit the result; CommandReferenceTests fails
# while the checked-in files differ from what the tool prints.
# Usage: Scripts/generate-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product migrate-store >/dev/null
tool="$(swift build --show-bin-path)/migrate-store"
mkdir -p docs
"$tool" help --markdown > docs/commands.md
"$tool" help --man > docs/migrate-store.1
echo "Wrote docs/commands.md and docs/migrate-store.1; read the page with: man -l docs/migrate-store.1"
