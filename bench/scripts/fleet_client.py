#!/usr/bin/env python3
"""The fleet's client: the official MCP Python SDK (`mcp==2.3.0`) against `skills serve --http`
replicas, directly or through a balancer (issue 30 item 6). bench/scripts/fleet.sh runs it.

  fleet_client.py calls URL VERSION --sessions S --rounds R [--skill NAME]
  fleet_client.py edit FILE MARKER NAME=URL... [--timeout SECS]
  fleet_client.py ask URL VERSION --skill NAME --answer once|always|reject
  fleet_client.py load URL VERSION --clients C --secs S

VERSION is 2025-11-25 (the SDK's `mode="legacy"`: `initialize`, then a session, with the
`Mcp-Session-Id` it got) or 2026-07-28 (`mode="2026-07-28"`: no handshake, each request a
self-contained POST). Every client is built with `cache=None`, so each call reaches a server
(the SDK would otherwise keep answers for their `ttlMs`, and a balancer would see fewer
requests than the script counts). Every call is bounded (`--call-timeout`, default 5 s).

Each command prints one line starting with `RESULT` and a JSON object (what fleet.sh reads),
after any human lines. The exit code is 0 when the command ran, whatever it counted: the
script decides which counts are expected.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

MODES = {"2025-11-25": "legacy", "2026-07-28": "2026-07-28"}
# The header a balancer in fleet.sh adds to each answer: which replica served it.
REPLICA_HEADER = "x-fleet-replica"
# Seconds one HTTP exchange may take (`--call-timeout`): a balancer that holds a request must not hold the run.
TIMEOUT = 5.0


def result(**fields: Any) -> None:
    print("RESULT " + json.dumps(fields, sort_keys=True), flush=True)


class Seen:
    """The replicas that answered, in order, from the balancer's header (absent when direct),
    and what each POST asked for."""

    def __init__(self) -> None:
        self.replicas: list[str] = []
        self.steps: list[str] = []

    async def hook(self, response: httpx2.Response) -> None:
        if response.request.method != "POST":
            return
        replica = response.headers.get(REPLICA_HEADER, "-")
        self.replicas.append(replica)
        try:
            body = json.loads(response.request.content or b"{}")
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        what = str(body.get("method") or ("answer" if "result" in body else "?"))
        params = body.get("params") if isinstance(body.get("params"), dict) else {}
        if "inputResponses" in params or "requestState" in params:
            what += " (retry with the answer)"
        self.steps.append(f"{what} @ {replica}")


@asynccontextmanager
async def client(url: str, version: str, seen: Seen | None = None, **kw: Any) -> AsyncIterator[Client]:
    """An SDK client at `version`, each request bounded; with `seen`, the replica of each POST's
    answer is kept."""
    async with create_mcp_http_client(timeout=httpx2.Timeout(TIMEOUT)) as http:
        if seen is not None:
            http.event_hooks["response"].append(seen.hook)
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=MODES[version], cache=None, read_timeout_seconds=TIMEOUT, **kw) as c:
            yield c


def describe(e: BaseException) -> str:
    """The innermost error: a task group wraps what the server answered in exception groups."""
    # `exceptions` is what a group has (BaseExceptionGroup, or its backport before Python 3.11).
    while getattr(e, "exceptions", None):
        e = e.exceptions[0]  # type: ignore[attr-defined]
    return f"{type(e).__name__}: {e}"


def text_of(content: Any) -> str:
    return getattr(content, "text", "") or ""


async def mix(c: Client, skill: str, prompt: str) -> list[tuple[str, Any]]:
    """The request mix, one round: what a host does with a skills server."""
    return [
        ("tools/list", c.list_tools),
        ("tools/call load_skill", lambda: c.call_tool("load_skill", {"skill": skill})),
        ("resources/read", lambda: c.read_resource(f"skill://{skill}/SKILL.md")),
        ("prompts/list", c.list_prompts),
        ("prompts/get", lambda: c.get_prompt(prompt, {})),
    ]


def failed(name: str, answer: Any) -> str | None:
    """Why an answer does not count as served, or None."""
    if isinstance(answer, types.CallToolResult) and answer.is_error:
        return f"{name}: tool error: {text_of(answer.content[0]) if answer.content else ''}"[:200]
    if isinstance(answer, types.ReadResourceResult) and not answer.contents:
        return f"{name}: no contents"
    if isinstance(answer, types.ListToolsResult) and not answer.tools:
        return f"{name}: no tools"
    return None


async def cmd_calls(a: argparse.Namespace) -> None:
    ok = 0
    errors: Counter[str] = Counter()
    connects_failed = 0
    seen = Seen()
    for _ in range(a.sessions):
        connected = False
        try:
            async with client(a.url, a.version, seen) as c:
                connected = True
                for _ in range(a.rounds):
                    for name, call in await mix(c, a.skill, a.prompt):
                        try:
                            with anyio.fail_after(a.call_timeout):
                                answer = await call()
                            why = failed(name, answer)
                        except Exception as e:  # noqa: BLE001 - counted
                            why = f"{name}: {describe(e)}"[:160]
                        if why is None:
                            ok += 1
                        else:
                            errors[why] += 1
        except Exception as e:  # noqa: BLE001 - counted, the script judges
            if not connected:
                connects_failed += 1
                errors[f"connect: {describe(e)}"[:160]] += a.rounds * 5
    total = a.sessions * a.rounds * 5
    replicas = Counter(seen.replicas)
    print(
        f"  {a.version}: {total} calls by {a.sessions} client(s) x {a.rounds} round(s) x 5: "
        f"{ok} ok, {total - ok} errors"
        + (f" (connects failed: {connects_failed})" if connects_failed else "")
    )
    if replicas and "-" not in replicas:
        print("  answered by: " + ", ".join(f"{k} {v}" for k, v in sorted(replicas.items())))
    for why, n in errors.most_common(3):
        print(f"  {n} x {why}")
    result(calls=total, ok=ok, errors=total - ok, version=a.version, replicas=dict(replicas))


async def cmd_edit(a: argparse.Namespace) -> None:
    """Rewrites FILE's body with MARKER and polls every target at once until each serves it.

    Each target is read by its own 2026-07-28 client (no session, no cache: every read reaches
    a replica), one read at a time. A replica counts from its first new answer; a target named
    `lb*` (the balancer) from the first of `--streak` new answers in a row, since one new answer
    there may come from the one replica that has reloaded.
    """
    targets = dict(t.split("=", 1) for t in a.targets)
    skill = a.file.rstrip("/").split("/")[-2]
    uri = f"skill://{skill}/SKILL.md"
    with open(a.file, encoding="utf-8") as f:
        old = f.read()
    # The frontmatter stays as it is; only the body changes.
    head, sep, _body = old.partition("\n---\n")
    new = head + sep + f"\n# Edited\n\n{a.marker}\n"
    reached: dict[str, float] = {}
    flips: Counter[str] = Counter()
    polls: Counter[str] = Counter()

    async with AsyncExitStack() as stack:
        clients = {
            name: await stack.enter_async_context(client(url, "2026-07-28")) for name, url in targets.items()
        }

        async def fresh(c: Client) -> bool:
            with anyio.fail_after(a.call_timeout):
                answer = await c.read_resource(uri)
            return a.marker in "".join(text_of(x) for x in answer.contents)

        for name, c in clients.items():
            if await fresh(c):
                raise SystemExit(f"{name} serves the marker before the edit")
        start = time.monotonic()
        with open(a.file, "w", encoding="utf-8") as f:
            f.write(new)
        deadline = start + a.timeout

        async def poll(name: str, c: Client) -> None:
            need = a.streak if name.startswith("lb") else 1
            run_from, run = 0.0, 0
            while time.monotonic() < deadline:
                polls[name] += 1
                try:
                    new_body = await fresh(c)
                except Exception:  # noqa: BLE001 - a failed poll is polled again
                    new_body = False
                now = time.monotonic() - start
                if new_body:
                    run_from, run = (run_from, run + 1) if run else (now, 1)
                    if run >= need:
                        reached[name] = run_from
                        return
                else:
                    flips[name] += 1 if run else 0
                    run = 0
                await anyio.sleep(0.02)

        async with anyio.create_task_group() as tg:
            for name, c in clients.items():
                tg.start_soon(poll, name, c)
    for name in targets:
        got = f"{reached[name]:.2f} s" if name in reached else f"not within {a.timeout:.0f} s"
        extra = f" ({flips[name]} time(s) old again after new)" if flips[name] else ""
        print(f"  {name}: new body after {got}, {polls[name]} reads{extra}")
    result(
        reached={k: round(v, 3) for k, v in reached.items()},
        missing=sorted(set(targets) - set(reached)),
        flips=dict(flips),
        polls=dict(polls),
    )


async def cmd_ask(a: argparse.Namespace) -> None:
    """load_skill of an `ask` skill, the SDK's elicitation callback answering `--answer`.

    At 2026-07-28 the server answers `input_required` (an `elicitation/create` under
    "approval" and a signed `requestState`) and the SDK retries with the answer; at 2025-11-25
    the server sends `elicitation/create` on the session. Prints which replica answered each
    POST (the balancer's header), so a retry that landed on another replica shows.
    """
    asked: list[dict[str, Any]] = []

    async def on_elicit(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        schema = getattr(params, "requested_schema", None)
        asked.append({"message": getattr(params, "message", ""), "schema": _dump(schema)})
        return types.ElicitResult(action="accept", content={"answer": a.answer})

    seen = Seen()
    error = None
    loaded = False
    try:
        with anyio.fail_after(a.call_timeout * 3):
            async with client(a.url, a.version, seen, elicitation_callback=on_elicit) as c:
                answer = await c.call_tool("load_skill", {"skill": a.skill})
        error = failed("load_skill", answer)
        loaded = error is None and any(a.skill in text_of(x) for x in answer.content)
    except Exception as e:  # noqa: BLE001 - reported
        error = describe(e)[:300]
    enum = None
    if asked:
        props = (asked[0]["schema"] or {}).get("properties", {})
        enum = (props.get("answer") or {}).get("enum")
    print(
        f"  {a.version} answer={a.answer}: asked {len(asked)} time(s)"
        + (f" (enum {enum})" if enum else "")
        + f", loaded={loaded}"
    )
    print("  POSTs: " + (" -> ".join(seen.steps) or "?"))
    if error:
        print(f"  error: {error}")
    # Started on one replica and finished on another: the retry's replica is not the first call's.
    first = next((st for st in seen.steps if st.startswith("tools/call @")), "")
    retry = next((st for st in seen.steps if "(retry with the answer)" in st), "")
    crossed = bool(first and retry) and first.split(" @ ")[1] != retry.split(" @ ")[1]
    result(asked=len(asked), enum=enum, loaded=loaded, error=error, replicas=seen.replicas, steps=seen.steps,
           crossed=crossed)


def _dump(x: Any) -> Any:
    if x is None or isinstance(x, dict):
        return x
    dump = getattr(x, "model_dump", None)
    return dump(by_alias=True, exclude_none=True) if dump else x


async def cmd_load(a: argparse.Namespace) -> None:
    """`--clients` concurrent clients, closed loop over the request mix for `--secs` seconds."""
    latencies: list[float] = []
    errors = 0
    stop_at = time.monotonic() + a.warmup + a.secs
    count_from = time.monotonic() + a.warmup

    async def one() -> None:
        nonlocal errors
        async with client(a.url, a.version) as c:
            calls = await mix(c, a.skill, a.prompt)
            i = 0
            while time.monotonic() < stop_at:
                name, call = calls[i % len(calls)]
                i += 1
                t = time.monotonic()
                try:
                    with anyio.fail_after(a.call_timeout):
                        answer = await call()
                    bad = failed(name, answer) is not None
                except Exception:  # noqa: BLE001 - counted
                    bad = True
                if t >= count_from:
                    latencies.append(time.monotonic() - t)
                    errors += bad

    async with anyio.create_task_group() as tg:
        for _ in range(a.clients):
            tg.start_soon(one)
    n = len(latencies)
    lat = sorted(latencies)
    p = lambda q: lat[min(n - 1, int(q * n))] * 1000 if n else float("nan")  # noqa: E731
    rps = n / a.secs
    print(f"  {a.version} {a.clients} clients {a.secs:.0f} s: {n} requests, {errors} errors, "
          f"{rps:.0f} req/s, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms")
    result(requests=n, errors=errors, rps=round(rps, 1), p50_ms=round(p(0.5), 2),
           p99_ms=round(p(0.99), 2), mean_ms=round(statistics.fmean(lat) * 1000, 2) if n else None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--call-timeout", type=float, default=5.0)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("calls", "load", "ask"):
        p = sub.add_parser(name)
        p.add_argument("url")
        p.add_argument("version", choices=sorted(MODES))
        p.add_argument("--skill", default="code-review")
        p.add_argument("--prompt", default="code-review")
    calls = sub.choices["calls"]
    # Clients one after the other, each its own session at 2025-11-25.
    calls.add_argument("--sessions", type=int, default=3)
    calls.add_argument("--rounds", type=int, default=10)
    load = sub.choices["load"]
    load.add_argument("--clients", type=int, default=8)
    load.add_argument("--secs", type=float, default=5.0)
    load.add_argument("--warmup", type=float, default=1.0)
    ask = sub.choices["ask"]
    ask.add_argument("--answer", choices=["once", "always", "reject"], default="once")
    edit = sub.add_parser("edit")
    edit.add_argument("file")
    edit.add_argument("marker")
    edit.add_argument("targets", nargs="+", metavar="NAME=URL")
    edit.add_argument("--timeout", type=float, default=15.0)
    edit.add_argument("--streak", type=int, default=6)
    a = ap.parse_args()
    global TIMEOUT
    TIMEOUT = a.call_timeout
    # Bounded whatever happens inside: the script's own timeout is the outer bound.
    anyio.run({"calls": cmd_calls, "edit": cmd_edit, "ask": cmd_ask, "load": cmd_load}[a.cmd], a)


if __name__ == "__main__":
    sys.exit(main())
