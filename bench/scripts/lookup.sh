#!/usr/bin/env bash
# Lookup speed, side by side, on each tree named (presets of bench/src/treegen.rs; default the
# 10,000-file s1000 and deep1000, whose names are longer and paths deeper and per skill):
# skills by id + path, by name + path (`get` then `load`, and `parse` then `load`), a miss,
# include_dir's get_file and rust-embed's get, in one criterion run per tree. Prints per tree a
# Markdown table of medians (and the fastest sample, which load beside the run disturbs least)
# with the ratios, and the allocations per call.
#
#   bench/scripts/lookup.sh [TREE...]     # default: s1000 deep1000; a number N: N skills of
#                                         # s1000's shape (the script's argument until issue 31)
set -euo pipefail
cd "$(dirname "$0")/../.."
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=(s1000 deep1000)
out="${CARGO_TARGET_DIR:-target}/bench-work/lookup"
mkdir -p "$out"
for tree in "${trees[@]}"; do
  echo "== tree $tree ($(date -u +%FT%TZ), $(git rev-parse --short HEAD), load:$(uptime | sed 's/.*load average://'))"
  case "$tree" in
    *[!0-9]*) preset="$tree" skills='' ;;
    *) preset='' skills="$tree" ;;
  esac
  SKILLS_BENCH_TREE="$preset" SKILLS_BENCH_SKILLS="$skills" cargo bench -p skills-bench --bench lookup -- --noplot \
    2>&1 | tee "$out/criterion-$tree.log"
  python3 - "$out/criterion-$tree.log" "$tree" <<'PY'
import json, os, sys
base = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion", "lookup")
def median(name):
    with open(os.path.join(base, name, "new", "estimates.json")) as f:
        return json.load(f)["median"]["point_estimate"]
def fastest(name):
    with open(os.path.join(base, name, "new", "sample.json")) as f:
        s = json.load(f)
    return min(t / i for t, i in zip(s["times"], s["iters"]))
rows = [
    ("skills: hit by id + path", "skills_id_path"),
    ("skills: hit by name + path (`get`, then `load`)", "skills_name_path"),
    ("skills: hit by name + path (`parse::<SkillId>()`, then `load`)", "skills_parse_path"),
    ("skills: hit by id + path, then `text()`", "skills_id_path_text"),
    ("skills: miss (error lists the skill's paths)", "skills_miss"),
    ("include_dir: `get_file`", "include_dir_get_file"),
    ("rust-embed: `get`", "rust_embed_get"),
    ("rust-embed: miss", "rust_embed_miss"),
]
parts = [
    ("harness alone (pick the query)", "part_harness"),
    ("`skills_embed::__private::check` (the full check; a hit on a stored path skips it)", "part_path_check"),
    ("`SKILLS.get(name)` (hashed names)", "part_skills_get_name"),
    ("`name.parse::<SkillId>()`", "part_parse_id"),
]
embed, embed_min = median("rust_embed_get"), fastest("rust_embed_get")
incl = median("include_dir_get_file")
print()
print(f"Tree `{sys.argv[2]}`:")
print()
print("| lookup | median (ns) | rust-embed `get` / this | fastest sample (ns) | rust-embed / this, fastest | include_dir `get_file` / this |")
print("|---|---:|---:|---:|---:|---:|")
for label, key in rows:
    m, f = median(key), fastest(key)
    print(f"| {label} | {m:,.1f} | {embed/m:,.1f}x | {f:,.1f} | {embed_min/f:,.1f}x | {incl/m:,.0f}x |")
print()
print("| part of a lookup | median (ns) |")
print("|---|---:|")
for label, key in parts:
    print(f"| {label} | {median(key):,.1f} |")
log = open(sys.argv[1]).read()
i = log.find("sizes: ")
if i >= 0:
    print()
    print(log[i:].split("\n\n")[0].split("Benchmarking")[0].split("Testing")[0].strip())
PY
done
