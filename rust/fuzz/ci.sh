#!/usr/bin/env bash
# CI's fuzzing run: the evolve target for a fixed time (default 60 seconds) from its seeds,
# after installing cargo-fuzz if it is missing. Fails on a crash: an engine that passes a
# direction under `conservative` in which protobuf-java misreads a value, a misread that
# `pip246` neither fails nor warns about, or an example that contradicts the schemas (see
# fuzz_targets/evolve.rs; EVOLVE_COUNT=example, say, counts a kind instead of failing).
# The crashing input lands in rust/fuzz/artifacts/evolve/.
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
exec ./run.sh evolve "$seconds"
