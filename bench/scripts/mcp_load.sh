#!/usr/bin/env bash
# `skills serve` under a hostile pipeline: N pipelined `resources/read` requests for one
# ~1.9 MB file over stdio, answers left unread for 2 s and then read 1 ms apart; reports the
# server's peak RSS (VmHWM). Bounded: each run stops after TIMEOUT seconds (default 300).
# Prints a Markdown table. Linux only (/proc).
#
#   bench/scripts/mcp_load.sh                  # builds the release `skills` binary, N = 10 100 1000
#   SERVER=/path/to/skills bench/scripts/mcp_load.sh 10 100   # another build (say, an older one)
set -euo pipefail
cd "$(dirname "$0")/../.."
# Where cargo puts what it builds: CARGO_TARGET_DIR when set.
built="${CARGO_TARGET_DIR:-target}/release"
TIMEOUT="${TIMEOUT:-300}"
if [ -z "${SERVER:-}" ]; then
  cargo build --release -q -p skills-embed --features cli --bin skills
  SERVER="$built/skills"
fi
cargo build --release -q -p skills-bench --bin mcp_load
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10 100 1000)
echo "| requests | answered | seconds | server peak RSS (MB) | RSS before (MB) | bytes sent |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in "${counts[@]}"; do
  read -r count answered seconds peak before sent < <("$built/mcp_load" "$SERVER" "$n" 2000 "$TIMEOUT")
  echo "| $count | $answered | $seconds | $peak | $before | $sent |"
done
