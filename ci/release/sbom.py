#!/usr/bin/env python3
"""CycloneDX SBOMs of the release bundle (ci/release.sh), and their check (ci/release-check.sh).

    sbom.py jar --jar JAR --crates BOM.json... --version V --out OUT
    sbom.py cli --crates BOM.json... --version V --out OUT EXECUTABLE...
    sbom.py verify-jar --jar JAR --sbom SBOM --crates-expected FILE
    sbom.py verify-cli --sbom SBOM EXECUTABLE...

cargo-cyclonedx knows the Rust crates but not what the jar carries, so the jar's SBOM is made
here: every file the jar holds, with its SHA-256 (the native libraries, our classes, Maven's
metadata), and the crates that cargo-cyclonedx lists for the libraries' targets, each library
depending on the JNI crate. The CLI's SBOM lists the executables with their SHA-256 and the
CLI's crates. `verify-jar` holds an SBOM against a jar: the same files with the same hashes,
no more, no fewer, and exactly the crates Cargo resolves for the library (`cargo tree`).
"""
import argparse
import hashlib
import json
import os
import pathlib
import sys
import uuid
import zipfile
from datetime import datetime, timezone

SPEC = "1.5"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def timestamp():
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or None
    moment = datetime.fromtimestamp(epoch, timezone.utc) if epoch else datetime.now(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def crates_of(boms):
    """The crates of one or more cargo-cyclonedx BOMs (one per target), merged by bom-ref, and
    the dependency edges between them. The BOM's own crate (metadata.component) is a component
    here, since the jar or the executable carries it."""
    components, edges = {}, {}
    for path in boms:
        bom = json.loads(pathlib.Path(path).read_text())
        top = bom["metadata"]["component"]
        refs = {}
        for c in [top, *bom.get("components", [])]:
            c = {k: v for k, v in c.items() if k != "components"}
            refs[c["bom-ref"]] = c["bom-ref"] = portable_ref(c)
            components.setdefault(c["bom-ref"], c)
        for d in bom.get("dependencies", []):
            edges.setdefault(refs.get(d["ref"], d["ref"]), set()).update(
                refs.get(r, r) for r in d.get("dependsOn", [])
            )
    return components, edges, portable_ref(top)


def portable_ref(component):
    """cargo-cyclonedx names the workspace's own crates by their path on the building machine
    (path+file:///home/...); the bundle names them by package URL, the same on every machine."""
    ref = component["bom-ref"]
    if ref.startswith("path+file:"):
        return f"pkg:cargo/{component['name']}@{component['version']}"
    return ref


def document(name, version, purl, kind, hashes, components, dependencies, tools):
    serial = uuid.uuid5(uuid.NAMESPACE_URL, f"{purl}#{hashes[0]['content'] if hashes else ''}")
    return {
        "bomFormat": "CycloneDX",
        "specVersion": SPEC,
        "serialNumber": f"urn:uuid:{serial}",
        "version": 1,
        "metadata": {
            "timestamp": timestamp(),
            "tools": {"components": tools},
            "component": {
                "type": kind,
                "bom-ref": purl,
                "name": name,
                "version": version,
                "purl": purl,
                **({"hashes": hashes} if hashes else {}),
            },
        },
        "components": components,
        "dependencies": dependencies,
    }


def tools_of(boms):
    tools = [{"type": "application", "name": "ci/release/sbom.py", "group": "protocompat"}]
    for path in boms:
        meta = json.loads(pathlib.Path(path).read_text())["metadata"].get("tools", [])
        for t in meta if isinstance(meta, list) else meta.get("components", []):
            entry = {k: t[k] for k in ("type", "name", "version") if k in t}
            entry.setdefault("type", "application")
            if entry not in tools:
                tools.append(entry)
    return tools


def file_component(name, data, ref):
    return {
        "type": "file",
        "bom-ref": ref,
        "name": name,
        "hashes": [{"alg": "SHA-256", "content": sha256(data)}],
    }


def crate_dependencies(edges, crates):
    return [
        {"ref": ref, "dependsOn": sorted(d for d in edges.get(ref, ()) if d in crates)}
        for ref in sorted(crates)
    ]


def jar_sbom(args):
    jar = pathlib.Path(args.jar)
    crates, edges, top = crates_of(args.crates)
    purl = f"pkg:maven/dev.protocompat/protocompat-pulsar@{args.version}?type=jar"
    files, libraries = [], []
    with zipfile.ZipFile(jar) as z:
        for info in sorted(z.infolist(), key=lambda i: i.filename):
            if info.is_dir():
                continue
            ref = f"{purl}#{info.filename}"
            files.append(file_component(info.filename, z.read(info), ref))
            if info.filename.startswith("native/"):
                libraries.append(ref)
    deps = [{"ref": purl, "dependsOn": [f["bom-ref"] for f in files]}]
    deps += [{"ref": lib, "dependsOn": [top]} for lib in libraries]
    deps += crate_dependencies(edges, crates)
    bom = document(
        "protocompat-pulsar",
        args.version,
        purl,
        "library",
        [{"alg": "SHA-256", "content": sha256(jar.read_bytes())}],
        files + sorted(crates.values(), key=lambda c: c["bom-ref"]),
        deps,
        tools_of(args.crates),
    )
    pathlib.Path(args.out).write_text(json.dumps(bom, indent=2) + "\n")


def cli_sbom(args):
    crates, edges, top = crates_of(args.crates)
    purl = f"pkg:generic/protocompat@{args.version}"
    files = []
    for path in map(pathlib.Path, args.executables):
        files.append(file_component(path.name, path.read_bytes(), f"{purl}#{path.name}"))
    deps = [{"ref": purl, "dependsOn": [f["bom-ref"] for f in files]}]
    deps += [{"ref": f["bom-ref"], "dependsOn": [top]} for f in files]
    deps += crate_dependencies(edges, crates)
    bom = document(
        "protocompat",
        args.version,
        purl,
        "application",
        [],
        files + sorted(crates.values(), key=lambda c: c["bom-ref"]),
        deps,
        tools_of(args.crates),
    )
    pathlib.Path(args.out).write_text(json.dumps(bom, indent=2) + "\n")


def verify_jar(args):
    """Fails, naming each difference, unless the SBOM lists exactly the jar's files with their
    hashes and exactly the crates in --crates-expected ("name version" lines, as
    `cargo tree --prefix none --format '{p}'` prints them, deduplicated)."""
    bom = json.loads(pathlib.Path(args.sbom).read_text())
    listed = listed_files(bom)
    with zipfile.ZipFile(args.jar) as z:
        carried = {i.filename: sha256(z.read(i)) for i in z.infolist() if not i.is_dir()}
    problems = []
    for name in sorted(carried.keys() - listed.keys()):
        problems.append(f"the jar carries {name}, the SBOM does not list it")
    for name in sorted(listed.keys() - carried.keys()):
        problems.append(f"the SBOM lists {name}, the jar does not carry it")
    for name in sorted(carried.keys() & listed.keys()):
        if carried[name] != listed[name]:
            problems.append(f"{name}: SHA-256 {carried[name]} in the jar, {listed[name]} in the SBOM")
    jar_hash = sha256(pathlib.Path(args.jar).read_bytes())
    if bom["metadata"]["component"]["hashes"][0]["content"] != jar_hash:
        problems.append("the SBOM's hash of the jar is not the jar's")
    crates = {
        f"{c['name']} v{c['version']}" for c in bom["components"] if c["type"] == "library"
    }
    expected = {
        line.split(" (")[0].strip()
        for line in pathlib.Path(args.crates_expected).read_text().splitlines()
        if line.strip()
    }
    for crate in sorted(expected - crates):
        problems.append(f"the library is built from {crate}, the SBOM does not list it")
    for crate in sorted(crates - expected):
        problems.append(f"the SBOM lists {crate}, which the library is not built from")
    if problems:
        sys.exit("sbom: " + args.sbom + " does not describe " + args.jar + ":\n  " + "\n  ".join(problems))
    natives = sorted(n for n in carried if n.startswith("native/"))
    print(
        f"sbom: {pathlib.Path(args.sbom).name} lists the {len(carried)} files the jar carries "
        f"({', '.join(natives)} with their SHA-256) and the {len(crates)} crates its libraries "
        f"are built from"
    )


def listed_files(bom):
    """The SBOM's file components: name -> SHA-256."""
    return {c["name"]: c["hashes"][0]["content"] for c in bom["components"] if c["type"] == "file"}


def verify_cli(args):
    """Fails unless the CLI's SBOM lists each executable with its SHA-256, and the engine crate."""
    bom = json.loads(pathlib.Path(args.sbom).read_text())
    listed = listed_files(bom)
    problems = []
    for path in map(pathlib.Path, args.executables):
        if listed.get(path.name) != sha256(path.read_bytes()):
            problems.append(f"it does not list {path.name} with its SHA-256")
    crates = [c for c in bom["components"] if c["type"] == "library"]
    if not any(c["name"] == "protocompat" for c in crates):
        problems.append("it does not list the engine crate")
    if problems:
        sys.exit("sbom: " + args.sbom + ":\n  " + "\n  ".join(problems))
    print(
        f"sbom: {pathlib.Path(args.sbom).name} lists the {len(args.executables)} executables with "
        f"their SHA-256 and {len(crates)} crates"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    jar = sub.add_parser("jar")
    jar.add_argument("--jar", required=True)
    jar.add_argument("--crates", required=True, nargs="+")
    jar.add_argument("--version", required=True)
    jar.add_argument("--out", required=True)
    cli = sub.add_parser("cli")
    cli.add_argument("--crates", required=True, nargs="+")
    cli.add_argument("--version", required=True)
    cli.add_argument("--out", required=True)
    cli.add_argument("executables", nargs="+")
    verify = sub.add_parser("verify-jar")
    verify.add_argument("--jar", required=True)
    verify.add_argument("--sbom", required=True)
    verify.add_argument("--crates-expected", required=True)
    verify_c = sub.add_parser("verify-cli")
    verify_c.add_argument("--sbom", required=True)
    verify_c.add_argument("executables", nargs="+")
    args = parser.parse_args()
    commands = {"jar": jar_sbom, "cli": cli_sbom, "verify-jar": verify_jar, "verify-cli": verify_cli}
    commands[args.command](args)


if __name__ == "__main__":
    main()
