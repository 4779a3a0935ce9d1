#!/usr/bin/env bash
# Lays out the protocompat executables the plugin's jar carries:
#
#   src/build/bundle-cli.sh VERSION DIST STAGING PREBUILT REQUIRE_STATIC
#
# STAGING/protocompat-cli/linux-{x86_64,aarch64}/protocompat and STAGING/protocompat-cli/SHA256SUMS,
# which the mojo checks each extracted executable against. Which executables:
#
# - the static (musl) ones for both architectures, DIST/protocompat-VERSION-ARCH-linux-musl: built
#   by rust/cli/build-static.sh first, unless PREBUILT is true (ci/release.sh has built them);
# - where the static build's tools are missing (ci/prerequisites.sh static-cli) and
#   REQUIRE_STATIC is false: this host's `cargo build --release` of the CLI, for this host's
#   architecture only, said with a [WARNING]. That is how `mvn install` works from a checkout with
#   only Rust, a JDK and Maven; the plugin so built runs on machines like this one (same
#   architecture, this glibc or newer). Release builds and CI set REQUIRE_STATIC.
#
# A static executable of another version fails the build: it is how a plugin version that differs
# from the Cargo workspace's is caught (build-static.sh names its files by Cargo's version); the
# host's executable must print that version too.
set -euo pipefail

[ $# -eq 5 ] || { echo "usage: $0 VERSION DIST STAGING PREBUILT REQUIRE_STATIC" >&2; exit 2; }
version=$1 dist=$2 staging=$3 prebuilt=$4 require_static=$5
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)

say() { echo "bundle-cli: $*"; }
die() { echo "bundle-cli: error: $*" >&2; exit 1; }

out=$staging/protocompat-cli
rm -rf "$out"
mkdir -p "$out"
sums=()

stage() { # executable platform
  mkdir -p "$out/$2"
  cp "$1" "$out/$2/protocompat"
  chmod 755 "$out/$2/protocompat"
  sums+=("$2/protocompat")
}

static() {
  local arch from
  for arch in x86_64 aarch64; do
    from=$dist/protocompat-$version-$arch-linux-musl
    [ -f "$from" ] || die "$from is missing: rust/cli/build-static.sh builds it for the Cargo" \
      "workspace's version, which must be $version, the plugin's"
    stage "$from" "linux-$arch"
  done
}

host() { # what the static build lacks
  local arch platform target_dir binary got
  [ "$(uname -s)" = Linux ] || die "no static executables (missing: $1), and this $(uname -s)" \
    "host's protocompat cannot be bundled (the plugin carries Linux executables only): install" \
    "what ci/prerequisites.sh static-cli names, or give the plugin this host's protocompat" \
    "(cargo install --locked --path rust/cli) with <executable>"
  arch=$(uname -m)
  case $arch in
    x86_64 | aarch64) platform=linux-$arch ;;
    *) die "no static executables (missing: $1), and the plugin has no folder for this $arch host" ;;
  esac
  # Maven shows an exec'd script's lines as they are: this one reads as Maven's own warning.
  echo "[WARNING] no static executables; bundling this host's protocompat ($platform) only." \
    "The static build needs $1 (ci/prerequisites.sh static-cli gives the install lines)." \
    "This plugin runs on $platform machines with this host's glibc or newer."
  (cd "$repo" && cargo build --release --locked -p protocompat-cli) ||
    die "cargo build --release -p protocompat-cli failed (its output above)"
  target_dir=${CARGO_TARGET_DIR:-$repo/target}
  case $target_dir in /*) ;; *) target_dir=$repo/$target_dir ;; esac
  binary=$target_dir/release/protocompat
  got=$("$binary" --version) || die "$binary --version failed"
  [ "$got" = "protocompat $version" ] ||
    die "$binary --version printed '$got': the Cargo workspace's version must be $version, the plugin's"
  stage "$binary" "$platform"
}

if [ "$prebuilt" = true ]; then
  static
elif missing=$("$repo/ci/prerequisites.sh" --brief static-cli); then
  bash "$repo/rust/cli/build-static.sh"
  static
elif [ "$require_static" = true ]; then
  "$repo/ci/prerequisites.sh" static-cli || true
  die "the static executables are required here (protocompat.cli.requireStatic) and cannot be built"
else
  host "$missing"
fi

(cd "$out" && sha256sum "${sums[@]}" >SHA256SUMS)
say "bundled protocompat $version:"
sed 's/^/bundle-cli:   /' "$out/SHA256SUMS"
