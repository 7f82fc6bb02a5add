//! The compression prototype on trees on disk: `compress LABEL=DIR...` prints a Markdown table
//! (ratios, compression time, first-access decompression time per block).

use std::path::Path;

use skills_bench::compress::measure;

fn main() {
    println!(
        "| tree | codec | blocks | text bytes | compressed | text ratio | whole tree ratio | compress (ms) | first access, median block (µs) | slowest block (µs) |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for arg in std::env::args().skip(1) {
        let (label, dir) = arg.split_once('=').unwrap_or((arg.as_str(), arg.as_str()));
        let rows = measure(Path::new(dir)).expect("reading the tree");
        for r in rows {
            println!(
                "| {label} | {:?} per {:?} | {} | {} | {} | {:.3} | {:.3} | {:.1} | {:.1} | {:.1} |",
                r.codec,
                r.granularity,
                r.blocks,
                r.text_bytes,
                r.compressed_bytes,
                r.text_ratio(),
                r.total_ratio(),
                r.compress_ms,
                r.first_access_us,
                r.first_access_max_us,
            );
        }
    }
}
