#!/usr/bin/env bash
# Builds the release bundle, every install channel of one version, in one command:
#
#   ci/release.sh [--reuse-jar]          (from any directory)
#
# Output, in target/bundle/protocompat-<version>/ (docs/install.md says what each file is for):
#   protocompat-pulsar-<version>.jar                   the broker plugin, x86_64 and aarch64 libraries
#   protocompat-<version>-{x86_64,aarch64}-linux-musl  the CLI, static executables
#   protocompat-<version>-py3-none-*.whl               the CLI as Python wheels (x86_64, aarch64)
#   protocompat-maven-plugin-<version>.{jar,pom}       the Maven plugin
#   protocompat-pulsar-<version>.cdx.json              CycloneDX SBOM of the jar: every file in it,
#                                                      and the Rust crates in its libraries
#   protocompat-<version>.cdx.json                     CycloneDX SBOM of the CLI executables
#   SHA256SUMS                                         of all the above
#
# It needs what the portable build needs (Rust with its x86_64 and aarch64 gnu and musl targets,
# a JDK 17+, Maven, Zig and cargo-zigbuild), plus maturin and cargo-cyclonedx: ci/prerequisites.sh
# checks them all first and names the line that installs each missing one (docs/install.md).
# Every step is incremental, so after `PROTOCOMPAT_PORTABLE=1 mvn verify` most of it is copying.
# ci/release-check.sh then tests the bundle as its users use it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { echo "release: $*"; }
die() { echo "release: error: $*" >&2; exit 1; }
# A quiet Maven run: Maven 3.8's -q still writes colour resets around nothing.
mvnq() { mvn -B -q "$@" 2>&1 | sed 's/\x1b\[0m//g'; return "${PIPESTATUS[0]}"; }

case "${1:-}" in
  "" | --reuse-jar) [ $# -le 1 ] || die "usage: ci/release.sh [--reuse-jar]" ;;
  *) die "usage: ci/release.sh [--reuse-jar]" ;;
esac
# Every tool and Rust target of every step below, before the first compile: a missing one stops
# here in a second with its install line, not minutes into the build.
ci/prerequisites.sh release || die "install what is missing (above), then run ci/release.sh again"

version=$(python3 ci/release/versions.py) || exit 1
out=target/bundle/protocompat-$version
say "protocompat $version into $out"
rm -rf "$out"
mkdir -p "$out"

# The same SOURCE_DATE_EPOCH for every step: the static CLI's bytes and the SBOMs' timestamps
# follow the commit, not the clock.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
  export SOURCE_DATE_EPOCH
fi

# --- The broker jar: both architectures' libraries (the portable profile) -----------------------
# --reuse-jar takes the jar a portable `mvn verify` just built and tested (.ci/run), rather than
# packaging it again; either way it must carry both libraries.
start=$SECONDS
jar=target/protocompat-pulsar-$version.jar
if [ "${1:-}" = --reuse-jar ]; then
  [ -f "$jar" ] || die "--reuse-jar: no $jar: run PROTOCOMPAT_PORTABLE=1 mvn verify first"
else
  PROTOCOMPAT_PORTABLE=1 mvnq -DskipTests package
fi
for lib in native/linux-x86_64/libprotocompat_jni.so native/linux-aarch64/libprotocompat_jni.so; do
  unzip -l "$jar" "$lib" >/dev/null || die "$jar lacks $lib"
done
cp "$jar" "$out/"
say "broker jar in $((SECONDS - start)) s"

# --- The static CLI executables and the wheels that carry them (built and run by the script) -----
start=$SECONDS
rust/cli/build-static.sh >target/bundle/build-static.log 2>&1 ||
  { tail -40 target/bundle/build-static.log >&2; die "rust/cli/build-static.sh failed"; }
for arch in x86_64 aarch64; do
  cp "target/dist/protocompat-$version-$arch-linux-musl" \
    target/dist/protocompat-"$version"-py3-none-*musllinux_1_2_"$arch".whl "$out/"
done
say "static CLI executables and wheels in $((SECONDS - start)) s"

# --- The Maven plugin (it carries the static executables built above) ---------------------------
start=$SECONDS
mvnq -f maven-plugin/pom.xml -Dprotocompat.cli.prebuilt=true -DskipTests -Dinvoker.skip=true package
cp "maven-plugin/target/protocompat-maven-plugin-$version.jar" "$out/"
cp maven-plugin/pom.xml "$out/protocompat-maven-plugin-$version.pom"
say "Maven plugin in $((SECONDS - start)) s"

# --- SBOMs ---------------------------------------------------------------------------------------
# cargo-cyclonedx lists the crates compiled into the jar's libraries (protocompat-jni) and into
# the CLI, for each target they are built for, build-time dependencies left out (nothing of them
# is in the artifact); ci/release/sbom.py adds what the jar and the executables carry.
start=$SECONDS
boms=target/bundle/cargo-boms
rm -rf "$boms"
mkdir -p "$boms"
cargo_bom() { # crate target
  cargo cyclonedx --quiet --manifest-path "rust/$1/Cargo.toml" --format json --spec-version 1.5 \
    --no-build-deps --target "$2" --override-filename cargo-bom
  mv "rust/$1/cargo-bom.json" "$boms/$1-$2.json"
}
for arch in x86_64 aarch64; do
  cargo_bom jni "$arch-unknown-linux-gnu"
  cargo_bom cli "$arch-unknown-linux-musl"
done
python3 ci/release/sbom.py jar --jar "$out/protocompat-pulsar-$version.jar" --version "$version" \
  --crates "$boms"/jni-*.json --out "$out/protocompat-pulsar-$version.cdx.json"
python3 ci/release/sbom.py cli --version "$version" --crates "$boms"/cli-*.json \
  --out "$out/protocompat-$version.cdx.json" "$out"/protocompat-"$version"-*-linux-musl
say "SBOMs in $((SECONDS - start)) s"

# --- Checksums -----------------------------------------------------------------------------------
(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | LC_ALL=C sort |
  xargs sha256sum >SHA256SUMS)
say "done:"
(cd "$out" && ls -l | sed 1d | awk '{ printf "  %10d  %s\n", $5, $9 }')
