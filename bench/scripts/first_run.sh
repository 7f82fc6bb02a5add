#!/usr/bin/env bash
# The README's two commands, cold: each in a fresh target folder, timed by wall clock, with the
# number of crates compiled. Usage: bench/scripts/first_run.sh [example|tests|both]
# Crates are downloaded first (`cargo fetch`), so the figures are build time, not network time.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
what="${1:-both}"
work="${CARGO_TARGET_DIR:-$repo/target}/bench-work/first-run"
cd "$repo"
cargo fetch -q

run() { # name, command...
    local name="$1"; shift
    rm -rf "$work/$name"
    mkdir -p "$work/$name"
    local start end
    start=$(date +%s.%N)
    CARGO_TARGET_DIR="$work/$name/target" "$@" >"$work/$name/log" 2>&1
    end=$(date +%s.%N)
    local crates
    crates=$(grep -c '^ *Compiling ' "$work/$name/log" || true)
    printf '%s: %s -> %.0f s wall, %s crates compiled\n' "$name" "$*" "$(awk "BEGIN { print $end - $start }")" "$crates"
}

case "$what" in
    example|both) run example cargo run --example agent --features fs ;;
esac
case "$what" in
    tests|both) run tests cargo test --workspace --all-features ;;
esac
