#!/usr/bin/env bash
# Build cost and binary size, side by side: one small crate per embedding (skills!,
# include_dir!, #[derive(RustEmbed)] with embedding forced on, and the prototype layouts),
# all on the same generated tree, in one cargo workspace under target/bench-work/build-cost.
#
#   bench/scripts/build_cost.sh [PRESET] [ROUNDS] [LIBS]
#     PRESET  s1000 (default: 1,000 skills x 10 files x ~1 KB), deep1000 (the same with 3-4 word
#             names and per-skill paths 2-3 folders deeper), flat1000 (the same as s1000 with
#             every file in its skill's folder, skills at the top), 100mb, s100, s10
#     ROUNDS  rounds of (clean build, rebuild after one SKILL.md edit) per crate, interleaved
#             across crates (default 3); medians are reported
#     LIBS    which crates (default "skills skills_lz4 include_dir rust_embed"; the prototype
#             layouts "table blob cblob lz4" can be added)
#   SKIP_ROUNDS=1 keeps the last timings and only measures sizes again.
#   CGU1=1 builds with `codegen-units = 1` in the release profile (default: cargo's default);
#   results then go to PRESET-cgu1.
#
# rustc's own wall time, CPU time and peak RSS come from /usr/bin/time around rustc
# (bench/scripts/rustc-time.sh as RUSTC_WRAPPER), so cargo's overhead is left out. Dependencies
# are built once first. Results: target/bench-work/build-cost/PRESET[-cgu1]/results.md. The
# generated trees, the bench workspace and gen_tree live under CARGO_TARGET_DIR when set (else
# the repository's target/), the bench crates in a target folder of their own per profile under
# the workspace, shared by the presets' workspaces (dependencies built once).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# Where cargo puts what it builds: CARGO_TARGET_DIR when set.
target="${CARGO_TARGET_DIR:-$repo/target}"
built="$target/release"
preset="${1:-s1000}"
rounds="${2:-3}"
libs="${3:-skills skills_lz4 include_dir rust_embed}"
work="$target/bench-work/build-cost"
cgu1="${CGU1:-0}"
profile_tag=""
[ "$cgu1" = 1 ] && profile_tag="-cgu1"
ws="$work/ws-$preset"
trees="$target/bench-work/trees"
results="$work/$preset$profile_tag"
mkdir -p "$ws" "$trees" "$results"
command -v /usr/bin/time >/dev/null || { echo "install GNU time: apt-get install -y time" >&2; exit 1; }

cargo build --release -q -p skills-bench --bin gen_tree --manifest-path "$repo/Cargo.toml"
gen="$built/gen_tree"
"$gen" "$preset" "$trees/$preset"
"$gen" tiny "$trees/tiny"

lib_deps() {
  case "$1" in
    skills|table|blob|cblob) echo 'skills-embed = { workspace = true }' ;;
    skills_lz4) echo 'skills-embed = { workspace = true, features = ["compress"] }' ;;
    lz4|deflate) printf 'skills-embed = { workspace = true }\nlz4_flex = { workspace = true }\nminiz_oxide = { workspace = true }\n' ;;
    include_dir) echo 'include_dir = { workspace = true }' ;;
    rust_embed) echo 'rust-embed = { workspace = true }' ;;
    empty) ;;
  esac
}

# main.rs of one crate: look a file up by argv and sum its bytes, so that no optimiser can drop
# any of the data (printing only the length let LLVM drop the prototype blob).
lib_main() {
  local lib="$1" tree="$2"
  case "$lib" in
    skills|skills_lz4) cat <<RS
skills_embed::skills!("$tree"$( [ "$lib" = skills_lz4 ] && echo ', compress = true'));
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (name, path) = (a.get(1).map_or("", String::as_str), a.get(2).map_or("", String::as_str));
    match SKILLS.get(name).and_then(|s| s.load(path)) {
        Ok(f) => println!("{}", f.bytes().iter().map(|b| u64::from(*b)).sum::<u64>()),
        Err(e) => println!("{e}"),
    }
    println!("{}", SKILLS.summary().len());
}
RS
    ;;
    include_dir) cat <<RS
static DIR: include_dir::Dir<'static> = include_dir::include_dir!("\$CARGO_MANIFEST_DIR/$tree");
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    println!("{:?}", DIR.get_file(&path).map(|f| f.contents().iter().map(|b| u64::from(*b)).sum::<u64>()));
}
RS
    ;;
    rust_embed) cat <<RS
#[derive(rust_embed::RustEmbed)]
#[folder = "$tree"]
struct Embedded;
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    println!("{:?}", Embedded::get(&path).map(|f| f.data.iter().map(|b| u64::from(*b)).sum::<u64>()));
}
RS
    ;;
    table|blob|cblob) cat <<RS
#[path = "$repo/bench/src/proto_rt.rs"]
mod proto_rt;
include!("index.rs");
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (name, path) = (a.get(1).map_or("", String::as_str), a.get(2).map_or("", String::as_str));
    println!("{:?}", SET.load_by_name(name, path).map(|h| h.bytes.iter().map(|b| u64::from(*b)).sum::<u64>()));
    println!("{}", SET.summary.len());
}
RS
    ;;
    lz4|deflate) cat <<RS
#[path = "$repo/bench/src/proto_rt.rs"]
mod proto_rt;
#[path = "$repo/bench/src/compress_rt.rs"]
mod compress_rt;
include!("index.rs");
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (name, path) = (a.get(1).map_or("", String::as_str), a.get(2).map_or("", String::as_str));
    let hit = SET.index_of(name).and_then(|i| SET.load(i, path));
    println!("{:?}", hit.map(|h| h.bytes.iter().map(|b| u64::from(*b)).sum::<u64>()));
    println!("{}", SET.summary.len());
}
RS
    ;;
    empty) cat <<RS
fn main() {
    println!("{}", std::env::args().count());
}
RS
    ;;
  esac
}

members=()
write_crate() {
  local lib="$1" variant="$2" tree_preset="$3"
  local name="embed-${lib//_/-}-$variant" dir="$ws/embed-${lib//_/-}-$variant"
  mkdir -p "$dir/src"
  members+=("\"embed-${lib//_/-}-$variant\"")
  local new
  new="$(printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n' "$name" "$(lib_deps "$lib")")"
  [ "$(cat "$dir/Cargo.toml" 2>/dev/null)" = "$new" ] || printf '%s\n' "$new" > "$dir/Cargo.toml"
  new="$(lib_main "$lib" "../../../trees/$tree_preset")"
  [ "$(cat "$dir/src/main.rs" 2>/dev/null)" = "$new" ] || printf '%s\n' "$new" > "$dir/src/main.rs"
  case "$lib" in
    table|blob|cblob|lz4|deflate)
      if [ ! -f "$dir/src/index.rs" ]; then
        "$gen" --emit "$lib" "$tree_preset" "$trees/$tree_preset" "$dir/src/index.rs" "$dir/blocks"
      fi ;;
  esac
}
for lib in $libs; do
  write_crate "$lib" tree "$preset"
  write_crate "$lib" tiny tiny
done
write_crate empty tiny tiny
cp "$repo/Cargo.lock" "$ws/Cargo.lock" 2>/dev/null || true
cat > "$ws/Cargo.toml" <<TOML
[workspace]
resolver = "3"
members = [$(IFS=,; echo "${members[*]}")]

[workspace.dependencies]
skills-embed = { path = "$repo/skills" }
include_dir = "0.7"
rust-embed = { version = "8", features = ["debug-embed"] }
lz4_flex = { version = "0.11", default-features = false, features = ["safe-encode", "safe-decode", "std"] }
miniz_oxide = "0.8"
TOML
if [ "$cgu1" = 1 ]; then
  printf '\n[profile.release]\ncodegen-units = 1\n' >> "$ws/Cargo.toml"
fi

export CARGO_TARGET_DIR="$work/target$profile_tag"
export RUSTC_WRAPPER="$repo/bench/scripts/rustc-time.sh"
export CARGO_INCREMENTAL=0
cd "$ws"
echo "== warm-up: dependencies and every crate once"
cargo build --release --workspace -q 2>&1 | grep -E "^error" -A5 || true

# One edit to one SKILL.md body, same length (so the prototypes' offsets stay right).
first_manifest="$(find "$trees/$preset" -name SKILL.md | sort | sed -n 1p)"
toggle_edit() {
  if grep -q '^Read \[the guide\]' "$first_manifest"; then
    sed -i 's/^Read \[the guide\]/Dead [the guide]/' "$first_manifest"
  else
    sed -i 's/^Dead \[the guide\]/Read [the guide]/' "$first_manifest"
  fi
}

log="$results/rustc.log"
[ "${SKIP_ROUNDS:-0}" = 1 ] && rounds=0 || : > "$log"
export BENCH_RUSTC_LOG
for r in $(seq 1 "$rounds"); do
  for lib in $libs; do
    pkg="embed-${lib//_/-}-tree"
    cargo clean --release -q -p "$pkg"
    BENCH_RUSTC_LOG="$results/clean.$lib.$r"
    : > "$BENCH_RUSTC_LOG"
    cargo build --release -q -p "$pkg" 2>/dev/null
    echo "clean $lib $r $(tail -1 "$BENCH_RUSTC_LOG")" | tee -a "$log"
    toggle_edit
    BENCH_RUSTC_LOG="$results/edit.$lib.$r"
    : > "$BENCH_RUSTC_LOG"
    cargo build --release -q -p "$pkg" 2>/dev/null
    echo "edit $lib $r $(tail -1 "$BENCH_RUSTC_LOG")" | tee -a "$log"
  done
done
unset BENCH_RUSTC_LOG
# Leave the tree as generated.
grep -q '^Dead \[the guide\]' "$first_manifest" && toggle_edit
cargo build --release --workspace -q 2>/dev/null

# Sizes.
sizes="$results/sizes.log"
: > "$sizes"
for lib in $libs empty; do
  for variant in tree tiny; do
    bin="$CARGO_TARGET_DIR/release/embed-${lib//_/-}-$variant"
    [ -f "$bin" ] || continue
    relocs="$(readelf -rW "$bin" | grep -c 'R_X86_64_RELATIVE' || true)"
    sections="$(readelf -SW "$bin" | python3 -c '
import re, sys
for line in sys.stdin:
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if m and m.group(1) in (".rodata", ".data.rel.ro", ".rela.dyn", ".text", ".data", ".eh_frame"):
        print(f"{m.group(1)}={int(m.group(2), 16)}", end=" ")
')"
    echo "$lib $variant $(stat -c %s "$bin") relocs=$relocs $sections" | tee -a "$sizes"
  done
done
raw() { find "$1" -type f ! -name .tree-spec -printf '%s\n' | awk '{s+=$1} END {print s}'; }
files() { find "$1" -type f ! -name .tree-spec | wc -l; }
echo "raw $(raw "$trees/$preset") $(files "$trees/$preset") $(raw "$trees/tiny") $(files "$trees/tiny")" | tee -a "$sizes"

python3 "$repo/bench/scripts/build_report.py" "$results" "$preset$profile_tag" "$libs" | tee "$results/results.md"
