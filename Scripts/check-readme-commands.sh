#!/usr/bin/env bash
# The newcomer check: every `migrate-store` command line the README shows runs, on copies of the
# bundled samples, and ends as the README says.
#
# The convention (the README states it in a comment above its first example):
#
# - Checked: each line of a ```sh or ```console block of the README that starts with
#   `migrate-store ` or `$ migrate-store ` (other lines, and other blocks, are not run).
# - Where: every command runs with bash, in order of appearance, in one scratch folder made for
#   this run, where `store` is a copy of Samples/v1-store and `v3-store` a copy of
#   Samples/v3-store. Anything else a command names (`store.bak`, `backup`, `restored`, ...) is
#   made by an earlier command of the README. So `migrate store` then `verify store` works, and
#   the README's examples must use these names. `migrate-store` is the debug build of this
#   checkout (built here with `swift build --product migrate-store`), first on the PATH.
# - Exit status: 0, unless the line ends with a comment `# exits N`, which is then required.
# - Output: in a ```console block, the lines after a `$ migrate-store` line, up to the next line
#   that starts with `$ ` or the end of the block, are that command's output (standard output and
#   standard error together), and are compared with what it prints, after three normalisations:
#   times (`2026-11-28T06:45:05.828Z`, and `20261128T064506Z` in folder names) read `<time>` on
#   both sides, trailing blanks are ignored, and in the README a line that is just `…` stands for
#   any number of lines (none included), and a line that ends with `…` for any line that starts
#   with the text before it. A command with no output lines shown gets its exit status checked only.
#
# Exit 0 when every command passes; 1 otherwise, each failure naming the README line, with the
# command's output or a diff.
#
#     Scripts/check-readme-commands.sh [README.md]
set -euo pipefail
cd "$(dirname "$0")/.."
readme=${1:-README.md}
root=$PWD

swift build --product migrate-store >/dev/null
bin="$(swift build --show-bin-path)"
[[ -x $bin/migrate-store ]] || { echo "check-readme-commands: no $bin/migrate-store" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/readme-commands.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp -R Samples/v1-store "$scratch/store"
cp -R Samples/v3-store "$scratch/v3-store"

normalise() {
  sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/<time>/g' \
    -e 's/[0-9]{8}T[0-9]{6}Z/<time>/g' -e 's/[[:space:]]+$//'
}

# matches I J: do expected[I...] match actual[J...]?
matches() {
  local i=$1 j=$2
  while ((i < ${#expected[@]})); do
    local e=${expected[i]}
    if [[ $e == '…' ]]; then
      local k
      for ((k = j; k <= ${#actual[@]}; k++)); do
        matches $((i + 1)) "$k" && return 0
      done
      return 1
    fi
    ((j < ${#actual[@]})) || return 1
    local a=${actual[j]}
    if [[ $e == *'…' ]]; then
      [[ $a == "${e%…}"* ]] || return 1
    else
      [[ $a == "$e" ]] || return 1
    fi
    i=$((i + 1))
    j=$((j + 1))
  done
  ((j == ${#actual[@]}))
}

mapfile -t lines < "$readme"
failures=0
ran=0
fence=''
check() { # check LINE-NUMBER COMMAND EXPECTED-EXIT WANT-OUTPUT (expected output in `expected`)
  local number=$1 command=$2 want=$3 compare=$4 out status
  ran=$((ran + 1))
  set +e
  out=$(cd "$scratch" && PATH="$bin:$PATH" bash -o pipefail -c "$command" 2>&1)
  status=$?
  set -e
  if ((status != want)); then
    echo "$readme:$number: \`$command\` exited $status, the README says $want. Its output:" >&2
    printf '%s\n' "$out" | sed 's/^/    /' >&2
    failures=$((failures + 1))
    return
  fi
  ((compare)) || return 0
  mapfile -t actual < <(printf '%s\n' "$out" | normalise)
  local shown=("${expected[@]}")
  mapfile -t expected < <(printf '%s\n' "${shown[@]}" | normalise)
  if ! matches 0 0; then
    echo "$readme:$number: \`$command\` printed something else than the README shows (README - , actual +; times read <time>, a line '…' stands for any lines):" >&2
    diff -u --label "$readme, after line $number" --label "actual output" \
      <(printf '%s\n' "${expected[@]}") <(printf '%s\n' "${actual[@]}") | tail -n +3 | sed 's/^/    /' >&2 || true
    failures=$((failures + 1))
  fi
}

n=${#lines[@]}
for ((i = 0; i < n; i++)); do
  line=${lines[i]}
  if [[ -z $fence ]]; then
    case $line in
      '```sh' | '```console') fence=${line#\`\`\`} ;;
      '```'*) fence=other ;;
    esac
    continue
  fi
  if [[ $line == '```' ]]; then
    fence=''
    continue
  fi
  [[ $fence == other ]] && continue
  command=${line#\$ }
  [[ $command == migrate-store\ * ]] || continue
  want=0
  if [[ $command =~ \#[[:space:]]*exits[[:space:]]+([0-9]+)[[:space:]]*$ ]]; then
    want=${BASH_REMATCH[1]}
  fi
  expected=()
  compare=0
  if [[ $fence == console ]]; then
    for ((j = i + 1; j < n; j++)); do
      [[ ${lines[j]} == '```' || ${lines[j]} == '$ '* ]] && break
      expected+=("${lines[j]}")
    done
    ((${#expected[@]} > 0)) && compare=1
  fi
  check $((i + 1)) "$command" "$want" "$compare"
done

if ((ran == 0)); then
  echo "$readme: no migrate-store command found in a sh or console block" >&2
  exit 1
fi
if ((failures > 0)); then
  echo "$readme: $failures of $ran migrate-store command(s) did not end as shown" >&2
  exit 1
fi
echo "$readme: $ran migrate-store command(s) ran on copies of the samples and ended as shown"
