#!/usr/bin/env bash
# Runs the aarch64 (ARM64) build of the engine and the JNI library on an x86_64 machine, under
# qemu user-mode emulation, so CI proves that the linux-aarch64 library in the jar works, not
# only that it links.
#
#   ci/aarch64.sh setup        prints the path of an aarch64 `java` (for mvn -Daarch64.java=...)
#   ci/aarch64.sh rust-tests   the engine's and the JNI crate's tests, built for aarch64, under qemu
#
# `setup` installs what is missing (Debian: qemu-user, the arm64 architecture for apt; rustup:
# the aarch64-unknown-linux-gnu target) and lays an arm64 root in target/aarch64/sysroot from
# Debian's arm64 packages, unpacked without installing them (so nothing of the machine's own
# amd64 JDK or libraries changes): glibc, libgcc, libstdc++, zlib and OpenJDK 17's headless JRE.
# qemu-aarch64 -L that root then runs aarch64 programs: the Rust test binaries and the JVM.
# The `java` it prints is a wrapper around qemu-aarch64 and the JRE of that root.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

dir=target/aarch64
sysroot=$dir/sysroot
packages=(libc6 libgcc-s1 libstdc++6 zlib1g openjdk-17-jre-headless)
jre=usr/lib/jvm/java-17-openjdk-arm64

say() { echo "aarch64: $*" >&2; }
die() { echo "aarch64: error: $*" >&2; exit 1; }

apt_updated=""
apt_update() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq >&2
    apt_updated=1
  fi
}

setup() {
  command -v apt-get >/dev/null || die "apt-get is not here: run on Debian or Ubuntu, or give qemu-aarch64 and an arm64 root yourself"
  if ! command -v qemu-aarch64 >/dev/null; then
    say "installing qemu-user"
    apt_update
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >&2
  fi
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    say "adding the arm64 architecture to apt (for its package lists; nothing arm64 is installed)"
    dpkg --add-architecture arm64
    apt_updated=""
    apt_update
  fi

  if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx aarch64-unknown-linux-gnu; then
    say "adding the Rust target aarch64-unknown-linux-gnu"
    rustup target add aarch64-unknown-linux-gnu >&2
  fi

  # The packages' versions, as apt would fetch them now: the root is remade when they change.
  local wanted=() versions
  for p in "${packages[@]}"; do wanted+=("$p:arm64"); done
  versions=$(apt-cache policy "${wanted[@]}" 2>/dev/null | awk '/^[^ ]/ {p=$1; sub(/:$/, "", p)} /Candidate:/ {print p, $2}')
  if ! grep -q "openjdk-17-jre-headless:arm64 [0-9]" <<<"$versions"; then
    apt_update
    versions=$(apt-cache policy "${wanted[@]}" | awk '/^[^ ]/ {p=$1; sub(/:$/, "", p)} /Candidate:/ {print p, $2}')
  fi
  if [ -x "$sysroot/$jre/bin/java" ] && [ "$(cat "$dir/packages" 2>/dev/null)" = "$versions" ]; then
    say "arm64 root up to date: $sysroot"
  else
    say "laying the arm64 root in $sysroot: ${wanted[*]}"
    rm -rf "$dir/debs" "$sysroot"
    mkdir -p "$dir/debs" "$sysroot"
    # apt-get download writes into the current directory; a failure may mean stale lists.
    if ! (cd "$dir/debs" && apt-get download -qq "${wanted[@]}" >&2 2>/dev/null); then
      apt_update
      (cd "$dir/debs" && apt-get download -qq "${wanted[@]}" >&2)
    fi
    for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
    # Absolute links (the JRE's conf/ and lib/jvm.cfg point into /etc) would leave the root
    # for the host's files: make each one relative, inside the root.
    local root link target
    root=$(cd "$sysroot" && pwd)
    while IFS= read -r -d '' link; do
      target=$(readlink "$link")
      ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$root$target")" "$link"
    done < <(find "$sysroot" -type l -lname '/*' -print0)
    rm -rf "$dir/debs"
    printf '%s\n' "$versions" >"$dir/packages"
  fi

  # The wrapper: a `java` that runs the arm64 JRE under qemu. Its `release` file beside bin/
  # tells Maven Surefire which Java it is.
  local root java
  root=$(cd "$sysroot" && pwd)
  mkdir -p "$dir/java/bin"
  java=$(cd "$dir/java" && pwd)/bin/java
  cat >"$java.tmp" <<EOF
#!/bin/sh
# java for linux-aarch64, under qemu user-mode emulation (made by ci/aarch64.sh setup)
exec qemu-aarch64 -L "$root" "$root/$jre/bin/java" "\$@"
EOF
  chmod +x "$java.tmp"
  mv -f "$java.tmp" "$java"
  cp "$sysroot/$jre/release" "$dir/java/release"
  local arch
  arch=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *os.arch = //p')
  [ "$arch" = aarch64 ] || die "$java does not run as aarch64 (os.arch=$arch)"
  say "$("$java" -version 2>&1 | sed -n 1p) runs, os.arch=$arch"
  echo "$java"
}

rust_tests() {
  [ -d "$sysroot/lib/aarch64-linux-gnu" ] || die "no arm64 root: run ci/aarch64.sh setup first"
  command -v cargo-zigbuild >/dev/null || die "cargo-zigbuild is not installed: ci/prerequisites.sh portable says how to install it"
  local root
  root=$(cd "$sysroot" && pwd)
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $root"
  # Release, as the library ships (the tests also run 10x faster under qemu than a debug build);
  # linked by Zig against glibc 2.17, as the bundled library is.
  local start=$SECONDS
  cargo-zigbuild test --release --locked -p protocompat -p protocompat-jni \
    --target aarch64-unknown-linux-gnu.2.17 --no-run
  say "built the aarch64 tests in $((SECONDS - start)) s"
  start=$SECONDS
  # The edition-defaults tests spawn protoc, an aarch64 program here: qemu-user runs the test
  # binary, and the kernel (no binfmt_misc handler) cannot run what it spawns. They hold a table
  # that is the same on every architecture, and run in the x86_64 tests.
  cargo-zigbuild test --release --locked -p protocompat -p protocompat-jni \
    --target aarch64-unknown-linux-gnu.2.17 -- \
    --skip the_compiled_in_defaults_are_protocs_for_every_supported_edition \
    --skip edition_2026_differs_from_2024_only_in_features_that_leave_the_wire_alone
  say "ran the aarch64 tests under qemu-aarch64 in $((SECONDS - start)) s"
}

case "${1:-}" in
  setup) setup ;;
  rust-tests) rust_tests ;;
  *) die "usage: ci/aarch64.sh setup | rust-tests" ;;
esac
