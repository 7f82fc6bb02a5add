#!/usr/bin/env bash
# The compression prototype: ratio, compression time and first-access (decompression) time
# per block, per file / per skill / whole set, LZ4 and DEFLATE, on ../shared/corpus and the
# synthetic trees. Build time and binary size of the per-skill LZ4 crate come from
# build_cost.sh (crate "lz4").
#
#   bench/scripts/compress.sh [PRESETS]     # default "s1000 100mb"
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# Where cargo puts what it builds: CARGO_TARGET_DIR when set.
built="${CARGO_TARGET_DIR:-$repo/target}/release"
trees="${CARGO_TARGET_DIR:-$repo/target}/bench-work/trees"
presets="${1:-s1000 100mb}"
cargo build --release -q -p skills-bench --bin gen_tree --bin compress --manifest-path "$repo/Cargo.toml"
args=()
corpus="$repo/../shared/corpus/superpowers/skills"
[ -d "$corpus" ] && args+=("superpowers (corpus)=$corpus")
for p in $presets; do
  "$built/gen_tree" "$p" "$trees/$p" >/dev/null
  args+=("synthetic $p=$trees/$p")
done
"$built/compress" "${args[@]}"
