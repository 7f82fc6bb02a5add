#!/usr/bin/env bash
# Lookup speed, side by side, on the 10,000-file tree (1,000 skills x 10 files x ~1 KB):
# skills by id + path and by name + path, a miss, include_dir's
# get_file and rust-embed's get, in one criterion run. Prints a Markdown table of medians and
# ratios, and the allocations per call.
#
#   bench/scripts/lookup.sh [SKILLS]     # default 1000
set -euo pipefail
cd "$(dirname "$0")/../.."
skills="${1:-1000}"
out=target/bench-work/lookup
mkdir -p "$out"
SKILLS_BENCH_SKILLS="$skills" cargo bench -p skills-bench --bench lookup -- --noplot \
  2>&1 | tee "$out/criterion.log"
python3 - "$out/criterion.log" <<'PY'
import json, os, sys, re
base = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion", "lookup")
def median(name):
    with open(os.path.join(base, name, "new", "estimates.json")) as f:
        return json.load(f)["median"]["point_estimate"]
rows = [
    ("skills: hit by id + path", "skills_id_path"),
    ("skills: hit by name + path", "skills_name_path"),
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
embed = median("rust_embed_get")
incl = median("include_dir_get_file")
print()
print("| lookup | median (ns) | rust-embed `get` / this | include_dir `get_file` / this |")
print("|---|---:|---:|---:|")
for label, key in rows:
    m = median(key)
    print(f"| {label} | {m:,.1f} | {embed/m:,.1f}x | {incl/m:,.0f}x |")
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
