#!/usr/bin/env bash
# CPU and memory of an idle `skills serve --http` (no client): what watching its folder costs.
# For each binary given (default: the one in CARGO_TARGET_DIR or target/release), one after the
# other on the same tree: user + system ticks (10 ms) from /proc/PID/stat over SECS seconds,
# from 15 s after the server listens, then its RSS. Linux only (/proc).
#
#   bench/scripts/idle_cpu.sh TREE [SECS] [BINARY...]
#   bench/scripts/idle_cpu.sh target/bench-work/trees/s1000 60 /tmp/skills-before target/release/skills
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
. "$repo/bench/scripts/lib.sh"
tree="$1" secs="${2:-60}"
shift $(($# < 2 ? $# : 2))
[ $# -gt 0 ] || set -- "${CARGO_TARGET_DIR:-$repo/target}/release/skills"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
port=19400
for bin in "$@"; do
  port=$((port + 1))
  "$bin" serve "$tree" --http "127.0.0.1:$port" >/dev/null 2>&1 &
  pid=$!
  wait_port "$port" 120 "$pid" || { echo "$bin did not listen on $port" >&2; exit 1; }
  sleep 15
  before="$(ticks "$pid")"
  sleep "$secs"
  after="$(ticks "$pid")"
  echo "$bin on $(basename "$tree"): $((after - before)) ticks in $secs s, $(ls "/proc/$pid/task" | wc -l) threads, VmRSS $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status") kB"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
done
