#!/usr/bin/env bash
# Where an MCP server's resident memory is: each server named is started on mcp_peers.sh's
# 100-skill folder, then read after start and after one 64-client `resources/read` load
# (`mcp_bench`, SECS seconds): VmHWM, RssAnon and RssFile from /proc/PID/status, its binary's
# resident pages per ELF section and its resident `.text` per crate (bench/scripts/resident.py,
# from /proc/PID/pagemap and the binary's demangled symbols). Run bench/scripts/mcp_peers.sh
# once first: it builds the servers, the load generator and the folder.
#
#   bench/scripts/resident.sh                  # `skills serve --http` and rmcp's catalog
#   bench/scripts/resident.sh embedded /tmp/skills-other catalog
#
# A server is `ours` (target/release/skills), `catalog`, `embedded` (the 100 skills embedded
# with `skills!`, served by `run_http`) or the path of another `skills` build.
# PROTOCOL as for mcp_peers.sh. Needs python3, readelf and nm (binutils).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
. "$repo/bench/scripts/lib.sh"
target="${CARGO_TARGET_DIR:-$repo/target}"
work="$target/mcp-bench"
tree="$target/bench-work/trees/mcp-s100"
bench="$work/release/mcp_bench"
SECS="${SECS:-3}"
PROTOCOL="${PROTOCOL:-2025-11-25}"
PORT="${PORT:-18900}"
[ -x "$bench" ] && [ -d "$tree" ] || { echo "no $bench or $tree: run bench/scripts/mcp_peers.sh once first" >&2; exit 2; }
skill="$(ls "$tree" | sort | head -n 1)"
[ $# -gt 0 ] || set -- ours catalog
pid=''
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT # a failed load leaves no server behind
for server in "$@"; do
  case "$server" in
    ours) bin="$target/release/skills" args=(serve "$tree") ;;
    catalog) bin="$work/release/catalog_server" args=("$tree") ;;
    embedded) bin="$work/release/embedded_server" args=(s100) ;;
    *) bin="$server" args=(serve "$tree") ;;
  esac
  [ -x "$bin" ] || { echo "$server: no $bin (build it, or run bench/scripts/mcp_peers.sh)" >&2; exit 2; }
  PORT=$((PORT + 1))
  "$bin" "${args[@]}" --http "127.0.0.1:$PORT" >/dev/null 2>&1 &
  pid=$!
  wait_port "$PORT" 60 "$pid" || { echo "$server did not listen on $PORT" >&2; exit 1; }
  sleep 0.5
  for phase in "after start" "after a ${SECS} s 64-client resources/read load"; do
    if [ "$phase" != "after start" ]; then
      "$bench" load "http://127.0.0.1:$PORT/mcp" 64 "$SECS" --read "skill://$skill/references/guide.md" \
        --warmup 1 --protocol "$PROTOCOL" >/dev/null
    fi
    echo "== $server ($bin), $phase: $(grep -E '^(VmHWM|RssAnon|RssFile):' "/proc/$pid/status" | tr -s ' \t' ' ' | tr '\n' ' ')"
    python3 "$repo/bench/scripts/resident.py" "$pid" "$bin"
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done
