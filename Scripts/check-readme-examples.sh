#!/usr/bin/env bash
# Checks that every Swift block of the README (and of docs/library.md, where the rest of the
# library's examples are) marked as coming from an example file is that file's text, so that the README shows code that builds (CI builds the examples as their own
# package, Examples/AppExample). A marked block is a ```swift block whose line before is
#
#     <!-- example: <path> from "<first line>" -->
#
# and it must equal <path>'s text from its first line equal to <first line> to the file's end.
# Exit 0 when every marked block matches (and each file has at least one), 1 with a diff otherwise.
#
#     Scripts/check-readme-examples.sh [file.md ...]     default: README.md docs/library.md
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# == 0)); then set -- README.md docs/library.md; fi
marker='^<!-- example: ([^ ]+) from "(.*)" -->$'

overall=0
for readme in "$@"; do
  status=0
  count=0
  mapfile -t lines < "$readme"
  for ((i = 0; i < ${#lines[@]}; i++)); do
    [[ ${lines[i]} =~ $marker ]] || continue
    path=${BASH_REMATCH[1]}
    first=${BASH_REMATCH[2]}
    count=$((count + 1))
    if [[ ${lines[i + 1]:-} != '```swift' ]]; then
      echo "$readme:$((i + 1)): the example marker is not followed by a \`\`\`swift block" >&2
      status=1
      continue
    fi
    block=()
    fence='```'
    j=$((i + 2))
    while ((j < ${#lines[@]})) && [[ ${lines[j]} != "$fence" ]]; do
      block+=("${lines[j]}")
      j=$((j + 1))
    done
    if [[ ! -f $path ]]; then
      echo "$readme:$((i + 1)): $path does not exist" >&2
      status=1
      continue
    fi
    source=$(awk -v first="$first" 'found || $0 == first { found = 1; print }' "$path")
    if [[ -z $source ]]; then
      echo "$readme:$((i + 1)): $path has no line '$first'" >&2
      status=1
      continue
    fi
    if ! diff -u --label "$path (from '$first')" --label "$readme, line $((i + 3))" <(printf '%s\n' "$source") <(printf '%s\n' "${block[@]}") >&2; then
      echo "$readme:$((i + 1)): the block differs from $path (diff above)" >&2
      status=1
    fi
  done
  if ((count == 0)); then
    echo "$readme: no block is marked as coming from an example" >&2
    overall=1
    continue
  fi
  ((status == 0)) && echo "$readme: $count example block(s) match their files"
  ((status == 0)) || overall=1
done
exit $overall
