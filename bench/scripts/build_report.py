#!/usr/bin/env python3
"""Turns build_cost.sh's logs into Markdown tables (medians and ratios).

usage: build_report.py RESULTS_DIR PRESET "LIBS"
"""
import statistics
import sys
from pathlib import Path

results, preset, libs = Path(sys.argv[1]), sys.argv[2], sys.argv[3].split()
NAMES = {
    "skills": "skills!",
    "skills_lz4": "skills!(..., compress = true)",
    "include_dir": "include_dir!",
    "rust_embed": "rust-embed (embedding on)",
    "table": "prototype table",
    "blob": "prototype blob",
    "cblob": "prototype blob (safe: const copy_from_slice)",
    "lz4": "prototype lz4 per skill",
    "deflate": "prototype deflate per skill",
    "empty": "empty main",
}

runs = {}  # (kind, lib) -> list of (wall, cpu, rss_kib)
for line in (results / "rustc.log").read_text().splitlines():
    parts = line.split()
    if len(parts) != 8:
        continue
    kind, lib, _round, _crate, wall, user, sys_, rss = parts
    try:
        runs.setdefault((kind, lib), []).append(
            (float(wall), float(user) + float(sys_), int(rss))
        )
    except ValueError:
        pass


def med(kind, lib, i):
    v = [r[i] for r in runs.get((kind, lib), [])]
    return statistics.median(v) if v else float("nan")


def ratio(a, b):
    return a / b if b == b and b else float("nan")


print(f"### Build cost ({preset})\n")
n = max((len(v) for v in runs.values()), default=0)
print(
    f"rustc on the embedding crate alone (dependencies built), release, medians of {n} "
    "interleaved rounds. Wall and CPU are seconds, peak RSS is MB (10^6 bytes).\n"
)
print(
    "| crate | clean: wall | CPU | peak RSS | rebuild after one SKILL.md edit: wall | CPU | peak RSS "
    "| clean wall / include_dir | / rust-embed | peak RSS / include_dir | / rust-embed |"
)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for lib in libs:
    cw, cc, cr = (med("clean", lib, i) for i in range(3))
    ew, ec, er = (med("edit", lib, i) for i in range(3))
    print(
        f"| {NAMES.get(lib, lib)} | {cw:.2f} | {cc:.2f} | {cr / 1000:.0f} | {ew:.2f} | {ec:.2f} | {er / 1000:.0f} "
        f"| {ratio(cw, med('clean', 'include_dir', 0)):.2f} | {ratio(cw, med('clean', 'rust_embed', 0)):.2f} "
        f"| {ratio(cr, med('clean', 'include_dir', 2)):.2f} | {ratio(cr, med('clean', 'rust_embed', 2)):.2f} |"
    )

sizes, raw = {}, None
for line in (results / "sizes.log").read_text().splitlines():
    parts = line.split()
    if parts[0] == "raw":
        raw = tuple(int(x) for x in parts[1:])
        continue
    lib, variant, size = parts[0], parts[1], int(parts[2])
    fields = dict(p.split("=") for p in parts[3:])
    sizes[(lib, variant)] = (size, {k: int(v) for k, v in fields.items()})

raw_tree, files_tree, raw_tiny, files_tiny = raw
files = files_tree - files_tiny
raw_added = raw_tree - raw_tiny
budget = 0.01 * raw_added + 64 * files
empty = sizes.get(("empty", "tiny"), (0, {}))[0]
print(f"\n### Binary size ({preset})\n")
print(
    f"Tree: {files_tree:,} files, {raw_tree:,} raw bytes. Release binaries (not stripped). "
    "Overhead = (binary with the tree - the same crate on a one-file tree) - (raw bytes of the "
    f"tree - raw bytes of the one-file tree). Goal: at most 1% + 64 B per file = {budget:,.0f} bytes.\n"
)
print(
    "| crate | binary | - empty main | - same crate, one-file tree | overhead | overhead / raw | per file "
    "| goal met | R_X86_64_RELATIVE added | per file | .data.rel.ro + .rela.dyn per file | .rodata - raw, per file |"
)
print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|")
for lib in libs:
    if (lib, "tree") not in sizes:
        continue
    size, sec = sizes[(lib, "tree")]
    tiny, sec0 = sizes.get((lib, "tiny"), (0, {}))
    added = size - tiny
    over = added - raw_added
    relocs = sec.get("relocs", 0) - sec0.get("relocs", 0)
    table = sum(sec.get(k, 0) - sec0.get(k, 0) for k in (".data.rel.ro", ".rela.dyn"))
    rodata = sec.get(".rodata", 0) - sec0.get(".rodata", 0) - raw_added
    print(
        f"| {NAMES.get(lib, lib)} | {size:,} | {size - empty:,} | {added:,} | {over:,} | {over / raw_added:.1%} "
        f"| {over / files:.1f} | {'yes' if over <= budget else 'no'} | {relocs:,} | {relocs / files:.2f} "
        f"| {table / files:.1f} | {rodata / files:.1f} |"
    )
