//! Token economy of skill folders (o200k): `tokens LABEL=DIR...` prints a Markdown table.

use std::path::Path;

use skills_bench::tokens::measure;
use skills_embed::__private::scan;
use skills_embed::listing::ListingFormat;
use skills_embed::parse::ScanOptions;

fn main() {
    let bpe = tiktoken_rs::o200k_base().expect("the o200k vocabulary ships with tiktoken-rs");
    println!(
        "| set | skills | name+description | L1 Markdown | per skill beyond name+description | L1 XML | per skill | reference XML with `<location>` | per skill | Progressive first turn (of which tool definitions) | Progressive, reference XML | Eager (all bodies) | Eager (matched, avg) | saving of Progressive over Eager (all) | saving, reference XML |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for arg in std::env::args().skip(1) {
        let (label, dir) = arg.split_once('=').unwrap_or((arg.as_str(), arg.as_str()));
        let mut tree = scan(Path::new(dir), &ScanOptions::default());
        let (set, diagnostics) =
            skills_embed::__private::set_of(&mut tree, &ListingFormat::Markdown);
        if let Some(d) = diagnostics.iter().find(|d| d.is_error()) {
            eprintln!("{dir}: {d}");
        }
        let r = measure(&bpe, &set);
        println!(
            "| {label} | {} | {} | {} | {:.1} | {} | {:.1} | {} | {:.1} | {} ({}) | {} | {} | {:.0} | {:.1}% | {:.1}% |",
            r.skills,
            r.names_and_descriptions,
            r.l1_markdown,
            r.markdown_overhead(),
            r.l1_xml,
            r.xml_overhead(),
            r.l1_xml_located,
            r.xml_located_overhead(),
            r.progressive,
            r.tool_definitions,
            r.progressive_reference,
            r.eager_all,
            r.eager_matched,
            r.saving() * 100.0,
            r.saving_reference() * 100.0,
        );
    }
}
