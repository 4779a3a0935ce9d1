#!/usr/bin/env bash
# Lays out the static protocompat executables as the plugin's jar carries them:
#
#   src/build/stage-cli.sh VERSION DIST STAGING
#
# copies DIST/protocompat-VERSION-{x86_64,aarch64}-linux-musl (rust/cli/build-static.sh's output)
# to STAGING/protocompat-cli/linux-{x86_64,aarch64}/protocompat and writes
# STAGING/protocompat-cli/SHA256SUMS, which the mojo checks each extracted executable against.
# A missing executable fails the build: it is also how a plugin version that differs from the
# Cargo workspace's is caught (build-static.sh names its files by Cargo's version).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 VERSION DIST STAGING" >&2; exit 2; }
version=$1 dist=$2 staging=$3

out=$staging/protocompat-cli
rm -rf "$out"
mkdir -p "$out"
sums=()
for arch in x86_64 aarch64; do
  from=$dist/protocompat-$version-$arch-linux-musl
  if [ ! -f "$from" ]; then
    echo "stage-cli: error: $from is missing: rust/cli/build-static.sh builds it for the" \
      "Cargo workspace's version, which must be $version, the plugin's" >&2
    exit 1
  fi
  mkdir -p "$out/linux-$arch"
  cp "$from" "$out/linux-$arch/protocompat"
  sums+=("linux-$arch/protocompat")
done
(cd "$out" && sha256sum "${sums[@]}" >SHA256SUMS)
echo "stage-cli: bundled protocompat $version:"
sed 's/^/stage-cli:   /' "$out/SHA256SUMS"
