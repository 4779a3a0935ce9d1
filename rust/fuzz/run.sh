#!/usr/bin/env bash
# Runs one fuzz target for a number of seconds: rust/fuzz/run.sh <schema_json|descriptor_set|can_read|one_pass|full_both_ways|evolve> <seconds>
# Needs cargo-fuzz (cargo install cargo-fuzz); on a stable toolchain RUSTC_BOOTSTRAP=1 stands in
# for nightly. Crashes land in rust/fuzz/artifacts/<target>/; turn each into a regression test.
set -euo pipefail
target=${1:?target: schema_json, descriptor_set, can_read, one_pass, full_both_ways or evolve}
seconds=${2:-600}
cd "$(dirname "$0")"
if [ ! -d "corpus/$target" ]; then
  # evolve's seeds need no CLI build.
  if [ "$target" = evolve ]; then ./seed.sh evolve; else ./seed.sh; fi
fi
RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir . "$target" "corpus/$target" -- \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
