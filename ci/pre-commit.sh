#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml): each .proto file pre-commit passes is checked
# against its own version at a git ref (HEAD by default), with the broker's rules.
#
# Options are protocompat check's, written as --name=value, plus:
#   --ref=REF        the version to compare with (default HEAD: what the commit changes)
#   --include=DIR    the import root of the files, in the work tree and at REF (default .)
# A file that is new at REF has nothing to be compatible with and passes.
#
# pre-commit runs `entry ARGS... FILES...` and writes no `--` between them, and the file names
# are the repository's, which whoever writes the repository chooses: a file at
# `--protoc=./evil.proto` must never become an option. So an argument is an option only if it
# starts with `-`, comes before the first file, and names no path that exists; any other
# argument starting with `-` is refused, and with it the whole run, never guessed at. A file
# whose path starts with `-` cannot be checked by the hook (rename it).
set -euo pipefail

# shellcheck source=ci/find-protocompat.sh
source "$(dirname "${BASH_SOURCE[0]}")/find-protocompat.sh"

refuse() {
  # The argument may be any bytes a file name can hold: shown quoted, one line.
  printf 'protocompat: %q: %s\n' "$1" "$2" >&2
  exit 2
}

ref=HEAD
include=.
options=()
files=()
for arg in "$@"; do
  if [[ "$arg" != -* ]]; then
    files+=("$arg")
  elif [ "${#files[@]}" -gt 0 ]; then
    refuse "$arg" "an option after the first file: write the hook's args as --name=value (pre-commit puts them before the files), and rename any file whose path starts with '-'"
  elif [ -e "$arg" ] || [ -L "$arg" ]; then
    refuse "$arg" "both an option and a path in this repository; the hook will not guess which (rename the file, or the option's value)"
  else
    case "$arg" in
      --ref=*) ref="${arg#--ref=}" ;;
      --include=*) include="${arg#--include=}" ;;
      *) options+=("$arg") ;;
    esac
  fi
done
include="${include%/}"
[[ "$ref" != -* && -n "$ref" ]] || refuse "--ref=$ref" "the ref must be a git revision, which does not start with '-'"

status=0
for file in ${files[@]+"${files[@]}"}; do
  [[ "$file" == *.proto ]] || continue
  if [ "$include" != . ] && [[ "$file" != "$include"/* ]]; then
    echo "protocompat: $(printf %q "$file") is not under --include=$include" >&2
    status=2
    continue
  fi
  if [[ "$file" == *'#'* ]]; then
    # protocompat reads `PATH#ref=...` as a git tree, not as this file.
    echo "protocompat: $(printf %q "$file"): a path with '#' cannot be checked (protocompat reads '#' as the start of an input's options)" >&2
    status=2
    continue
  fi
  if ! git cat-file -e "$ref:$file" 2>/dev/null; then
    echo "protocompat: $(printf %q "$file") is new at $ref: nothing to compare"
    continue
  fi
  subdir=""
  [ "$include" = . ] || subdir=",subdir=$include"
  set +e
  "$protocompat_bin" check ${options[@]+"${options[@]}"} --against=".#ref=$ref$subdir" --include="$include" -- "$file"
  code=$?
  set -e
  if [ "$code" -gt "$status" ]; then status=$code; fi
done
exit "$status"
