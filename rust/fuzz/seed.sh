#!/usr/bin/env bash
# Seeds the working fuzz corpora (rust/fuzz/corpus/<target>, not committed; CI replays the
# committed ones in rust/fuzz/ci-corpus/ instead) from the shared fixtures: the bad-input
# catalogue and every compat and conservative case compiled with the protocompat CLI (can_read
# seeds: FULL under pip246 for compat, under conservative for conservative).
# `seed.sh evolve` and `seed.sh cost` seed one of those two alone, without building the CLI:
# their input is any bytes (the targets build schemas from them), so their seeds are fixed
# pseudo-random inputs: 64 of 64 to 1024 bytes for evolve, 32 of 32 to 256 bytes for cost.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=rust/fuzz/corpus
# seed_random TARGET RNG_SEED COUNT MIN_BYTES MAX_BYTES: COUNT fixed pseudo-random inputs.
seed_random() {
  rm -rf "$corpus/$1" && mkdir -p "$corpus/$1"
  python3 - "$corpus/$1" "$2" "$3" "$4" "$5" <<'PY'
import random, sys
out, seed, count, low, high = sys.argv[1], *map(int, sys.argv[2:])
rng = random.Random(seed)
for i in range(count):
    size = rng.randint(low, high)
    open(f"{out}/seed-{i:02d}", "wb").write(bytes(rng.getrandbits(8) for _ in range(size)))
PY
}
seed_evolve() { seed_random evolve 246 64 64 1024; }
seed_cost() { seed_random cost 27 32 32 256; }
case "${1:-}" in
  evolve | cost)
    "seed_$1"
    echo "seeded: $(ls "$corpus/$1" | wc -l) $1"
    exit 0
    ;;
esac
seed_evolve
seed_cost
cli=target/release/protocompat
[ -x "$cli" ] || cargo build --release --locked -p protocompat-cli
mkdir -p "$corpus/schema_json" "$corpus/descriptor_set" "$corpus/can_read"
cp tests/fixtures/bad/*.schema "$corpus/schema_json/"
for dir in tests/fixtures/compat/*/ tests/fixtures/conservative/*/; do
  folder=$(basename "$(dirname "$dir")")
  case_name=$folder-$(basename "$dir")
  # The first byte of a can_read seed: strategy (code % 10, 5 is FULL), profile (code / 10).
  if [ "$folder" = conservative ]; then first=15; else first=5; fi
  root=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(e["root_message"])' "$dir/expect.json")
  for side in old new; do
    "$cli" schema -I "$dir/$side" --root "$root" "$dir/$side/order.proto" > "$corpus/schema_json/$case_name-$side.json"
    python3 - "$corpus/schema_json/$case_name-$side.json" "$corpus/descriptor_set/$case_name-$side" <<'PY'
import base64, json, sys
data = json.load(open(sys.argv[1]))
open(sys.argv[2], "wb").write(b"\x00" + base64.b64decode(data["fileDescriptorSet"]))
PY
  done
  python3 - "$corpus/descriptor_set/$case_name-old" "$corpus/descriptor_set/$case_name-new" "$corpus/can_read/$case_name" "$first" <<'PY'
import struct, sys
old = open(sys.argv[1], "rb").read()[1:]
new = open(sys.argv[2], "rb").read()[1:]
open(sys.argv[3], "wb").write(bytes([int(sys.argv[4])]) + struct.pack("<H", len(old)) + old + new)
PY
done
# one_pass reads the same input as descriptor_set, full_both_ways the same as can_read.
rm -rf "$corpus/one_pass" && cp -r "$corpus/descriptor_set" "$corpus/one_pass"
rm -rf "$corpus/full_both_ways" && cp -r "$corpus/can_read" "$corpus/full_both_ways"
echo "seeded: $(ls "$corpus/schema_json" | wc -l) schema_json, $(ls "$corpus/descriptor_set" | wc -l) descriptor_set, $(ls "$corpus/can_read" | wc -l) can_read, $(ls "$corpus/one_pass" | wc -l) one_pass, $(ls "$corpus/full_both_ways" | wc -l) full_both_ways, $(ls "$corpus/evolve" | wc -l) evolve, $(ls "$corpus/cost" | wc -l) cost"
