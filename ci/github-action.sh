#!/usr/bin/env bash
# The GitHub Action's step (action.yml): turns the action's inputs (INPUT_* variables) into one
# `protocompat check --format github`, whose annotations GitHub puts on the pull request.
#
# Without a schema input, every topic of the project file (protocompat.yaml) is checked.
#
# An input's value is never read as an option, whatever it starts with: each goes attached to
# its option (--root=VALUE), and the schema after `--`.
set -euo pipefail

# shellcheck source=ci/find-protocompat.sh
source "$(dirname "${BASH_SOURCE[0]}")/find-protocompat.sh"

schema="${INPUT_SCHEMA:-}"
# action.yml always sets the variable; an empty one means no token.
[ -n "${PULSAR_AUTH_TOKEN:-}" ] || unset PULSAR_AUTH_TOKEN
args=(check --format=github)
[ -z "${INPUT_PROFILE:-}" ] || args+=(--profile="$INPUT_PROFILE")
[ -z "${INPUT_STRATEGY:-}" ] || args+=(--strategy="$INPUT_STRATEGY")
[ "${INPUT_FAIL_ON_WARNING:-false}" != true ] || args+=(--fail-on-warning)
broker() {
  args+=(--admin-url="$INPUT_ADMIN_URL")
  [ -z "${INPUT_TIMEOUT:-}" ] || args+=(--timeout="$INPUT_TIMEOUT")
  read -r -a hosts <<<"${INPUT_ALLOW_REDIRECT_HOST:-}"
  for host in ${hosts[@]+"${hosts[@]}"}; do args+=(--allow-redirect-host="$host"); done
}

if [ -z "$schema" ]; then
  # Every topic of the project file, each against the file's baseline (a git ref there is read
  # as origin/REF in a pull request's clone), unless an input names another.
  project="${INPUT_PROJECT:-protocompat.yaml}"
  [ -n "${INPUT_PROJECT:-}" ] || [ -e "$project" ] ||
    { echo "protocompat: the action needs its schema input, or a protocompat.yaml at the repository's root (or its project input)" >&2; exit 2; }
  args+=(--project="$project")
  [ -z "${INPUT_ROOT:-}${INPUT_TOPIC:-}" ] ||
    { echo "protocompat: root and topic name one schema: give them with schema, or list topics in the project file" >&2; exit 2; }
  if [ -n "${INPUT_ADMIN_URL:-}" ]; then
    broker
  elif [ -n "${INPUT_AGAINST:-}" ]; then
    args+=(--against="$INPUT_AGAINST")
  fi
  exec "$protocompat_bin" "${args[@]}"
fi

[ -z "${INPUT_PROJECT:-}" ] ||
  { echo "protocompat: give schema or project, not both" >&2; exit 2; }
include="${INPUT_INCLUDE:-.}"
include="${include%/}"
args+=(--include="$include")
[ -z "${INPUT_ROOT:-}" ] || args+=(--root="$INPUT_ROOT")
if [ -n "${INPUT_ADMIN_URL:-}" ]; then
  broker
  args+=(--topic="${INPUT_TOPIC:?admin-url needs the topic input}")
else
  against="${INPUT_AGAINST:-}"
  if [ -z "$against" ]; then
    # A pull request's base branch (checked out with fetch-depth: 0), else the commit before.
    base="${GITHUB_BASE_REF:+origin/$GITHUB_BASE_REF}"
    against=".#ref=${base:-HEAD~1}"
    [ "$include" = . ] || against="$against,subdir=$include"
  fi
  args+=(--against="$against")
fi
exec "$protocompat_bin" "${args[@]}" -- "$schema"
