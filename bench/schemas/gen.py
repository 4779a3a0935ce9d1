#!/usr/bin/env python3
"""Writes the benchmark schemas small.proto, medium.proto and large.proto (deterministic).

Every message is reachable from `bench.Root`, the root message. Benchmarks make version i of a
history by replacing the line `// VERSION_OPTION` with `option java_outer_classname = "RootV<i>";`:
versions of one size differ in their bytes, are the same size, and every pair of them is
compatible for every checker compared (field additions or removals are not: Apicurio refuses a
removal without `reserved`).
Run it from this folder; the output is committed so benchmarks need no Python.
"""
import random

SCALARS = ["int32", "int64", "uint32", "uint64", "sint64", "fixed32", "double", "float", "bool", "string", "bytes"]


def schema(messages, seed):
    rng = random.Random(seed)
    out = ['syntax = "proto3";', "package bench;", "// VERSION_OPTION", ""]
    out.append("enum Status { STATUS_UNSPECIFIED = 0; ACTIVE = 1; SUSPENDED = 2; CLOSED = 3; }")
    out.append("")
    names = [f"M{i}" for i in range(messages - 1)]
    root_children = names[: min(8, len(names))]
    out.append("message Root {")
    out.append("  int64 id = 1;")
    for n, child in enumerate(root_children):
        out.append(f"  {child} part{n} = {n + 2};")
    out.append("}")
    out.append("")
    for i, name in enumerate(names):
        # Each message refers to up to two later ones, so everything hangs off Root.
        children = [c for c in (2 * i + 8, 2 * i + 9) if c < len(names)]
        fields = []
        number = 1
        for _ in range(rng.randint(4, 9)):
            kind = rng.random()
            if kind < 0.6:
                fields.append(f"{rng.choice(SCALARS)} f{number} = {number};")
            elif kind < 0.75:
                fields.append(f"repeated {rng.choice(['int32', 'int64', 'string', 'double'])} f{number} = {number};")
            elif kind < 0.85:
                fields.append(f"Status f{number} = {number};")
            else:
                fields.append(f"map<string, {rng.choice(['int64', 'string'])}> f{number} = {number};")
            number += 1
        for child in children:
            fields.append(f"{'repeated ' if rng.random() < 0.5 else ''}{names[child]} f{number} = {number};")
            number += 1
        out.append(f"message {name} {{")
        for f in fields:
            out.append(f"  {f}")
        if i % 5 == 0:
            out.append(f"  message Detail {{ string note = 1; int64 at = 2; repeated int32 marks = 3; }}")
            out.append(f"  Detail detail = {number};")
        out.append("}")
        out.append("")
    return "\n".join(out)


for name, count in (("small", 5), ("medium", 36), ("large", 220)):
    with open(f"{name}.proto", "w") as f:
        f.write(schema(count, seed=count))
