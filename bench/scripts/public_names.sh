#!/usr/bin/env bash
# Counts the facade's public names (all features) from rustdoc JSON; `-v` lists them;
# `--examples` lists the items and functions whose docs have no code example, and fails if any.
# rustdoc's JSON output is unstable, so this asks for it on stable with RUSTC_BOOTSTRAP=1, in a
# target folder of its own: dependencies' build scripts that probe for nightly features
# (cap-std, io-extras) would otherwise record them in the shared one, and the next stable build
# of those crates fails with E0554.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${CARGO_TARGET_DIR:-target}/public-names"
for p in skills-embed skills-embed-runtime; do
  CARGO_TARGET_DIR="$target" RUSTC_BOOTSTRAP=1 cargo rustdoc -q -p "$p" --all-features --lib -- -Z unstable-options --output-format json
done
dir="$target/doc"
python3 bench/scripts/public_names.py "$dir/skills_embed.json" "$dir/skills_embed_runtime.json" "$@"
