#!/usr/bin/env bash
# `skills serve --http` under idle connections (issue 25 item 1): the server under
# `ulimit -n NOFILE`, IDLE connections that send nothing (more than NOFILE), then a new client's
# `initialize`; prints how long it waited for its answer, per round, as a Markdown table.
# Loopback only; bounded (a client waits at most 3 header-read timeouts + 10 s). Linux.
#
#   bench/scripts/http_idle.sh                       # 1100 idle, ulimit -n 1024, default timeouts
#   IDLE=1100 NOFILE=1024 HEADER_READ=2 ROUNDS=5 bench/scripts/http_idle.sh
#   SERVER=/path/to/skills bench/scripts/http_idle.sh    # another build (say, an older one)
set -euo pipefail
cd "$(dirname "$0")/../.."
IDLE="${IDLE:-1100}"
NOFILE="${NOFILE:-1024}"
ROUNDS="${ROUNDS:-3}"
target="${CARGO_TARGET_DIR:-target}"
if [ -z "${SERVER:-}" ]; then
  cargo build --release -q -p skills-embed --features cli --bin skills
  SERVER="$target/release/skills"
fi
cargo build --release -q -p skills-bench --bin http_idle
# The load holds IDLE connections itself: raise its own soft limit as far as allowed.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "| round | idle connections held | server's ulimit -n | header-read timeout (s) | opening them took (ms) | new client waited (ms) | answered |"
echo "|---:|---:|---:|---:|---:|---:|---|"
"$target/release/http_idle" "$SERVER" skills/examples/skills "$IDLE" "$NOFILE" "${HEADER_READ:-}" "$ROUNDS" |
  while read -r round idle nofile header opened waited answered; do
    echo "| $round | $idle | $nofile | $header | $opened | $waited | $answered |"
  done
