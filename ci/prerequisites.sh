#!/usr/bin/env bash
# Checks, in a second or two and before anything is compiled, that the tools a build needs are
# here, and names the line that installs each one that is not:
#
#   ci/prerequisites.sh [--brief] NEED...      (from any directory)
#
# NEED is what is about to be built:
#   portable     the broker jar's portable libraries (-Pportable): Rust's x86_64 and aarch64
#                gnu targets, cargo-zigbuild and Zig
#   static-cli   the static CLI executables and wheels (rust/cli/build-static.sh): Rust's x86_64
#                and aarch64 musl targets, maturin, Zig, readelf, unzip
#   release      the release bundle (ci/release.sh): both of the above, Maven, a JDK, Python 3,
#                cargo-cyclonedx
#
# Exit 0 when everything is here. Else exit 1 with one entry per missing tool and its install
# line on stderr; --brief prints only the missing tools' names, comma-separated, on stdout (the
# Maven plugin's build uses it to decide between the static executables and this host's).
#
# Used by ci/release.sh, rust/cli/build-static.sh, the root pom's portable profile and
# maven-plugin/pom.xml, so each says the same thing about the same tool.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { echo "usage: ci/prerequisites.sh [--brief] portable|static-cli|release..." >&2; exit 2; }

brief=false
needs=()
for arg in "$@"; do
  case $arg in
    --brief) brief=true ;;
    portable | static-cli | release) needs+=("$arg") ;;
    *) usage ;;
  esac
done
[ "${#needs[@]}" -gt 0 ] || usage

# What to check, deduplicated across the needs given (release includes the other two).
targets=()
tools=()
want_target() { [[ " ${targets[*]} " == *" $1 "* ]] || targets+=("$1"); }
want_tool() { [[ " ${tools[*]} " == *" $1 "* ]] || tools+=("$1"); }
for need in "${needs[@]}"; do
  case $need in
    portable | release)
      want_tool cargo
      want_target x86_64-unknown-linux-gnu
      want_target aarch64-unknown-linux-gnu
      want_tool cargo-zigbuild
      want_tool zig
      ;;&
    static-cli | release)
      want_tool cargo
      want_target x86_64-unknown-linux-musl
      want_target aarch64-unknown-linux-musl
      want_tool maturin
      want_tool zig
      want_tool readelf
      want_tool unzip
      ;;&
    release)
      want_tool mvn
      want_tool java
      want_tool python3
      want_tool cargo-cyclonedx
      ;;
  esac
done

# Debian's and Ubuntu's system Python refuse `pip install` outside a virtual environment (PEP
# 668), so the PyPI tools go into one venv whose bin/ then goes first on the PATH (its python3
# is then the one cargo-zigbuild and maturin run Zig with). Inside an active venv, its pip.
# Printed as written, for the reader's shell to expand.
# shellcheck disable=SC2016
venv='$HOME/.venvs/protocompat-build'
if [ -n "${VIRTUAL_ENV:-}" ]; then
  pip_line() { echo "pip install $1"; }
else
  pip_line() { echo "$venv/bin/pip install $1"; }
fi
pypi_missing=false

missing=()   # names, for --brief
entries=()   # "what|install line", for the report
miss() { missing+=("$1"); entries+=("$1|$2"); }

has() { command -v "$1" >/dev/null 2>&1; }

has_zig() {
  # As cargo-zigbuild and maturin find it: the ziglang package of python3, else zig on the PATH.
  "${CARGO_ZIGBUILD_PYTHON_PATH:-python3}" -m ziglang version >/dev/null 2>&1 ||
    "${CARGO_ZIGBUILD_ZIG_PATH:-zig}" version >/dev/null 2>&1
}

for tool in "${tools[@]}"; do
  case $tool in
    cargo) has cargo || miss cargo "curl https://sh.rustup.rs -sSf | sh   (Rust stable, with rustup)" ;;
    cargo-zigbuild) has cargo-zigbuild || { miss cargo-zigbuild "$(pip_line cargo-zigbuild)"; pypi_missing=true; } ;;
    maturin) has maturin || { miss maturin "$(pip_line maturin)"; pypi_missing=true; } ;;
    zig) has_zig || { miss Zig "$(pip_line ziglang)"; pypi_missing=true; } ;;
    cargo-cyclonedx) has cargo-cyclonedx || miss cargo-cyclonedx "cargo install --locked cargo-cyclonedx" ;;
    readelf) has readelf || miss readelf "apt-get install binutils" ;;
    unzip) has unzip || miss unzip "apt-get install unzip" ;;
    mvn) has mvn || miss Maven "apt-get install maven" ;;
    java) has java || miss "a JDK 17 or newer" "apt-get install openjdk-17-jdk-headless" ;;
    python3) has python3 || miss python3 "apt-get install python3 python3-venv" ;;
  esac
done

# The Rust targets: rustup's list when there is a rustup, else the standard library's folder in
# the sysroot (a Rust installed without rustup, e.g. by a distribution).
if [ "${#targets[@]}" -gt 0 ] && has cargo; then
  if has rustup; then
    installed=$(rustup target list --installed 2>/dev/null) || installed=""
  else
    sysroot=$(rustc --print sysroot 2>/dev/null) || sysroot=""
    installed=$(ls "$sysroot/lib/rustlib" 2>/dev/null) || installed=""
  fi
  for t in "${targets[@]}"; do
    if ! grep -qx "$t" <<<"$installed"; then
      if has rustup; then
        miss "Rust target $t" "rustup target add $t"
      else
        miss "Rust target $t" "install Rust with rustup (https://rustup.rs), then: rustup target add $t"
      fi
    fi
  done
fi

if [ "${#missing[@]}" -eq 0 ]; then
  $brief || echo "prerequisites: all here for ${needs[*]}"
  exit 0
fi

if $brief; then
  joined=$(IFS=,; echo "${missing[*]}")
  echo "${joined//,/, }"
  exit 1
fi

{
  echo "prerequisites: missing for ${needs[*]} (each with the line that installs it):"
  for entry in "${entries[@]}"; do
    printf '  %-40s %s\n' "${entry%%|*}" "${entry#*|}"
  done
  if $pypi_missing && [ -z "${VIRTUAL_ENV:-}" ]; then
    echo "The PyPI tools go into a virtual environment (Debian's Python refuses a plain pip install,"
    echo "PEP 668); make it once and put it first on the PATH:"
    echo "  python3 -m venv $venv && export PATH=\"$venv/bin:\$PATH\""
  fi
} >&2
exit 1
