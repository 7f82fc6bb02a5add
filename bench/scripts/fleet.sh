#!/usr/bin/env bash
# A fleet of `skills serve --http` replicas behind a real balancer (issue 30 item 6): three
# replicas on loopback ports serving one copy of a skills folder, HAProxy and nginx (Debian's
# packages) in front, driven by the official MCP Python SDK (`mcp==2.3.0` from PyPI, in a venv)
# at protocol 2025-11-25 (initialize, then a session) and 2026-07-28 (no handshake, each request
# on its own). bench/scripts/fleet_client.py is the client. One section per balancer x mode x
# client version, with counts:
#
#   a. --stateless replicas, round-robin: every call answered, at both versions.
#   b. default (session) replicas: round-robin loses 2025-11-25 sessions (the count is shown);
#      the sticky snippets of bench/fleet/ (the ones the README quotes) lose none; the header
#      hashes that look right but are not sticky are shown with what they lost (by chance).
#   c. an edit of one SKILL.md reaches every replica, directly and through the balancer: the
#      time is printed against the bound (reload interval, plus ttlMs for a caching client).
#   d. `ask` across replicas: an approval started on one replica completes on another
#      (needs a `skills` with --state-key-file; FLEET_ASK=0 skips it, FLEET_ASK=1 insists).
#   e. throughput through each balancer against one replica directly (same client, same mix).
#
#   bench/scripts/fleet.sh                       # everything (about 3 minutes once installed)
#   QUICK=1 bench/scripts/fleet.sh               # small counts, one balancer, no throughput
#   SERVER=/path/to/skills BALANCERS=nginx bench/scripts/fleet.sh
#
# SERVER: the `skills` binary (default: the debug one of $CARGO_TARGET_DIR, built if missing).
# SKILLS_DIR: the folder served (default skills/examples/skills; copied, the copy is edited).
# BALANCERS: "haproxy nginx" by default; each is installed with apt-get when missing (root;
# FLEET_INSTALL=0 only uses what is installed) and skipped with one line when it cannot be had.
# PARTS: some of "stateless edit sessions ask load" (a to e; QUICK=1 leaves out load).
# SESSIONS x ROUNDS x 5 calls per client version and section; LOAD_CLIENTS, LOAD_SECS and
# LOAD_ROUNDS for (e): the client is fleet_client.py's `load`, one Python process (the SDK's
# client, closed loop, the same mix of five requests), so with a release server it is the
# bottleneck, and the table compares the balancer's cost more than the replicas' capacity.
# MCP_BENCH=1 also builds bench/mcp's `mcp_bench` (Rust, one thread; release, some minutes the
# first time) and adds its rows (MCP_BENCH_CLIENTS connections, `resources/read`); by default
# its rows come when it is already built, MCP_BENCH=0 leaves them out.
# The venv and each run's logs (replicas' stderr, balancer configs) are in
# $FLEET_WORK (default $CARGO_TARGET_DIR/fleet, or target/fleet). Exits 0 when every count is
# the expected one, 1 otherwise, 2 on a setup error; prints `fleet: skipped: WHY` and exits 0
# when no balancer or no Python venv can be had. Every wait is bounded; every process it
# starts is stopped on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
. "$repo/bench/scripts/lib.sh"
cd "$repo"
target="${CARGO_TARGET_DIR:-$repo/target}"
QUICK="${QUICK:-0}"
if [ "$QUICK" = 1 ]; then
  SESSIONS="${SESSIONS:-2}" ROUNDS="${ROUNDS:-3}"
else
  SESSIONS="${SESSIONS:-4}" ROUNDS="${ROUNDS:-10}"
fi
LOAD_CLIENTS="${LOAD_CLIENTS:-8}"
LOAD_SECS="${LOAD_SECS:-5}"
LOAD_ROUNDS="${LOAD_ROUNDS:-3}"
MCP_BENCH="${MCP_BENCH:-auto}"
MCP_BENCH_CLIENTS="${MCP_BENCH_CLIENTS:-16}"
BALANCERS="${BALANCERS:-haproxy nginx}"
FLEET_ASK="${FLEET_ASK:-auto}"
# Which parts run (a subset of the default, in this order whatever is given).
if [ "$QUICK" = 1 ]; then PARTS="${PARTS:-stateless edit sessions ask}"; else PARTS="${PARTS:-stateless edit sessions ask load}"; fi
part() { [[ " $PARTS " == *" $1 "* ]]; }
FLEET_INSTALL="${FLEET_INSTALL:-1}"
SKILLS_DIR="${SKILLS_DIR:-skills/examples/skills}"
FLEET_WORK="${FLEET_WORK:-$target/fleet}"
VERSIONS=(2025-11-25 2026-07-28)
# The reload interval of `skills serve` (RELOAD in skills/src/cli/serve.rs) and the ttlMs it
# gives 2026-07-28 clients (`cache_ttl: Some(RELOAD)`), in seconds: the bound of (c).
RELOAD_S=1
TTL_S=1

skip() { echo "fleet: skipped: $*"; exit 0; }
die() { echo "fleet: $*" >&2; exit 2; }

# --- Python and the SDK, pinned ---------------------------------------------------------------
if [ -z "${PYTHON:-}" ]; then
  for p in python3.13 python3.12 python3 python3.11 python3.10; do
    if "$p" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then PYTHON="$p"; break; fi
  done
fi
[ -n "${PYTHON:-}" ] || skip "no Python >= 3.10 with venv and ensurepip (the MCP SDK needs it)"
venv="$FLEET_WORK/venv"
mkdir -p "$FLEET_WORK"
if [ ! -x "$venv/bin/python" ]; then
  "$PYTHON" -m venv "$venv" >&2 || skip "cannot make a venv with $PYTHON"
fi
py="$venv/bin/python"
if ! "$py" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != "2.3.0")' 2>/dev/null; then
  "$venv/bin/pip" install -q 'mcp==2.3.0' >&2 || skip "pip cannot install mcp==2.3.0 from PyPI"
fi
client=("$py" "$repo/bench/scripts/fleet_client.py")

# --- the balancers ----------------------------------------------------------------------------
have=()
for b in $BALANCERS; do
  case "$b" in
    haproxy) bin=haproxy pkg=haproxy ;;
    nginx) bin=nginx pkg=nginx ;;
    *) die "unknown balancer $b (haproxy or nginx)" ;;
  esac
  if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$bin" >/dev/null && [ "$FLEET_INSTALL" = 1 ] && command -v apt-get >/dev/null; then
    # The list first only when the package is unknown (a fresh machine has no list).
    { apt-cache show "$pkg" >/dev/null 2>&1 || timeout 300 apt-get update -qq; } >&2 || true
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "$pkg" >&2 || true
  fi
  if PATH="$PATH:/usr/sbin:/sbin" command -v "$bin" >/dev/null; then
    have+=("$b")
  else
    echo "fleet: $b: not installed and not installable here (apt-get install $pkg); its sections are skipped"
  fi
  # Quick mode: one balancer is enough.
  [ "$QUICK" = 1 ] && [ ${#have[@]} -ge 1 ] && break
done
[ ${#have[@]} -ge 1 ] || skip "neither HAProxy nor nginx is installed or installable (apt-get install haproxy / nginx)"
export PATH="$PATH:/usr/sbin:/sbin"

# --- the server -------------------------------------------------------------------------------
if [ -z "${SERVER:-}" ]; then
  SERVER="$target/debug/skills"
  [ -x "$SERVER" ] || cargo build -q -p skills-embed --features cli --bin skills
fi
[ -x "$SERVER" ] || die "no skills binary at $SERVER"

run="$FLEET_WORK/runs/$(date -u +%Y%m%dT%H%M%S)-$$"
mkdir -p "$run"
skills="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$skills"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cp -R "$SKILLS_DIR/." "$skills/"
echo "fleet: $("$SERVER" --version 2>/dev/null || echo skills), $("$py" -c 'import importlib.metadata as m; print("mcp", m.version("mcp"))'), $(haproxy -v 2>/dev/null | head -n 1 | cut -d' ' -f1-3 || true) $(nginx -v 2>&1 | cut -d' ' -f3 || true); logs in $run"

# Four free loopback ports: three replicas and the balancer.
read -r -a ports < <("$py" -c '
import socket
socks = [socket.socket() for _ in range(4)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
for s in socks: s.close()')
lb_port="${ports[3]}"
lb="http://127.0.0.1:$lb_port/mcp"
replica_url() { echo "http://127.0.0.1:${ports[$1]}/mcp"; }

stop() {
  local keep=() pid
  for pid in "${pids[@]}"; do
    if [[ " $* " == *" $pid "* ]]; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    else
      keep+=("$pid")
    fi
  done
  pids=("${keep[@]}")
}

replicas=()
# start_replicas LABEL FLAG...: three replicas of the same folder, each its own stderr log.
start_replicas() {
  local label="$1" i
  shift
  stop "${replicas[@]}"
  replicas=()
  for i in 0 1 2; do
    "$SERVER" serve "$skills" --http "127.0.0.1:${ports[$i]}" "$@" 2>"$run/replica-$label-r$((i + 1)).log" &
    pids+=($!)
    replicas+=($!)
  done
  for i in 0 1 2; do
    wait_port "${ports[$i]}" 10 || die "replica r$((i + 1)) did not listen in 10 s (see $run/replica-$label-r$((i + 1)).log)"
  done
}

balancer_pid=""
# start_balancer NAME SNIPPET_FILE|"": NAME in front of the replicas, round-robin unless the
# snippet (a file of bench/fleet/, pasted as it is) says otherwise; each answer names its
# replica in X-Fleet-Replica.
start_balancer() {
  local name="$1" snippet="${2:-}" cfg
  [ -z "$balancer_pid" ] || stop "$balancer_pid"
  case "$name" in
    haproxy)
      cfg="$run/haproxy-$(basename "${snippet:-roundrobin}").cfg"
      {
        printf 'global\n    maxconn 4096\n'
        printf 'defaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n'
        printf 'frontend fleet\n    bind 127.0.0.1:%s\n    default_backend skills\n' "$lb_port"
        printf 'backend skills\n'
        if [ -n "$snippet" ]; then cat "$snippet"; fi
        if [ -z "$snippet" ] || ! grep -q '^ *balance ' "$snippet"; then printf '    balance roundrobin\n'; fi
        printf '    http-response set-header X-Fleet-Replica %%s\n'
        printf '    server r1 127.0.0.1:%s\n    server r2 127.0.0.1:%s\n    server r3 127.0.0.1:%s\n' "${ports[@]:0:3}"
      } >"$cfg"
      haproxy -db -f "$cfg" 2>>"$run/haproxy.log" &
      ;;
    nginx)
      local dir="$run/nginx"
      mkdir -p "$dir/tmp"
      cfg="$run/nginx-$(basename "${snippet:-roundrobin}").conf"
      # shellcheck disable=SC2016 # the $names are nginx's variables, not the shell's
      {
        printf 'worker_processes auto;\npid %s/nginx.pid;\nerror_log %s/error.log warn;\n' "$dir" "$dir"
        printf 'events { worker_connections 1024; }\nhttp {\n    access_log off;\n'
        # nginx closes a client's connection after 1,000 requests by default; mcp_bench keeps
        # one connection per client and does not reconnect.
        printf '    keepalive_requests 1000000;\n'
        for t in client_body proxy fastcgi uwsgi scgi; do printf '    %s_temp_path %s/tmp/%s;\n' "$t" "$dir" "$t"; done
        # Each answer names its replica as HAProxy's does (r1, r2, r3), not by address.
        printf '    map $upstream_addr $fleet_replica {\n        default $upstream_addr;\n'
        printf '        127.0.0.1:%s r1;\n        127.0.0.1:%s r2;\n        127.0.0.1:%s r3;\n    }\n' "${ports[@]:0:3}"
        printf '    upstream skills {\n'
        if [ -n "$snippet" ]; then cat "$snippet"; fi
        printf '        server 127.0.0.1:%s;\n        server 127.0.0.1:%s;\n        server 127.0.0.1:%s;\n' "${ports[@]:0:3}"
        printf '        keepalive 32;\n    }\n'
        printf '    server {\n        listen 127.0.0.1:%s;\n        location / {\n' "$lb_port"
        printf '            proxy_pass http://skills;\n            proxy_http_version 1.1;\n'
        printf '            proxy_set_header Connection "";\n            proxy_set_header Host $http_host;\n'
        # SSE answers (2025-11-25 sessions) pass as they come.
        printf '            proxy_buffering off;\n            proxy_read_timeout 60s;\n'
        printf '            add_header X-Fleet-Replica $fleet_replica always;\n        }\n    }\n}\n'
      } >"$cfg"
      nginx -p "$dir" -c "$cfg" -g 'daemon off;' 2>>"$run/nginx.log" &
      ;;
  esac
  balancer_pid=$!
  pids+=("$balancer_pid")
  wait_port "$lb_port" 10 || die "$name did not listen in 10 s (config $cfg, log $run/$name.log)"
}

# `json FIELD` of the driver's RESULT line (stdin).
field() { "$py" -c 'import json, sys
line = [l for l in sys.stdin.read().splitlines() if l.startswith("RESULT ")][-1]
print(json.loads(line[7:])[sys.argv[1]])' "$1"; }

failures=0
unexpected() { echo "  UNEXPECTED: $*"; failures=$((failures + 1)); }

# section BALANCER MODE ROUTING EXPECT: the calls at both versions through the balancer; EXPECT
# is `none` (zero errors), `some` (the 2025-11-25 client must lose calls; 2026-07-28 none) or
# `chance` (2025-11-25 reported, not judged; 2026-07-28 none).
section() {
  local b="$1" mode="$2" routing="$3" expect="$4" v out errors
  for v in "${VERSIONS[@]}"; do
    echo "== $b | $mode replicas | $routing | $v =="
    out="$(timeout 300 "${client[@]}" calls "$lb" "$v" --sessions "$SESSIONS" --rounds "$ROUNDS" 2>>"$run/client.log")" ||
      { unexpected "the client failed (see $run/client.log)"; continue; }
    echo "$out" | grep -v '^RESULT '
    errors="$(echo "$out" | field errors)"
    if [ "$expect" = chance ] && [ "$v" = 2025-11-25 ]; then
      # Not counted either way: a session survives when its id happens to hash to the replica
      # that opened it, so the loss varies from run to run (all, none, some).
      echo "  not sticky: a session lasts only if its id hashes to the replica that opened it ($errors errors this run)"
    elif [ "$expect" = some ] && [ "$v" = 2025-11-25 ]; then
      if [ "$errors" -gt 0 ]; then
        echo "  as expected: sessions need sticky routing"
      else
        unexpected "no error: this routing was expected to lose 2025-11-25 sessions"
      fi
    else
      [ "$errors" = 0 ] || unexpected "$errors errors"
    fi
  done
}

# --- a: stateless replicas, round-robin -------------------------------------------------------
part stateless || part edit && start_replicas stateless --stateless
part stateless && for b in "${have[@]}"; do
  start_balancer "$b"
  section "$b" stateless round-robin none
done

# --- c: an edit reaches every replica ---------------------------------------------------------
if part edit; then
b="${have[0]}"
start_balancer "$b"
echo "== $b | stateless replicas | round-robin | edit of code-review/SKILL.md =="
echo "  bound: a replica reads its folders again ${RELOAD_S} s after its last reload ended, so a read"
echo "  serves the edit within ${RELOAD_S} s plus two reloads' walks (one may have just missed it); a"
echo "  2026-07-28 client that caches (ttlMs = ${TTL_S} s) adds ${TTL_S} s. Reads here do not cache."
marker="fleet edit $(date +%s%N)"
out="$(timeout 120 "${client[@]}" edit "$skills/code-review/SKILL.md" "$marker" \
  r1="$(replica_url 0)" r2="$(replica_url 1)" r3="$(replica_url 2)" lb="$lb" --timeout 15 2>>"$run/client.log")" ||
  unexpected "the edit check failed (see $run/client.log)"
echo "$out" | grep -v '^RESULT '
if [ -n "$out" ]; then
  missing="$(echo "$out" | field missing)"
  [ "$missing" = "[]" ] || unexpected "not every target served the edit within 15 s: $missing"
  slowest="$(echo "$out" | field reached | "$py" -c 'import ast, sys; print(max(ast.literal_eval(sys.stdin.read()).values(), default=0))')"
  # Reported, not failed: the reload thread runs at the lowest CPU priority, and a loaded
  # machine delays it; the wait itself is bounded above.
  if "$py" -c "import sys; sys.exit(not $slowest <= $RELOAD_S + $TTL_S)"; then
    echo "  slowest: $slowest s, within ${RELOAD_S} s + ${TTL_S} s"
  else
    echo "  slowest: $slowest s, over ${RELOAD_S} s + ${TTL_S} s (the machine is loaded: the reload thread runs at the lowest priority)"
  fi
fi
fi

# --- b: session replicas: round-robin, the sticky snippets, the header hashes ----------------
part sessions && start_replicas session
part sessions && for b in "${have[@]}"; do
  start_balancer "$b"
  section "$b" session round-robin some
  case "$b" in
    haproxy) sticky=bench/fleet/haproxy-sticky.cfg hashed=bench/fleet/haproxy-session-hash.cfg ;;
    nginx) sticky=bench/fleet/nginx-sticky.conf hashed=bench/fleet/nginx-session-hash.conf ;;
  esac
  start_balancer "$b" "$sticky"
  section "$b" session "sticky ($sticky)" none
  start_balancer "$b" "$hashed"
  section "$b" session "header hash ($hashed)" chance
done

# --- d: ask across replicas -------------------------------------------------------------------
ask_supported=0
"$SERVER" serve --help 2>/dev/null | grep -q -- '--state-key-file' && ask_supported=1
if ! part ask; then
  :
elif [ "$FLEET_ASK" = 0 ]; then
  echo "== ask: skipped (FLEET_ASK=0) =="
elif [ "$ask_supported" = 0 ] && [ "$FLEET_ASK" != 1 ]; then
  echo "== ask: skipped: $SERVER has no --state-key-file (ask over MCP, issue 30 item 3); FLEET_ASK=1 insists =="
else
  head -c 32 /dev/urandom >"$run/state.key"
  printf 'ask release-notes\n' >"$run/ask.permissions"
  : >"$run/grants"
  ask_flags=(--permissions "$run/ask.permissions" --state-key-file "$run/state.key" --grants-file "$run/grants")
  # ask RUN_LABEL URL VERSION ANSWER EXPECT_ASKED [refused]
  ask() {
    local out
    echo "== $b | $1 | ask release-notes, answer ${4} | $3 =="
    out="$(timeout 60 "${client[@]}" ask "$2" "$3" --skill release-notes --answer "$4" 2>>"$run/client.log")" ||
      { unexpected "the ask client failed (see $run/client.log)"; return; }
    echo "$out" | grep -v '^RESULT '
    if [ "${6:-loads}" = refused ]; then
      [ "$(echo "$out" | field loaded)" = False ] || unexpected "loaded without a shared key"
      echo "  as expected: without a shared --state-key-file another replica cannot open the approval"
      return
    fi
    [ "$(echo "$out" | field loaded)" = True ] || unexpected "release-notes was not loaded"
    [ "$(echo "$out" | field asked)" = "$5" ] || unexpected "asked $(echo "$out" | field asked) time(s), expected $5"
    if [ "$3" = 2026-07-28 ] && [ "$5" = 1 ]; then
      if [ "$(echo "$out" | field crossed)" = True ]; then
        echo "  the approval started on one replica and completed on another"
      else
        unexpected "the retry did not land on another replica"
      fi
    fi
  }
  for b in "${have[@]}"; do
    # Fresh replicas and grants per balancer: "always" below must be this run's answer.
    : >"$run/grants"
    start_replicas "ask-stateless-$b" --stateless "${ask_flags[@]}"
    start_balancer "$b"
    ask "stateless replicas, round-robin" "$lb" 2026-07-28 once 1
    ask "stateless replicas, round-robin" "$lb" 2026-07-28 always 1
    # The "always" answer is in the shared grants file: no replica asks again.
    ask "stateless replicas, round-robin, after always" "$lb" 2026-07-28 once 0
  done
  : >"$run/grants"
  # The same without the shared key: each replica seals with a key of its own.
  start_replicas ask-own-keys --stateless --permissions "$run/ask.permissions"
  for b in "${have[@]}"; do
    start_balancer "$b"
    ask "stateless replicas, round-robin, no shared key" "$lb" 2026-07-28 once 1 refused
  done
  start_replicas ask-session "${ask_flags[@]}"
  for b in "${have[@]}"; do
    case "$b" in
      haproxy) start_balancer "$b" bench/fleet/haproxy-sticky.cfg ;;
      nginx) start_balancer "$b" bench/fleet/nginx-sticky.conf ;;
    esac
    ask "session replicas, sticky" "$lb" 2025-11-25 once 1
  done
fi

# --- e: throughput through each balancer against one replica -----------------------------------
# LOAD_ROUNDS rounds, each target in turn within a round, so a build starting on the shared
# machine hits every target alike; the row is the round with the median req/s.
if part load; then
  start_replicas load --stateless
  results="$run/load.jsonl"
  : >"$results"
  for v in "${VERSIONS[@]}"; do
    echo "== throughput | stateless replicas | $v | $LOAD_CLIENTS clients, ${LOAD_SECS} s, $LOAD_ROUNDS round(s) =="
    targets=("one replica (direct)=$(replica_url 0)")
    for b in "${have[@]}"; do targets+=("$b round-robin, 3 replicas=$lb"); done
    for round in $(seq "$LOAD_ROUNDS"); do
      for t in "${targets[@]}"; do
        name="${t%%=*}" url="${t#*=}"
        case "$name" in haproxy*) start_balancer haproxy ;; nginx*) start_balancer nginx ;; esac
        out="$(timeout $((LOAD_SECS * 4 + 60)) "${client[@]}" load "$url" "$v" --clients "$LOAD_CLIENTS" --secs "$LOAD_SECS" 2>>"$run/client.log")" ||
          { unexpected "the load client failed for $name"; continue; }
        echo "  round $round, $name:$(echo "$out" | grep -v '^RESULT ' | sed 's/^ *[0-9-]* [0-9]* clients [0-9]* s://')"
        errors="$(echo "$out" | field errors)"
        [ "$errors" = 0 ] || unexpected "$errors errors under load ($name)"
        echo "$out" | grep '^RESULT ' | sed "s/^RESULT //" |
          "$py" -c 'import json, sys; r = json.loads(sys.stdin.read()); r.update(version=sys.argv[1], target=sys.argv[2]); print(json.dumps(r))' "$v" "$name" >>"$results"
      done
    done
  done
  # The Rust load generator of bench/mcp (one thread, hyper, no SDK): 2025-11-25 sessions
  # (`initialize`, then one `resources/read` at a time per connection), so the client is not
  # what limits the rows. Built on demand (MCP_BENCH=1) as mcp_peers.sh builds it.
  mcp_bench="$target/mcp-bench/release/mcp_bench"
  if [ "$MCP_BENCH" = 1 ] && [ ! -x "$mcp_bench" ]; then
    CARGO_TARGET_DIR="$target/mcp-bench" cargo build --release -q --manifest-path bench/mcp/Cargo.toml --bin mcp_bench
  fi
  if [ "$MCP_BENCH" != 0 ] && [ -x "$mcp_bench" ]; then
    echo "== throughput | stateless replicas | mcp_bench (Rust), 2025-11-25 | $MCP_BENCH_CLIENTS connections, ${LOAD_SECS} s, $LOAD_ROUNDS round(s) =="
    for round in $(seq "$LOAD_ROUNDS"); do
      for t in "${targets[@]}"; do
        name="${t%%=*}" url="${t#*=}"
        case "$name" in haproxy*) start_balancer haproxy ;; nginx*) start_balancer nginx ;; esac
        # ops errors secs req_per_s p50_ms p99_ms answer_bytes
        if read -r ops errs _ rps p50 p99 _ < <(timeout $((LOAD_SECS * 4 + 60)) "$mcp_bench" load "$url" "$MCP_BENCH_CLIENTS" "$LOAD_SECS" --read "skill://code-review/SKILL.md" 2>>"$run/client.log"); then
          echo "  round $round, $name: $ops requests, $errs errors, $rps req/s, p50 $p50 ms, p99 $p99 ms"
          [ "$errs" = 0 ] || unexpected "$errs errors under load ($name, mcp_bench)"
          printf '{"version": "mcp_bench 2025-11-25", "target": "%s", "requests": %s, "errors": %s, "rps": %s, "p50_ms": %s, "p99_ms": %s}\n' \
            "$name" "$ops" "$errs" "$rps" "$p50" "$p99" >>"$results"
        else
          unexpected "mcp_bench failed for $name (see $run/client.log)"
        fi
      done
    done
  else
    echo "== throughput | mcp_bench: not built ($mcp_bench); MCP_BENCH=1 builds it (bench/mcp, release) =="
  fi
  echo
  "$py" - "$results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print("| client | target | rounds | requests (median round) | errors (all rounds) | req/s | p50 ms | p99 ms |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
seen = []
for r in rows:
    if (r["version"], r["target"]) not in seen:
        seen.append((r["version"], r["target"]))
for version, target in seen:
    cell = sorted((r for r in rows if (r["version"], r["target"]) == (version, target)), key=lambda r: r["rps"])
    m = cell[len(cell) // 2]
    errors = sum(r["errors"] for r in cell)
    print(f"| {version} | {target} | {len(cell)} | {m['requests']} | {errors} | {m['rps']:.0f} | {m['p50_ms']:.1f} | {m['p99_ms']:.1f} |")
PY
fi

echo
if [ "$failures" = 0 ]; then
  echo "fleet: every count as expected (balancers: ${have[*]})"
else
  echo "fleet: $failures unexpected result(s); logs in $run"
  exit 1
fi
