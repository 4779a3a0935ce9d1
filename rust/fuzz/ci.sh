#!/usr/bin/env bash
# CI's fuzzing, deterministic: the same commit always runs the same inputs, so a run goes red
# on what the commit changed, never on a new random find. For each target CI runs, `evolve`
# and `cost`, libFuzzer replays (-runs=0: it mutates nothing and writes nothing)
#   - every input of the target's committed corpus, rust/fuzz/ci-corpus/<target>, once;
#   - then a fixed number of inputs derived from that corpus with a fixed seed (derive.py:
#     libFuzzer's own -seed/-runs would not repeat itself, RELIABILITY.md "Fuzzing"), once.
# Fails on a crash: `evolve` on an engine that passes a direction under `conservative` in
# which protobuf-java misreads a value, a misread that `pip246` neither fails nor warns
# about, or an example that contradicts the schemas (fuzz_targets/evolve/main.rs); `cost` on a
# check that panics, needs a backstop under the work budget, or takes more CPU per work unit
# than its bound (fuzz_targets/cost/main.rs); either on an input over its -timeout or over
# -rss_limit_mb. The input lands in rust/fuzz/artifacts/<target>/. Then `fix_property` runs
# `protocompat check --fix` over the evolve corpus's evolutions (see the end).
#
# Installs cargo-fuzz if it is missing. Both targets are built as run.sh builds `cost`:
# without a sanitizer and without tracing comparisons, one build for both.
set -euo pipefail
cd "$(dirname "$0")"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
seed=27
derived=$(mktemp -d)
trap 'rm -rf "$derived"' EXIT
build=(--fuzz-dir . -s none --no-trace-compares --target-dir target/no-sanitizer)
for target in evolve cost; do
  RUSTC_BOOTSTRAP=1 cargo fuzz build "${build[@]}" "$target"
done

# replay TARGET DERIVED TIMEOUT
replay() {
  local target=$1 count=$2 timeout=$3
  python3 derive.py "ci-corpus/$target" "$derived/$target" "$count" "$seed"
  echo "ci.sh: $target: $(ls "ci-corpus/$target" | wc -l) committed inputs, $count derived with seed $seed"
  local started=$SECONDS
  RUSTC_BOOTSTRAP=1 cargo fuzz run "${build[@]}" "$target" "ci-corpus/$target" "$derived/$target" -- \
    -runs=0 -seed="$seed" -rss_limit_mb=2048 -timeout="$timeout" -print_final_stats=1
  echo "ci.sh: $target: passed in $((SECONDS - started)) s"
}
replay evolve 20000 10
replay cost 60 60

# --fix over the evolve corpus's evolutions (fuzz_targets/fix_property.rs): after it, each
# incompatible evolution passes or keeps only findings whose fix is advice. It runs the
# protocompat command itself, as users do.
(cd ../.. && cargo build --quiet --release --locked -p protocompat-cli)
cargo build --quiet --release --locked --bin fix_property
started=$SECONDS
target/release/fix_property ../../target/release/protocompat ci-corpus/evolve
echo "ci.sh: fix_property: passed in $((SECONDS - started)) s"
