#!/usr/bin/env bash
# The GitHub Action's step (action.yml): turns the action's inputs (INPUT_* variables) into one
# `protocompat check --format github`, whose annotations GitHub puts on the pull request.
#
# An input's value is never read as an option, whatever it starts with: each goes attached to
# its option (--root=VALUE), and the schema after `--`.
set -euo pipefail

# shellcheck source=ci/find-protocompat.sh
source "$(dirname "${BASH_SOURCE[0]}")/find-protocompat.sh"

schema="${INPUT_SCHEMA:?the action needs its schema input}"
# action.yml always sets the variable; an empty one means no token.
[ -n "${PULSAR_AUTH_TOKEN:-}" ] || unset PULSAR_AUTH_TOKEN
include="${INPUT_INCLUDE:-.}"
include="${include%/}"
args=(check --format=github --profile="${INPUT_PROFILE:-pip246}" --include="$include")
[ -z "${INPUT_ROOT:-}" ] || args+=(--root="$INPUT_ROOT")
[ -z "${INPUT_STRATEGY:-}" ] || args+=(--strategy="$INPUT_STRATEGY")
[ "${INPUT_FAIL_ON_WARNING:-false}" != true ] || args+=(--fail-on-warning)
if [ -n "${INPUT_ADMIN_URL:-}" ]; then
  args+=(--admin-url="$INPUT_ADMIN_URL" --topic="${INPUT_TOPIC:?admin-url needs the topic input}")
  [ -z "${INPUT_TIMEOUT:-}" ] || args+=(--timeout="$INPUT_TIMEOUT")
  read -r -a hosts <<<"${INPUT_ALLOW_REDIRECT_HOST:-}"
  for host in ${hosts[@]+"${hosts[@]}"}; do args+=(--allow-redirect-host="$host"); done
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
