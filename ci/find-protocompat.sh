# Sourced by the CI scripts: sets `protocompat_bin` to $PROTOCOMPAT, else the protocompat on
# PATH, else one built with cargo from this checkout (its first run takes a few minutes).
protocompat_bin="${PROTOCOMPAT:-}"
if [ -z "$protocompat_bin" ]; then
  if command -v protocompat >/dev/null; then
    protocompat_bin=protocompat
  else
    checkout="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    echo "protocompat: building it with cargo (once)" >&2
    cargo build --release --locked --quiet -p protocompat-cli --manifest-path "$checkout/Cargo.toml" >&2
    protocompat_bin="$checkout/target/release/protocompat"
  fi
fi
