#!/usr/bin/env bash
# Explores with one fuzz target for a number of seconds:
#   rust/fuzz/run.sh <schema_json|descriptor_set|can_read|one_pass|full_both_ways|evolve|cost> <seconds>
# Needs cargo-fuzz (cargo install cargo-fuzz); on a stable toolchain RUSTC_BOOTSTRAP=1 stands in
# for nightly. New inputs go to the working corpus rust/fuzz/corpus/<target> (not committed);
# the committed one CI replays, rust/fuzz/ci-corpus/<target>, is read too, never written.
# Crashes, timeouts and inputs over the RSS limit land in rust/fuzz/artifacts/<target>/; turn
# each into a regression test, and keep the input (RELIABILITY.md, "Fuzzing").
#
# `cost` is built without a sanitizer and without tracing comparisons (as CI builds it): it
# measures CPU per work unit, which AddressSanitizer and the comparison hooks would multiply
# several times over. Its -timeout is 60 s: an input checks up to four times, each at most
# the work budget (3 s of CPU in a broker, up to four times that in this build).
set -euo pipefail
target=${1:?target: schema_json, descriptor_set, can_read, one_pass, full_both_ways, evolve or cost}
seconds=${2:-600}
cd "$(dirname "$0")"
if [ ! -d "corpus/$target" ]; then
  # evolve's and cost's seeds need no CLI build.
  case "$target" in
    evolve | cost) ./seed.sh "$target" ;;
    *) ./seed.sh ;;
  esac
fi
dirs=("corpus/$target")
if [ -d "ci-corpus/$target" ]; then dirs+=("ci-corpus/$target"); fi
build=()
timeout=10
if [ "$target" = cost ]; then
  build=(-s none --no-trace-compares --target-dir target/no-sanitizer)
  timeout=60
fi
RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir . "${build[@]}" "$target" "${dirs[@]}" -- \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="$timeout" -print_final_stats=1
