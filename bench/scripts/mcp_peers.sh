#!/usr/bin/env bash
# The MCP server against its peers, side by side in one run on loopback: the same 100-skill
# folder (`gen_tree --skills 100 --per-category 0`) served by `skills serve --http`, by a
# minimal rmcp `SkillCatalog` server (bench/mcp, `catalog_server`) and by the Python
# `agentskills-mcp-server` 0.7.0 (PyPI, in a venv under $CARGO_TARGET_DIR/mcp-bench, or target/mcp-bench). One server at a time;
# 1, 16 and 64 concurrent clients (one MCP session and one keep-alive HTTP/1.1 connection each,
# closed loop) doing `resources/read` of the same text file, then `tools/call` where the server
# has a tool; throughput, p50/p99 latency, server RSS (VmRSS after start, VmHWM at the end),
# and cold start to the first answer over HTTP and stdio, also for 1,000 skills (from disk, and
# embedded with `skills!` for ours). A fourth server, `embedded_server s100`, is ours on
# the same 100 skills embedded with `skills!`, served by `run_http` as `skills serve --http`
# serves a folder (one listener feeding a single-threaded runtime per core). Every server sets TCP_NODELAY on its connections (`skills serve` since the fix this
# benchmark found: without it each answer waited 44 ms for a delayed ACK; `catalog_server
# --no-nodelay` still shows that). Prints Markdown
# tables. Linux only (/proc).
#
#   bench/scripts/mcp_peers.sh
#   SECS=3 WARMUP=1 CLIENTS="1 16 64" ROUNDS=3 RUNS=10 PY_RUNS=5 bench/scripts/mcp_peers.sh
#
#   PYTHON=/root/.pyenv/versions/3.12.1/bin/python3.12 bench/scripts/mcp_peers.sh
#
# Quick mode, for one question: SERVERS picks the servers (of `ours nodelay catalog python`),
# COLD=0 skips the cold starts (and what only they need: the 1,000-skill tree, the embedded
# build unless `nodelay` is served, the Python venv unless `python` is):
#
#   SERVERS="ours catalog" CLIENTS=64 COLD=0 bench/scripts/mcp_peers.sh
#
# ALT=PATH adds server `alt`: `skills serve` from another build of the CLI (a profile, a
# commit), in the same rounds:  ALT=/tmp/skills SERVERS="ours alt catalog" COLD=0 ...
#
# Memory: VmRSS after start; the peak (VmHWM) after the `resources/read` pass, the load every
# server gets, and its anonymous part (RssAnon, sampled every 20 ms: the heap and stacks,
# without the binary's mapped code, which is page cache and grows with the binary's size); and
# VmHWM at the end, which for ours includes the `tools/call` pass (as many sessions again: the
# peers have no tool).
#
# PROTOCOL=2026-07-28: the load speaks that revision (no `initialize`, no session: each request
# self-contained, served statelessly by every rmcp server); 2025-11-25 (sessions) otherwise.
#
# SPLIT=1: the load generator pinned to the last core and every server to the others
# (taskset), so the generator never takes a server thread's core; on 2 cores a server has one.
# SPLIT=same: the server and the generator both pinned to core 0, so no request or answer
# waits for another core to wake (at one client that wake-up, not the server's work, is most
# of a request's time on a VM).
#
# SECS: measured seconds per cell (after WARMUP seconds not counted); ROUNDS: load rounds (each
# server in turn, then again; a cell is the median round by req/s); RUNS: cold starts per row
# (PY_RUNS for the Python server: 3-5 s a start for 100 skills, ~28 s for 1,000). Bounded:
# every load cell and every cold-start row has a timeout (a run takes 6-15 min with builds).
# The load generator (bench/mcp, `mcp_bench`) runs on one thread, on the same machine. Needs cargo, Python >= 3.11 (the first of
# python3.13, python3.12, python3, python3.11 that runs, or PYTHON=...) with venv and pip,
# crates.io and PyPI. The Python package declares Python >= 3.12: on 3.11 it is installed with
# --ignore-requires-python and bench/mcp/py/peer.py adds the one missing method it calls.
# PYTHON only matters when mcp-bench/venv is created; delete it to change Python.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
. "$repo/bench/scripts/lib.sh"
# Where cargo puts what it builds: CARGO_TARGET_DIR when set.
built="${CARGO_TARGET_DIR:-$repo/target}/release"
cd "$repo"
SECS="${SECS:-3}"
WARMUP="${WARMUP:-1}"
CLIENTS="${CLIENTS:-1 16 64}"
RUNS="${RUNS:-10}"
ROUNDS="${ROUNDS:-3}"
PY_RUNS="${PY_RUNS:-5}"
PORT="${PORT:-18700}"
SERVERS="${SERVERS:-ours nodelay catalog python}"
COLD="${COLD:-1}"
SPLIT="${SPLIT:-0}"
PROTOCOL="${PROTOCOL:-2025-11-25}"
# With SPLIT=1 or same, the prefixes that pin servers and the generator to their cores.
on_server=() on_bench=()
if [ "$SPLIT" != 0 ]; then
  command -v taskset >/dev/null || { echo "SPLIT=$SPLIT needs taskset (util-linux)" >&2; exit 2; }
fi
if [ "$SPLIT" = same ]; then
  on_server=(taskset -c 0) on_bench=(taskset -c 0)
elif [ "$SPLIT" = 1 ]; then
  last=$(($(nproc) - 1))
  [ "$last" -ge 1 ] || { echo "SPLIT=1 needs 2 cores or more" >&2; exit 2; }
  on_server=(taskset -c "0-$((last - 1))") on_bench=(taskset -c "$last")
fi
# The Python peer needs 3.12 (it calls Path.is_junction); on 3.11 it is installed with
# --ignore-requires-python and bench/mcp/py/peer.py supplies is_junction (always False on POSIX).
if [ -z "${PYTHON:-}" ]; then
  for p in python3.13 python3.12 python3 python3.11; do
    if "$p" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then PYTHON="$p"; break; fi
  done
fi
work="${CARGO_TARGET_DIR:-$repo/target}/mcp-bench"
trees="${CARGO_TARGET_DIR:-$repo/target}/bench-work/trees"
mkdir -p "$work" "$trees"

# The trees: 100 skills at the top level (so every server names a file skill://NAME/PATH), and
# the 1,000-skill goal tree (`category-NN/NAME`) for the cold starts.
serves() { [[ " $SERVERS " == *" $1 "* ]]; }
cargo build --release -q -p skills-bench --bin gen_tree
"$built/gen_tree" --skills 100 --per-category 0 "$trees/mcp-s100" >&2
if [ "$COLD" = 1 ] || serves nodelay; then
  "$built/gen_tree" s1000 "$trees/s1000" >&2
fi
tree="$trees/mcp-s100"
skill="$(ls "$tree" | sort | head -n 1)"
file="references/guide.md"
uri="skill://$skill/$file"

# Our server, the rmcp peer, the load generator, and 1,000 skills embedded with `skills!`.
cargo build --release -q -p skills-embed --features cli --bin skills
if [ "$COLD" = 1 ] || serves nodelay; then
  CARGO_TARGET_DIR="$work" cargo build --release -q --manifest-path bench/mcp/Cargo.toml --features embedded
else
  CARGO_TARGET_DIR="$work" cargo build --release -q --manifest-path bench/mcp/Cargo.toml --bin catalog_server --bin mcp_bench
fi
ours="$built/skills"
catalog="$work/release/catalog_server"
embedded="$work/release/embedded_server"
bench="$work/release/mcp_bench"

# The Python peer, pinned.
venv="$work/venv"
py_version=""
if [ "$COLD" = 1 ] || serves python; then
if [ ! -x "$venv/bin/python" ]; then
  "$PYTHON" -m venv "$venv"
fi
"$venv/bin/python" -c 'import agentskills_mcp_server, agentskills_fs' 2>/dev/null ||
  "$venv/bin/pip" install -q --ignore-requires-python agentskills-mcp-server==0.7.0 agentskills-fs==0.7.0 >&2
py_version="$("$venv/bin/python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
# One `fs` provider per skill (its CLI's format), every skill of the folder.
peer_config() {
  "$venv/bin/python" - "$1" "$2" <<'PY'
import json, pathlib, sys
root = pathlib.Path(sys.argv[1])
skills = sorted(p.parent for p in root.rglob("SKILL.md"))
print(json.dumps({
    "name": "agentskills",
    "max_skills": max(128, len(skills)),
    "skills": [{"id": s.name, "provider": "fs", "options": {"root": str(s.parent)}} for s in skills],
}))
PY
}
peer_config "$tree" s100 >"$work/peer-s100.json"
fi
peer="$venv/bin/python $repo/bench/mcp/py/peer.py --config $work/peer-s100.json"

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null || true; }
mb() { [ -n "$1" ] && awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }' || echo "?"; }
# The highest RssAnon (kB) of process $1 while it lives, written to file $2 (bash builtins
# only: the sampler must not load the machine it measures).
sample_anon() {
  local max=0 k v _
  while [ -r "/proc/$1/status" ]; do
    while read -r k v _; do
      if [ "$k" = RssAnon: ] && [ "$v" -gt "$max" ]; then max="$v"; echo "$max" >"$2"; fi
    done <"/proc/$1/status" 2>/dev/null || break
    sleep 0.02
  done
}

declare -A res rss_start rss_peak rss_read anon_read
names=()
for name in ours alt nodelay catalog python; do serves "$name" && names+=("$name"); done
declare -A label=(
  [ours]='**`skills serve --http`**'
  [alt]="\`skills serve --http\` (${ALT:-})"
  [nodelay]='`skills!` (embedded) + `run_http`'
  [catalog]='rmcp `SkillCatalog`'
  [python]='`agentskills-mcp-server`'
)
server_cmd() {
  case "$1" in
    ours) echo "$ours serve $tree --http 127.0.0.1:$2" ;;
    alt) echo "$ALT serve $tree --http 127.0.0.1:$2" ;;
    nodelay) echo "$embedded s100 --http 127.0.0.1:$2" ;;
    catalog) echo "$catalog $tree --http 127.0.0.1:$2" ;;
    python) echo "$peer --transport streamable-http --port $2" ;;
  esac
}

declare -A runs_of
# Rounds: every server in turn, then again; a cell's figure is the median round by req/s, so a
# burst of noise from outside hits one round of one server, not the table.
for round in $(seq "$ROUNDS"); do
for name in "${names[@]}"; do
  PORT=$((PORT + 1))
  # shellcheck disable=SC2046
  "${on_server[@]}" $(server_cmd "$name" "$PORT") >"$work/$name.log" 2>&1 &
  pid=$!
  if ! wait_port "$PORT" 60 "$pid"; then
    echo "$name did not listen on $PORT; see $work/$name.log" >&2
    kill "$pid" 2>/dev/null || true
    continue
  fi
  sleep 0.2
  [ -n "${rss_start[$name]:-}" ] || rss_start[$name]="$(status_kb "$pid" VmRSS)"
  rm -f "$work/$name.anon"
  sample_anon "$pid" "$work/$name.anon" &
  sampler=$!
  for op in read tool; do
    if [ "$op" = tool ]; then
      # The end of the load every server gets: the highest of the rounds.
      for pair in "rss_read:$(status_kb "$pid" VmHWM)" "anon_read:$(cat "$work/$name.anon" 2>/dev/null || true)"; do
        k="${pair%%:*}" v="${pair#*:}"
        declare -n seen="$k"
        if [ -n "$v" ] && { [ -z "${seen[$name]:-}" ] || [ "$v" -gt "${seen[$name]}" ]; }; then seen["$name"]="$v"; fi
        unset -n seen
      done
    fi
    if [ "$op" = tool ] && [ "$name" != ours ] && [ "$name" != alt ] && [ "$name" != nodelay ]; then
      continue # no tool: the peers serve resources and the skills extension only
    fi
    for c in $CLIENTS; do
      if [ "$op" = read ]; then what=(--read "$uri"); else what=(--tool load_skill "{\"skill\":\"$skill\"}"); fi
      line="$(timeout $((SECS + WARMUP + 120)) "${on_bench[@]}" "$bench" load "http://127.0.0.1:$PORT/mcp" "$c" "$SECS" "${what[@]}" --warmup "$WARMUP" --protocol "$PROTOCOL" 2>>"$work/$name.bench.log")" || line="failed"
      echo "$name $op $c (round $round): $line" >&2
      runs_of[$name,$op,$c]+="$line"$'\n'
    done
  done
  peak="$(status_kb "$pid" VmHWM)"
  if [ -z "${rss_peak[$name]:-}" ] || [ "${peak:-0}" -gt "${rss_peak[$name]}" ] 2>/dev/null; then
    rss_peak[$name]="$peak"
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
done
done
for key in "${!runs_of[@]}"; do
  res[$key]="$(printf '%s' "${runs_of[$key]}" | grep -v '^$' | sort -n -k4 | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')"
done

# Cold start to the first answer: spawn, then (HTTP) connect + initialize or (stdio) initialize.
declare -A cold
cold_row() { # key runs kind cmd...
  local key="$1" runs="$2" kind="$3"
  shift 3
  local line
  if [ "$kind" = http ]; then
    PORT=$((PORT + 100))
    line="$(timeout 300 "$bench" cold-http "$runs" "$PORT" -- "$@" 2>>"$work/cold.log")" || line="failed"
  else
    line="$(timeout 300 "$bench" cold-stdio "$runs" -- "$@" 2>>"$work/cold.log")" || line="failed"
  fi
  echo "cold $key: $line" >&2
  cold[$key]="$line"
}
# shellcheck disable=SC2086
if [ "$COLD" = 1 ]; then
  peer_config "$trees/s1000" s1000 >"$work/peer-s1000.json"
  peer1000="$venv/bin/python $repo/bench/mcp/py/peer.py --config $work/peer-s1000.json"
  cold_row ours,100,http "$RUNS" http $ours serve "$tree" --http '{addr}'
  cold_row ours,100,stdio "$RUNS" stdio $ours serve "$tree"
  cold_row catalog,100,http "$RUNS" http $catalog "$tree" --http '{addr}'
  cold_row catalog,100,stdio "$RUNS" stdio $catalog "$tree"
  cold_row python,100,http "$PY_RUNS" http $peer --transport streamable-http --port '{port}'
  cold_row python,100,stdio "$PY_RUNS" stdio $peer --transport stdio
  cold_row ours,1000,http "$RUNS" http $ours serve "$trees/s1000" --http '{addr}'
  cold_row ours,1000,stdio "$RUNS" stdio $ours serve "$trees/s1000"
  cold_row catalog,1000,http "$RUNS" http $catalog "$trees/s1000" --http '{addr}'
  cold_row catalog,1000,stdio "$RUNS" stdio $catalog "$trees/s1000"
  cold_row python,1000,http "$PY_RUNS" http $peer1000 --transport streamable-http --port '{port}'
  cold_row python,1000,stdio "$PY_RUNS" stdio $peer1000 --transport stdio
  cold_row nodelay,100,http "$RUNS" http "$embedded" s100 --http '{addr}'
  cold_row nodelay,100,stdio "$RUNS" stdio "$embedded" s100
  cold_row embedded,1000,http "$RUNS" http "$embedded" s1000 --http '{addr}'
  cold_row embedded,1000,stdio "$RUNS" stdio "$embedded" s1000
fi

# ---- tables ----
field() { # "ops errors secs rps p50 p99 bytes" -> field N, or an em dash
  local line="${res[$1]:-}"
  if [ -z "$line" ]; then echo "—"; elif [ "$line" = failed ]; then echo "failed"; else echo "$line" | awk -v n="$2" '{ print $n }'; fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf (a / b < 1 ? "%.2fx" : "%.1fx"), a / b; else print "—" }'; }

echo
cores="$(nproc) cores, the load generator on the same cores"
[ "$SPLIT" = 1 ] && cores="$(nproc) cores, the load generator pinned to core $last and the servers to cores 0-$((last - 1)) (SPLIT=1)"
[ "$SPLIT" = same ] && cores="the server and the load generator pinned to core 0 (SPLIT=same)"
echo "MCP $PROTOCOL over loopback, $cores; $SECS s measured per cell after $WARMUP s of warm-up, $ROUNDS rounds (each server in turn, then again; a cell is the median round by req/s, with that round's p50 and p99); file \`$uri\` ($(field "${names[0]},read,${CLIENTS%% *}" 7) bytes of text); tool \`load_skill {\"skill\":\"$skill\"}\`${py_version:+; Python $py_version for agentskills-mcp-server (it declares >= 3.12)}."
echo
echo "| server | operation | clients | req/s | p50 (ms) | p99 (ms) | req/s / rmcp's | req/s / Python's |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for op in read tool; do
  opname='`resources/read`'
  [ "$op" = tool ] && opname='`tools/call` `load_skill`'
  for c in $CLIENTS; do
    for name in "${names[@]}"; do
      rps="$(field "$name,$op,$c" 4)"
      echo "| ${label[$name]} | $opname | $c | $rps | $(field "$name,$op,$c" 5) | $(field "$name,$op,$c" 6) | $(ratio "$rps" "$(field "catalog,read,$c" 4)") | $(ratio "$rps" "$(field "python,read,$c" 4)") |"
    done
  done
done
errors=""
for key in "${!runs_of[@]}"; do
  while IFS= read -r run; do
    [ -z "$run" ] && continue
    e="$(echo "$run" | awk '{ print $2 }')"
    [ "$run" = failed ] && errors="$errors $key:failed"
    [ -n "$e" ] && [ "$e" != 0 ] && [ "$run" != failed ] && errors="$errors $key:$e"
  done <<<"${runs_of[$key]}"
done
echo
echo "Errors (every round): ${errors:-none}. \"—\": the server has no tool. Ratios of tools/call rows are to the peers' resources/read."
echo
echo "| server | RSS after start (MB) | peak RSS, \`resources/read\` pass (MB) | of which anonymous (MB) | peak RSS, end of the load (MB) | cold start HTTP, 100 skills (ms) | stdio, 100 skills (ms) | HTTP, 1,000 skills (ms) | stdio, 1,000 skills (ms) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
cold_cell() { local l="${cold[$1]:-}"; [ -z "$l" ] && { echo "—"; return; }; [ "$l" = failed ] && { echo failed; return; }; echo "$l" | awk '{ printf "%s (%s-%s)", $1, $2, $3 }'; }
for name in "${names[@]}"; do
  echo "| ${label[$name]} | $(mb "${rss_start[$name]:-}") | $(mb "${rss_read[$name]:-}") | $(mb "${anon_read[$name]:-}") | $(mb "${rss_peak[$name]:-}") | $(cold_cell "$name,100,http") | $(cold_cell "$name,100,stdio") | $(cold_cell "$name,1000,http") | $(cold_cell "$name,1000,stdio") |"
done
[ "$COLD" = 1 ] && echo "| **\`skills!\`, 1,000 embedded skills** (\`embedded_server s1000\`) | | | | | | | $(cold_cell embedded,1000,http) | $(cold_cell embedded,1000,stdio) |"
echo
if [ "$COLD" = 1 ]; then
  echo "Cold start: median (min-max) of $RUNS runs ($PY_RUNS for Python), from spawn to the answer to \`initialize\`."
fi
