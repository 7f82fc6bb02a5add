#!/usr/bin/env bash
# First access to a compressed skill (its text decompressed once) and later accesses, next to
# the stored set, on the 10,000-file tree and the corpus. Prints a Markdown table.
#
#   bench/scripts/first_access.sh [SKILLS]     # default 1000
set -euo pipefail
cd "$(dirname "$0")/../.."
SKILLS_BENCH_SKILLS="${1:-1000}" cargo run --release -q -p skills-bench --bin first_access
