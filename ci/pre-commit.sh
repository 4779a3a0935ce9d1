#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml): each .proto file pre-commit passes is checked
# against its own version at a git ref (HEAD by default), with the broker's rules.
#
# Options are protocompat check's, written as --name=value (pre-commit puts the file names
# after them), plus:
#   --ref=REF        the version to compare with (default HEAD: what the commit changes)
#   --include=DIR    the import root of the files, in the work tree and at REF (default .)
# A file that is new at REF has nothing to be compatible with and passes.
set -euo pipefail

# shellcheck source=ci/find-protocompat.sh
source "$(dirname "${BASH_SOURCE[0]}")/find-protocompat.sh"

ref=HEAD
include=.
options=()
files=()
for arg in "$@"; do
  case "$arg" in
    --ref=*) ref="${arg#--ref=}" ;;
    --include=*) include="${arg#--include=}" ;;
    -*) options+=("$arg") ;;
    *) files+=("$arg") ;;
  esac
done
include="${include%/}"

status=0
for file in "${files[@]}"; do
  [[ "$file" == *.proto ]] || continue
  if [ "$include" != . ] && [[ "$file" != "$include"/* ]]; then
    echo "protocompat: $file is not under --include=$include" >&2
    status=2
    continue
  fi
  if ! git cat-file -e "$ref:$file" 2>/dev/null; then
    echo "protocompat: $file is new at $ref: nothing to compare"
    continue
  fi
  subdir=""
  [ "$include" = . ] || subdir=",subdir=$include"
  set +e
  "$protocompat_bin" check "${options[@]}" --against ".#ref=$ref$subdir" -I "$include" "$file"
  code=$?
  set -e
  if [ "$code" -gt "$status" ]; then status=$code; fi
done
exit "$status"
