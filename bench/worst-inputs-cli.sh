#!/usr/bin/env bash
# The worst inputs (rust/engine/examples/worst_inputs.rs) checked by the protocompat CLI, as a
# team runs it in CI: each shape's new schema against its history (FULL against one version,
# FULL_TRANSITIVE against more), with examples (the default) and without. Prints the CPU time
# (user + system, the least of three runs: the first also faults its pages in) and the peak
# resident memory of each; asserts nothing.
#
#   cargo run --release -p protocompat --example worst_inputs write DIR
#   cargo build --release -p protocompat-cli
#   bench/worst-inputs-cli.sh DIR [PROFILE]
set -euo pipefail
dir=${1:?usage: bench/worst-inputs-cli.sh DIR [PROFILE]}
profile=${2:-pip246}
cli=${PROTOCOMPAT:-$(dirname "$0")/../target/release/protocompat}
[ -x "$cli" ] || { echo "build the CLI first: cargo build --release -p protocompat-cli" >&2; exit 2; }
times=$(mktemp)
trap 'rm -f "$times"' EXIT
echo "protocompat check, profile $profile: CPU (user + system) and peak RSS per run"
echo "| Shape | Existing | CPU, examples | Peak RSS | CPU, --no-examples | Peak RSS | Exit |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for shape in "$dir"/*/; do
  name=$(basename "$shape")
  existing=$(find "$shape" -name 'existing-*.json' | wc -l)
  strategy=FULL
  [ "$existing" -gt 1 ] && strategy=FULL_TRANSITIVE
  row="| $name | $existing"
  for examples in "" --no-examples; do
    least=""
    for _ in 1 2 3; do
      set +e
      /usr/bin/time -o "$times" -f '%U %S %M' "$cli" check --profile "$profile" --strategy "$strategy" \
        ${examples:+"$examples"} --against "$shape/history.json" -- "$shape/new.json" >/dev/null 2>&1
      code=$?
      set -e
      read -r user system rss < <(tail -n 1 "$times")
      cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
      if [ -z "$least" ] || awk -v a="$cpu" -v b="$least" 'BEGIN { exit !(a < b) }'; then
        least=$cpu
      fi
    done
    row="$row | $least s | $((rss / 1024)) MB"
  done
  echo "$row | $code |"
done
