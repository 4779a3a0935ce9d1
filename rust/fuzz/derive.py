#!/usr/bin/env python3
"""Derives fuzz inputs from a corpus with a fixed seed: CI's further executions (ci.sh).

    derive.py CORPUS OUT COUNT SEED

Writes COUNT inputs to OUT, each a file of CORPUS (in name order; one time in eight fresh
pseudo-random bytes instead) changed by one to eight byte-level mutations of the kinds libFuzzer
makes: a bit flipped, a byte set, bytes inserted, a range erased, copied or spliced in from
another input, a boundary value written. The same corpus and seed always give the same inputs,
whatever ran before: libFuzzer's own `-seed=N -runs=M` cannot promise that here, since which
mutations it keeps depends on coverage, and the engine's hash seeds and CPU clock make coverage
differ from run to run (RELIABILITY.md, "Fuzzing").
"""

import os
import random
import sys

MAX_LEN = 4096


def mutate(rng, data, inputs):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.randrange(7)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and at < len(data):
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1 and at < len(data):
            data[at] = rng.randrange(256)
        elif kind == 2:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif kind == 3 and at < len(data):
            del data[at : at + rng.randint(1, 16)]
        elif kind == 4 and at < len(data):
            piece = data[at : at + rng.randint(1, 32)]
            to = rng.randrange(len(data) + 1)
            data[to:to] = piece
        elif kind == 5 and inputs:
            other = rng.choice(inputs)
            start = rng.randrange(len(other) + 1)
            data[at:at] = other[start : start + rng.randint(1, 64)]
        elif kind == 6 and at < len(data):
            data[at] = rng.choice([0, 1, 0x7F, 0x80, 0xFF])
    return bytes(data[:MAX_LEN])


def main():
    corpus, out, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    inputs = []
    for name in sorted(os.listdir(corpus)):
        with open(os.path.join(corpus, name), "rb") as f:
            inputs.append(f.read())
    os.makedirs(out, exist_ok=True)
    for i in range(count):
        if inputs and rng.randrange(8):
            base = rng.choice(inputs)
        else:
            base = bytes(rng.randrange(256) for _ in range(rng.randint(16, 256)))
        with open(os.path.join(out, f"derived-{i:04d}"), "wb") as f:
            f.write(mutate(rng, base, inputs))


if __name__ == "__main__":
    main()
