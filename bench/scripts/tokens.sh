#!/usr/bin/env bash
# Token economy (o200k, tiktoken-rs: offline): L1 listing tokens per skill in both formats and
# the first-turn prompt for Progressive and Eager, on ../shared/corpus and the synthetic trees.
#
#   bench/scripts/tokens.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# Where cargo puts what it builds: CARGO_TARGET_DIR when set.
built="${CARGO_TARGET_DIR:-$repo/target}/release"
trees="${CARGO_TARGET_DIR:-$repo/target}/bench-work/trees"
cargo build --release -q -p skills-bench --bin gen_tree --bin tokens --manifest-path "$repo/Cargo.toml"
for p in s10 s100 s1000; do "$built/gen_tree" "$p" "$trees/$p" >/dev/null; done
args=()
corpus="$repo/../shared/corpus/superpowers/skills"
[ -d "$corpus" ] && args+=("superpowers (corpus)=$corpus")
for p in s10 s100 s1000; do args+=("synthetic $p=$trees/$p"); done
"$built/tokens" "${args[@]}"
