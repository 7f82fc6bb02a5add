#!/usr/bin/env bash
# `skills serve --http` A/B: two binaries in alternating rounds, 64 clients, `resources/read` and
# `tools/call`, with mcp_peers.sh's load generator and tree (run mcp_peers.sh once first).
#   git worktree add ../old REV && (cd ../old && CARGO_TARGET_DIR=/tmp/old cargo build --release -p skills-embed --features cli --bin skills)
#   bench/scripts/mcp_ab.sh /tmp/old/release/skills [ROUNDS]
set -u
repo="$(cd "$(dirname "$0")/../.." && pwd)"
. "$repo/bench/scripts/lib.sh"
target="${CARGO_TARGET_DIR:-$repo/target}"
work=$target/mcp-bench bench=$target/mcp-bench/release/mcp_bench
tree=$target/bench-work/trees/mcp-s100
skill="$(ls "$tree" | sort | head -n 1)" uri="skill://$(ls "$tree" | sort | head -n 1)/references/guide.md"
declare -A bin=([old]="$1" [new]="$target/release/skills")
port=19300
echo "binary round operation: requests errors seconds req/s p50 p99 bytes"
for round in $(seq "${2:-4}"); do
  for name in old new; do
    port=$((port + 1))
    "${bin[$name]}" serve "$tree" --http 127.0.0.1:$port >/dev/null 2>&1 &
    pid=$!
    wait_port "$port" 30 "$pid" || true
    sleep 0.2
    echo "$name $round read: $("$bench" load "http://127.0.0.1:$port/mcp" 64 3 --read "$uri" --warmup 1 2>/dev/null)"
    echo "$name $round tool: $("$bench" load "http://127.0.0.1:$port/mcp" 64 3 --tool load_skill "{\"skill\":\"$skill\"}" --warmup 1 2>/dev/null)"
    kill "$pid"; wait "$pid" 2>/dev/null
  done
done
