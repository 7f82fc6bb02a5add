#!/usr/bin/env bash
# RUSTC_WRAPPER for the build-cost crates: runs rustc under /usr/bin/time for crates named
# embed_* (when BENCH_RUSTC_LOG is set), appending "crate wall user sys max-rss-KiB" to it.
crate="" prev=""
for a in "$@"; do
  [ "$prev" = "--crate-name" ] && crate="$a"
  prev="$a"
done
if [ -n "${BENCH_RUSTC_LOG:-}" ] && [[ "$crate" == embed_* ]]; then
  exec /usr/bin/time -a -o "$BENCH_RUSTC_LOG" -f "$crate %e %U %S %M" "$@"
fi
exec "$@"
