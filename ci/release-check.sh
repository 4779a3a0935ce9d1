#!/usr/bin/env bash
# Tests the release bundle that ci/release.sh built, as its users use it:
#
#   ci/release-check.sh          (from any directory; after ci/release.sh)
#
# - SHA256SUMS holds for every file;
# - every artifact carries the one version: names, `protocompat --version`, the wheels' METADATA,
#   the jar's Implementation-Version (which the broker's protocompat_info reports), the plugin's pom;
# - the wheel for this machine, installed with pip into a fresh virtual environment, gives a
#   working `protocompat` that refuses an incompatible change and passes a compatible one; the
#   other architecture's wheel, installed for its platform, runs under qemu-user;
# - each static executable runs with an empty environment (`env -i`), the aarch64 one under qemu;
# - the jar's SBOM lists exactly the files the jar carries, with their SHA-256, and exactly the
#   crates Cargo builds its libraries from; the CLI's SBOM the executables with theirs;
# - the Maven plugin, installed from the bundle as docs/install.md says, fails the `mvn verify` of
#   the sample application (examples/maven-app) on an incompatible change, naming the finding,
#   and passes it on a compatible one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

say() { echo "release-check: $*"; }
die() { echo "release-check: error: $*" >&2; exit 1; }
# A quiet Maven run: Maven 3.8's -q still writes colour resets around nothing.
mvnq() { mvn -B -q "$@" 2>&1 | sed 's/\x1b\[0m//g'; return "${PIPESTATUS[0]}"; }

version=$(python3 ci/release/versions.py)
bundle=$repo/target/bundle/protocompat-$version
[ -d "$bundle" ] || die "no bundle at target/bundle/protocompat-$version: run ci/release.sh first"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fixture() { echo "tests/fixtures/compat/$1/$2/order.proto"; }
incompatible=(check --root shop.Order "$(fixture field_number_changed old)" "$(fixture field_number_changed new)")
compatible=(check --root shop.Order "$(fixture allowed_changes old)" "$(fixture allowed_changes new)")

# expect STATUS WHAT COMMAND...: runs it, shows its output, fails unless it exits with STATUS
# (and, for 1, names FIELD_NUMBER_CHANGED).
expect() {
  local want=$1 what=$2 status=0 output
  shift 2
  output=$("$@" 2>&1 | sed 's/\x1b\[0m//g') || status=$?
  printf '%s\n' "$output" | sed -n '1,6s/^/    | /p'
  [ "$status" = "$want" ] || die "$what exited with $status, expected $want"
  if [ "$want" = 1 ]; then
    grep -q FIELD_NUMBER_CHANGED <<<"$output" || die "$what did not name FIELD_NUMBER_CHANGED"
  fi
  say "ok: $what (exit $status)"
}

qemu_for() { # arch: the runner for an executable of that architecture here, or nothing
  if [ "$1" = "$(uname -m)" ]; then return; fi
  for q in "qemu-$1" "qemu-$1-static"; do
    command -v "$q" >/dev/null && { command -v "$q"; return; }
  done
  die "no qemu-$1 to run the $1 artifacts (apt-get install qemu-user)"
}

# --- Checksums -----------------------------------------------------------------------------------
(cd "$bundle" && sha256sum --quiet -c SHA256SUMS) || die "SHA256SUMS does not hold"
listed=$(cut -d' ' -f3 "$bundle/SHA256SUMS" | sed 's/^\*//' | sort)
present=$(cd "$bundle" && ls | grep -vx SHA256SUMS | sort)
[ "$listed" = "$present" ] || die "SHA256SUMS does not list exactly the bundle's files"
say "ok: SHA256SUMS holds for the $(wc -l <<<"$present") files"

# --- One version ---------------------------------------------------------------------------------
for f in "protocompat-pulsar-$version.jar" "protocompat-maven-plugin-$version.jar" \
  "protocompat-maven-plugin-$version.pom" "protocompat-$version-x86_64-linux-musl" \
  "protocompat-$version-aarch64-linux-musl" "protocompat-pulsar-$version.cdx.json" \
  "protocompat-$version.cdx.json"; do
  [ -f "$bundle/$f" ] || die "the bundle lacks $f"
done
manifest=$(unzip -p "$bundle/protocompat-pulsar-$version.jar" META-INF/MANIFEST.MF | tr -d '\r')
grep -qx "Implementation-Version: $version" <<<"$manifest" ||
  die "the jar's Implementation-Version is not $version: $(grep Implementation-Version <<<"$manifest")"
for wheel in "$bundle"/*.whl; do
  meta=$(unzip -p "$wheel" "protocompat-$version.dist-info/METADATA") ||
    die "$(basename "$wheel") has no protocompat-$version.dist-info"
  grep -qx "Version: $version" <<<"$meta" || die "$(basename "$wheel") is not version $version"
done
for arch in x86_64 aarch64; do
  unzip -p "$bundle"/protocompat-"$version"-py3-none-*musllinux_1_2_"$arch".whl \
    "protocompat-$version.data/scripts/protocompat" |
    cmp -s - "$bundle/protocompat-$version-$arch-linux-musl" ||
    die "the $arch wheel does not carry protocompat-$version-$arch-linux-musl byte for byte"
done
say "ok: jar, plugin, executables, wheels and SBOMs all carry $version; each wheel carries the static executable"

# --- The README's install lines, as written, in the bundle's directory ---------------------------
for line in 'cp protocompat-pulsar-$VERSION.jar "$PULSAR_HOME/lib/"' \
  'install -m 755 protocompat-$VERSION-$(uname -m)-linux-musl /usr/local/bin/protocompat' \
  'python3 -m venv .venv && .venv/bin/pip install --no-index --find-links . protocompat' \
  'mvn install:install-file -Dfile=protocompat-maven-plugin-$VERSION.jar -DpomFile=protocompat-maven-plugin-$VERSION.pom'; do
  for doc in README.md docs/install.md; do
    grep -qF "\`${line//\$VERSION/$version}\`" "$doc" || die "$doc does not show the line run here: ${line//\$VERSION/$version}"
  done
done
# (a temporary PULSAR_HOME and bin directory stand in for the broker's and /usr/local/bin).
mkdir -p "$work/pulsar/lib" "$work/bin"
(
  cd "$bundle"
  PULSAR_HOME=$work/pulsar
  cp "protocompat-pulsar-$version.jar" "$PULSAR_HOME/lib/"
  install -m 755 "protocompat-$version-$(uname -m)-linux-musl" "$work/bin/protocompat"
)
cmp -s "$work/pulsar/lib/protocompat-pulsar-$version.jar" "$bundle/protocompat-pulsar-$version.jar" ||
  die "the README's broker line did not install the jar"
[ "$("$work/bin/protocompat" --version)" = "protocompat $version" ] ||
  die "the README's static-executable line did not install protocompat $version"
say "ok: the README's broker-jar and static-executable lines"

# --- The wheels ----------------------------------------------------------------------------------
host=$(uname -m)
other=$([ "$host" = x86_64 ] && echo aarch64 || echo x86_64)
python3 -m venv "$work/venv"
(cd "$bundle" && "$work/venv/bin/pip" install --quiet --no-index --find-links . protocompat)
[ "$("$work/venv/bin/protocompat" --version)" = "protocompat $version" ] ||
  die "the wheel's protocompat --version is not 'protocompat $version'"
say "ok: pip install --no-index --find-links . protocompat (the bundle, a fresh venv) gives $("$work/venv/bin/protocompat" --version)"
expect 1 "the wheel's protocompat, incompatible change" "$work/venv/bin/protocompat" "${incompatible[@]}"
expect 0 "the wheel's protocompat, compatible change" "$work/venv/bin/protocompat" "${compatible[@]}"
# The other architecture's wheel as pip installs it for that platform.
"$work/venv/bin/pip" install --quiet --no-index --find-links "$bundle" --only-binary=:all: \
  --platform "manylinux2014_$other" --target "$work/$other" "protocompat==$version"
expect 1 "the $other wheel's protocompat (qemu), incompatible change" \
  "$(qemu_for "$other")" "$work/$other/bin/protocompat" "${incompatible[@]}"

# --- The static executables, with an empty environment ------------------------------------------
for arch in x86_64 aarch64; do
  exe=$bundle/protocompat-$version-$arch-linux-musl
  runner=$(qemu_for "$arch")
  expect 1 "env -i ${runner:+$(basename "$runner") }$(basename "$exe"), incompatible change" \
    env -i ${runner:+"$runner"} "$exe" "${incompatible[@]}"
  expect 0 "env -i ${runner:+$(basename "$runner") }$(basename "$exe"), compatible change" \
    env -i ${runner:+"$runner"} "$exe" "${compatible[@]}"
done

# --- SBOMs ---------------------------------------------------------------------------------------
# What the libraries are built from, as Cargo resolves it for each architecture the jar carries.
for target in x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu; do
  cargo tree --locked -p protocompat-jni -e normal --target "$target" --prefix none --format '{p}'
done | sed 's/ (.*//' | sort -u >"$work/jni-crates.txt"
python3 ci/release/sbom.py verify-jar --jar "$bundle/protocompat-pulsar-$version.jar" \
  --sbom "$bundle/protocompat-pulsar-$version.cdx.json" --crates-expected "$work/jni-crates.txt"
# Both SBOMs are valid CycloneDX 1.5, by the CycloneDX project's own strict schema validator.
python3 -m venv "$work/cyclonedx"
"$work/cyclonedx/bin/pip" install --quiet "cyclonedx-python-lib[json-validation]==11.12.0"
"$work/cyclonedx/bin/python" - "$bundle" "$version" <<'EOF'
import pathlib, sys
from cyclonedx.schema import SchemaVersion
from cyclonedx.validation.json import JsonStrictValidator
bundle, version = pathlib.Path(sys.argv[1]), sys.argv[2]
for name in (f"protocompat-pulsar-{version}.cdx.json", f"protocompat-{version}.cdx.json"):
    error = JsonStrictValidator(SchemaVersion.V1_5).validate_str((bundle / name).read_text())
    if error is not None:
        sys.exit(f"release-check: {name} is not valid CycloneDX 1.5: {error}")
print("release-check: ok: both SBOMs are valid CycloneDX 1.5 (cyclonedx-python-lib, strict)")
EOF
python3 ci/release/sbom.py verify-cli --sbom "$bundle/protocompat-$version.cdx.json" \
  "$bundle/protocompat-$version-x86_64-linux-musl" "$bundle/protocompat-$version-aarch64-linux-musl"

# --- The Maven plugin, installed from the bundle, in the sample application's build -------------
(cd "$bundle" && mvnq install:install-file -Dfile="protocompat-maven-plugin-$version.jar" \
  -DpomFile="protocompat-maven-plugin-$version.pom")
say "ok: mvn install:install-file of the bundle's Maven plugin"
app=$work/maven-app
cp -r examples/maven-app "$app"
expect 0 "mvn verify of examples/maven-app, unchanged" mvn -B -f "$app/pom.xml" verify
cp examples/shop/v3/order.proto "$app/src/main/proto/shop/order.proto"
status=0
mvn -B -f "$app/pom.xml" verify >"$work/app.log" 2>&1 || status=$?
sed -n '/protocompat/,$p' "$work/app.log" | grep -v '^\[INFO\] *$' | head -40 | sed 's/^/    | /'
[ "$status" != 0 ] || die "mvn verify of examples/maven-app passed an incompatible change"
grep -q "FIELD_NUMBER_CHANGED" "$work/app.log" || die "the failed build does not name FIELD_NUMBER_CHANGED"
grep -q "BUILD FAILURE" "$work/app.log" || die "the failed build does not say BUILD FAILURE"
say "ok: mvn verify of examples/maven-app fails on examples/shop/v3, naming the findings"

say "the bundle passed: $bundle"
