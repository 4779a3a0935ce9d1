#!/usr/bin/env python3
"""One version for every artifact: prints the Cargo workspace's version after checking that the
root pom (the broker jar), maven-plugin/pom.xml (the Maven plugin) and CHANGELOG.md agree with it.
The wheel takes its version from Cargo (rust/cli/pyproject.toml: dynamic), and so does
`protocompat --version`; the jar's Implementation-Version, which `protocompat_info` reports, is
the root pom's.

    ci/release/versions.py          (from the repository's root)
"""
import pathlib
import re
import sys
import tomllib
import xml.etree.ElementTree as ET

POM = "{http://maven.apache.org/POM/4.0.0}"


def pom_version(path):
    root = ET.parse(path).getroot()
    version = root.find(f"{POM}version")
    if version is None:
        sys.exit(f"versions: {path} declares no <version> of its own")
    return version.text.strip()


def main():
    repo = pathlib.Path(".")
    cargo = tomllib.loads((repo / "Cargo.toml").read_text())
    version = cargo["workspace"]["package"]["version"]
    found = {
        "Cargo.toml [workspace.package]": version,
        "pom.xml (protocompat-pulsar)": pom_version(repo / "pom.xml"),
        "maven-plugin/pom.xml (protocompat-maven-plugin)": pom_version(
            repo / "maven-plugin" / "pom.xml"
        ),
    }
    wrong = {where: v for where, v in found.items() if v != version}
    if wrong:
        lines = "\n".join(f"  {where}: {v}" for where, v in found.items())
        sys.exit(f"versions: the artifacts disagree; give them one version:\n{lines}")
    changelog = (repo / "CHANGELOG.md").read_text()
    if not re.search(rf"^## \[{re.escape(version)}\]", changelog, re.MULTILINE):
        sys.exit(f"versions: CHANGELOG.md has no '## [{version}]' section for this version")
    print(version)


if __name__ == "__main__":
    main()
