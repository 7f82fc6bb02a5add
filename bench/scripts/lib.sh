# Shared by the bench scripts (`. "$repo/bench/scripts/lib.sh"`).
# shellcheck shell=bash

# wait_port PORT [SECONDS] [PID]: succeeds once something accepts on 127.0.0.1:PORT; fails after
# SECONDS (default 30), or as soon as PID, when given, has exited (a server that died never listens).
wait_port() {
  local port="$1" secs="${2:-30}" pid="${3:-}" i
  for ((i = 0; i < secs * 10; i++)); do
    [ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || return 1
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
