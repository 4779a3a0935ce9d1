#!/usr/bin/env bash
# Builds the `protocompat` CLI as static (musl) binaries for Linux x86_64 and aarch64, and the
# Python wheels that carry them, with maturin and Zig (ci/prerequisites.sh static-cli names what
# it needs and how to install it), then checks them.
#
#   rust/cli/build-static.sh            (from any directory)
#
# Output, in target/dist/:
#   protocompat-<version>-x86_64-linux-musl
#   protocompat-<version>-aarch64-linux-musl
#   protocompat-<version>-py3-none-manylinux2014_<arch>.manylinux_2_17_<arch>.musllinux_1_2_<arch>.whl
#   SHA256SUMS
#
# One compile per architecture gives both: maturin (rust/cli/pyproject.toml, bindings = "bin")
# builds the executable through Zig and packs that same file into the wheel, which is tagged for
# glibc and musl systems alike since the executable is static.
#
# The build uses its own target directory (target/static), so it never invalidates the cache of
# the ordinary `cargo build` / `mvn` build in target/. Each binary is checked: right machine, no
# ELF interpreter and no shared-library dependency; it runs `--version`, natively or under
# qemu-user (apt-get install qemu-user) when the host is another architecture, and the two
# binaries must give the same output and exit status on real checks. A binary that cannot be run
# (no qemu) is reported and skipped, not failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl)
target_dir=target/static
dist=target/dist

say() { echo "build-static: $*"; }
die() { echo "build-static: error: $*" >&2; exit 1; }

# --- Tools --------------------------------------------------------------------------------------

# Every tool and Rust target below, checked before anything is compiled; a missing one is named
# with the line that installs it.
ci/prerequisites.sh static-cli >/dev/null || die "install what is missing (above), then run again"
command -v sha256sum >/dev/null || die "sha256sum is not installed: apt-get install coreutils"
# maturin runs Zig from the ziglang Python package, else `zig` on the PATH.
if "${CARGO_ZIGBUILD_PYTHON_PATH:-python3}" -m ziglang version >/dev/null 2>&1; then
  zig_version=$("${CARGO_ZIGBUILD_PYTHON_PATH:-python3}" -m ziglang version)
else
  zig_version=$("${CARGO_ZIGBUILD_ZIG_PATH:-zig}" version)
fi

say "$(cargo --version); $(maturin --version); zig $zig_version"

# The CLI's version, as Cargo sees it (e.g. path+file:///.../rust/cli#protocompat-cli@0.1.0).
pkgid=$(cargo pkgid --locked -p protocompat-cli)
version=${pkgid##*[@:#]}
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || die "cannot read the CLI's version from '$pkgid'"

# mimalloc's C code (the CLI's allocator) embeds __DATE__ and __TIME__. zig cc takes them from
# SOURCE_DATE_EPOCH, here the last commit's time, but its cache ignores that variable, so the
# objects are cached in the build's own directory, not the user's shared Zig cache: a build
# from an empty target/static gives the same bytes for the same commit and tools.
if [ -z "${SOURCE_DATE_EPOCH:-}" ] && epoch=$(git log -1 --format=%ct 2>/dev/null) &&
  [ -n "$epoch" ]; then
  export SOURCE_DATE_EPOCH=$epoch
fi
export ZIG_GLOBAL_CACHE_DIR="$PWD/$target_dir/zig-cache"
export ZIG_LOCAL_CACHE_DIR="$ZIG_GLOBAL_CACHE_DIR"

# --- Build --------------------------------------------------------------------------------------

mkdir -p "$dist" "$target_dir"
# The two targets build at once, each in a target directory of its own (Cargo locks a target
# directory per build): each build's long single-threaded stretches, the CLI crate itself and
# the link, overlap the other's, which on a 2-core machine saves about a minute.
pids=()
for t in "${targets[@]}"; do
  say "building protocompat $version for $t"
  (
    start=$SECONDS
    CARGO_TARGET_DIR=$target_dir/$t maturin build --quiet --release --locked --zig \
      -m rust/cli/Cargo.toml --target "$t" --compatibility manylinux2014 musllinux_1_2 \
      --out "$dist" >"$target_dir/$t.log" 2>&1 ||
      { cat "$target_dir/$t.log" >&2; die "the build for $t failed (its output above)"; }
    say "built $t in $((SECONDS - start)) s"
  ) &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || die "a build failed"
binaries=()
wheels=()
for t in "${targets[@]}"; do
  arch=${t%%-*}
  out="$dist/protocompat-$version-$arch-linux-musl"
  cp "$target_dir/$t/$t/release/protocompat" "$out.tmp"
  mv -f "$out.tmp" "$out"
  binaries+=("$out")
  wheel=$(ls "$dist"/protocompat-"$version"-py3-none-*musllinux_1_2_"$arch".whl)
  # The wheel must carry the very executable checked below, byte for byte.
  unzip -p "$wheel" "protocompat-$version.data/scripts/protocompat" | cmp -s - "$out" ||
    die "$wheel does not carry $out"
  wheels+=("$wheel")
done
(cd "$dist" && sha256sum "${binaries[@]##*/}" "${wheels[@]##*/}" >SHA256SUMS.tmp &&
  mv -f SHA256SUMS.tmp SHA256SUMS)

# --- Check --------------------------------------------------------------------------------------

# How to run a binary for an architecture here: natively, under qemu-user, or not at all.
host=$(uname -m)
runner_for() {
  local arch=$1 q
  if [ "$arch" = "$host" ]; then
    echo native
    return
  fi
  for q in "qemu-$arch" "qemu-$arch-static"; do
    if command -v "$q" >/dev/null; then
      echo "$q"
      return
    fi
  done
  echo none
}
run_as() { # runner binary args...
  local runner=$1
  shift
  if [ "$runner" = native ]; then "$@"; else "$runner" "$@"; fi
}

for b in "${binaries[@]}"; do
  arch=${b%-linux-musl}
  arch=${arch##*-}
  case $arch in
    x86_64) machine="Advanced Micro Devices X86-64" ;;
    aarch64) machine="AArch64" ;;
    *) die "no ELF machine known for $arch" ;;
  esac
  readelf -h "$b" | grep -q "Machine: *$machine\$" || die "$b is not an $arch executable"
  if readelf -lW "$b" | grep -q "INTERP"; then
    die "$b asks for an ELF interpreter (not static)"
  fi
  if readelf -dW "$b" | grep -q "(NEEDED)"; then
    die "$b needs shared libraries: $(readelf -dW "$b" | grep "(NEEDED)" | tr -s ' ')"
  fi
  if command -v file >/dev/null; then
    described=$(file -b "$b")
    grep -Eq "statically linked|static-pie linked" <<<"$described" ||
      die "file does not call $b static: $described"
    say "$b: $described"
  fi
  say "$b: $machine, no INTERP, no NEEDED, $(stat -c %s "$b") bytes"

  runner=$(runner_for "$arch")
  if [ "$runner" = none ]; then
    say "note: $b not run: no qemu-$arch for this $host host (apt-get install qemu-user)"
    continue
  fi
  got=$(run_as "$runner" "$b" --version)
  [ "$got" = "protocompat $version" ] ||
    die "$b --version printed '$got', not 'protocompat $version'"
  say "$b --version ($runner): $got"
done

# The same checks through each runnable binary: output and exit status must be identical.
# Each command's expected exit status (0 compatible, 1 incompatible, 2 bad input) is asserted
# too, so a missing fixture cannot pass as "the same error on both".
pair() { echo "tests/fixtures/compat/$1/old/order.proto tests/fixtures/compat/$1/new/order.proto"; }
cases=(
  "check --root shop.Order $(pair multiple_findings)"
  "check --root shop.Order --format json -s BACKWARD $(pair multiple_findings)"
  "check --profile conservative -s FORWARD $(pair field_number_changed)"
  "check --root shop.Order $(pair allowed_changes)"
  "check $(pair multiple_findings)"
  "rules"
)
expected_statuses="1 1 1 0 2 0"
reference=""
compared=0
for b in "${binaries[@]}"; do
  arch=${b%-linux-musl}
  arch=${arch##*-}
  runner=$(runner_for "$arch")
  if [ "$runner" = none ]; then
    say "note: comparison skips $b: no qemu-$arch (apt-get install qemu-user)"
    continue
  fi
  transcript=""
  statuses=""
  for c in "${cases[@]}"; do
    read -ra args <<<"$c"
    status=0
    output=$(run_as "$runner" "$b" "${args[@]}" 2>&1) || status=$?
    transcript+="\$ protocompat $c"$'\n'"$output"$'\n'"[exit $status]"$'\n'
    statuses+="${statuses:+ }$status"
  done
  compared=$((compared + 1))
  if [ -z "$reference" ]; then
    reference=$transcript
    reference_binary=$b
    say "${#cases[@]} checks through $b ($runner):"
    # Shown shortened: at most 12 lines of each command's output.
    printf '%s' "$transcript" | awk '
      /^\$ protocompat / { n = 0; print "  | " $0; next }
      /^\[exit [0-9]+\]$/ {
        if (n > 12) print "  |   ... (" n - 12 " more lines)"
        print "  | " $0
        next
      }
      { if (++n <= 12) print "  |   " $0 }'
    [ "$statuses" = "$expected_statuses" ] ||
      die "$b exited with $statuses, expected $expected_statuses (transcript above)"
  elif [ "$transcript" = "$reference" ]; then
    say "$b ($runner): the same ${#cases[@]} outputs and exit statuses as $reference_binary"
  else
    diff <(printf '%s' "$reference") <(printf '%s' "$transcript") >&2 || true
    die "$b and $reference_binary disagree (diff above: < $reference_binary, > $b)"
  fi
done

if [ "$compared" -lt 2 ]; then
  say "note: no comparison between the binaries: only $compared of them could run here"
fi

say "done:"
(cd "$dist" && ls -l "${binaries[@]##*/}" "${wheels[@]##*/}" SHA256SUMS && cat SHA256SUMS)
