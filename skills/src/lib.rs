//! Agent Skills baked into your binary: checked by the compiler, typed, served by path.
//!
//! [`skills!`] reads a folder of skills when your crate compiles, checks every `SKILL.md`
//! against the Agent Skills rules (a broken skill is a compile error naming the file, the line
//! and the rule; every problem at once), and embeds every file. It generates a closed `SkillId`
//! enum, whose JSON Schema is the enum of skill names, and a `SKILLS` static ([`SkillSet`])
//! that serves bodies and resources by path and answers a miss with the list of what exists.
//!
//! ```
//! skills_embed::skills!("examples/skills");
//!
//! // L1: the listing for the system prompt, rendered at compile time.
//! assert!(SKILLS.summary().starts_with("- brand-guidelines: "));
//!
//! // L2: a body, by the generated id or by the name a model sends.
//! let body = SKILLS.skill(SkillId::CodeReview).load("SKILL.md").unwrap();
//! assert!(body.text().unwrap().starts_with('#'));
//! let id: SkillId = "code-review".parse().unwrap();
//! assert_eq!(SKILLS.get("code-review").unwrap().name(), id.name());
//!
//! // L3: a resource; a miss lists every path of the skill.
//! assert!(SKILLS.skill(id).load("references/checklist.md").is_ok());
//! let miss = SKILLS.skill(id).load("checklist.md").unwrap_err().to_string();
//! assert!(miss.contains(r#"Did you mean "references/checklist.md"?"#));
//! ```
//!
//! # Where to look
//!
//! | to ... | use |
//! |---|---|
//! | embed a folder, checked when the crate compiles | [`skills!`] |
//! | get a skill, its body, a resource or a chunk | [`SkillSet`], [`Skill`], [`Loaded`] |
//! | build a skill at run time | [`Skill::owned`] with [`Fields`] and [`File`] |
//! | act on a miss | [`SkillError`]: its text lists what exists |
//! | write the L1 listing into a prompt | [`SkillSet::summary`], [`SkillSet::listing`] with [`listing::ListingOptions`] (formats, budgets) |
//! | offer tools to a model and answer its calls | [`tools::Tools`], [`tools`] (definitions, `Session`, disclosure modes) |
//! | let the user invoke a skill (`/name args`) | [`invoke`] |
//! | give a skill scripts written in Rust, run through the run tool | `skills!(..., scripts = {...})`, [`Script`], [`SkillSet::scripts`]; script files run by the host: [`tools::FileRunner`] |
//! | decide who may load what, remember approvals | [`policy`] |
//! | validate SKILL.md files; read a scanned folder into a set | `parse`, `load` (feature `parse`) |
//! | load skills from disk, reload, extract scripts | `disk` (feature `fs`) |
//! | install skills into coding agents' folders (`mytool skill install`) | `disk::Install` (feature `fs`), `SkillCommand` (feature `install`) |
//! | serve over MCP (stdio, or Streamable HTTP with `mcp-http`) | `mcp` (feature `mcp`) |
//! | a rig tool | `rig` (feature `rig`) |
//!
//! # Features
//!
//! - `parse`: the validator and folder scanner (`parse`), the same code the macro runs.
//! - `fs`: skills from disk at run time: discovery, an overlay on the embedded set with reload,
//!   extraction of a skill's files for running its scripts (`disk`).
//! - `watch`: a background thread that reloads an overlay when its folders change.
//! - `install`: `SkillCommand`, the `skill install|status|uninstall` subcommand a binary mounts
//!   (on clap) to hand its skills to the coding agents its users run (`disk::Install`).
//! - `mcp`: an MCP server for any skill set (`mcp`, on rmcp).
//! - `mcp-http`: the MCP server over Streamable HTTP (`McpServer::serve_http`, on axum and
//!   hyper): loopback hosts, `Origin` checks, bearer tokens, body and in-flight limits,
//!   graceful shutdown.
//! - `rig`: the load tool as a rig `Tool` (`rig`, on rig-core 0.44; needs Rust 1.95).
//! - `compress`: `skills!(..., compress = true)` stores each skill's text LZ4-compressed and
//!   decompresses it once, on first access (lz4_flex, no unsafe code).
//! - `cli`: the `skills` command-line tool (`validate`, `list`, `prompt`, `schema`, `call`,
//!   `read`, `invoke`, `extract`, `serve`), also as [`run_cli`] in a binary of your own with
//!   your Rust scripts.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets `::skills_embed::...` paths in generated code resolve inside this crate's own doctests.
extern crate self as skills_embed;

pub use skills_embed_runtime::{
    ClientFields, CodexInterface, CodexTool, Fields, File, Loaded, Script, ScriptError, Skill,
    SkillError, SkillIdentifier, SkillSet,
};
pub use skills_embed_runtime::{invoke, listing, policy, tools};

#[cfg(feature = "fs")]
#[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
pub use skills_embed_runtime::disk;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use skills_embed_runtime::mcp;
#[cfg(feature = "package")]
#[cfg_attr(docsrs, doc(cfg(feature = "package")))]
pub use skills_embed_runtime::package;
#[cfg(feature = "rig")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig")))]
pub use skills_embed_runtime::rig;
#[cfg(feature = "parse")]
#[cfg_attr(docsrs, doc(cfg(feature = "parse")))]
pub use skills_embed_runtime::{load, parse};

#[doc(hidden)]
pub use skills_embed_runtime::__private;

// The command-line tool's code, in the library so that the workspace's tests can build the same
// tool as a binary of their own (a test can only run its own package's binaries).
#[cfg(feature = "cli")]
mod cli;

#[cfg(feature = "install")]
mod skill_command;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub use cli::main as __cli_main;
#[cfg(feature = "install")]
#[cfg_attr(docsrs, doc(cfg(feature = "install")))]
pub use skill_command::SkillCommand;

/// The `skills` command-line tool with your Rust scripts: a binary of your own whose `main`
/// calls this validates, lists, calls and serves folders exactly as `skills` does, and its
/// `call`, `schema` and `serve` run your scripts for the skills of those names. Skill authors
/// try a script with it before shipping:
///
/// ```no_run
/// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct Invoice { lines: Vec<u64>, tax_percent: u64 }
/// # fn invoice_total(_: Invoice) -> Result<u64, String> { Ok(0) }
/// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct S { amount_cents: u64, people: u64 }
/// # fn split_evenly(_: S) -> Result<u64, String> { Ok(0) }
/// # async fn convert(_: S) -> Result<u64, String> { Ok(0) }
/// // src/bin/my-skills.rs; run as
/// // my-skills call skills/ run_skill_script '{"script": "invoice-totals/invoice_total", "args": {...}}'
/// skills_embed::skills!(
///     "examples/script_skills",
///     scripts = { "invoice-totals" => [invoice_total, split_evenly, async convert] },
/// );
///
/// fn main() -> std::process::ExitCode {
///     skills_embed::run_cli(SKILLS.scripts().iter().cloned())
/// }
/// ```
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub fn run_cli(scripts: impl IntoIterator<Item = Script>) -> std::process::ExitCode {
    cli::main_with(scripts)
}

/// Embeds a folder of Agent Skills, validated when the crate compiles.
///
/// ```
/// skills_embed::skills!("examples/skills");
///
/// assert_eq!(SkillId::ALL.len(), 5);
/// assert_eq!(SkillId::PdfForms.name(), "pdf-forms");
/// let script = SKILLS.skill(SkillId::ReleaseNotes).load("scripts/changelog.sh").unwrap();
/// assert!(script.is_executable());
/// ```
///
/// The path is relative to the crate's `CARGO_MANIFEST_DIR`. Any folder below it holding a
/// `SKILL.md` is a skill (category folders may nest them); every other file below a skill's
/// folder is one of its resources, except dot-files and the files of a nested skill.
///
/// # What it generates
///
/// - `pub enum SkillId`: one variant per skill, in the order of their names (`pdf-tools` →
///   `PdfTools`), with `ALL`, `name()`, `Display`, `FromStr` (the error lists the names),
///   serde as the name string, and a JSON Schema `{"type":"string","enum":[names...]}`.
/// - `pub static SKILLS: skills_embed::SkillSet<SkillId>`: every file embedded (`include_bytes!` per
///   resource, each body as a literal; editing any rebuilds the crate) in one compact index, and
///   the L1 listing as a `&'static str`.
///
/// # Options
///
/// After the path, `key = value` pairs separated by commas:
///
/// | option | default | meaning |
/// |---|---|---|
/// | `profile = strict \| lenient` | `strict` | which rules are errors; lenient warnings are compiler warnings (`#[allow(deprecated)]` silences them) |
/// | `dialects = [claude_code, codex, opencode]` | none | client fields to accept as known fields in any profile: their types are checked (a wrong type is a `client-field-type` error) and they set who may invoke each skill (a skill the model may not invoke is left out of `summary()` and of the enum's JSON Schema); also as strings, `dialects = ["claude-code"]` |
/// | `enum_name = Ident` | `SkillId` | the enum's name |
/// | `static_name = IDENT` | `SKILLS` | the static's name |
/// | `include = ["glob", ...]` | every file | resources to embed, globs relative to each skill's folder |
/// | `exclude = ["glob", ...]` | none | resources to leave out |
/// | `dotfiles = true \| false` | `false` | embed files and folders whose name starts with `.` |
/// | `summary = markdown \| xml` | `markdown` | the format of `SKILLS.summary()` |
/// | `max_depth = N \| none` | `128` | how many levels below the folder any file is read; a folder there that holds more gets a `scan-limit` warning |
/// | `max_entries = N \| none` | `100_000` | files and folders read in all; the walk stops at the cap with a `scan-limit` warning |
/// | `max_skill_entries = N \| none` | `10_000` | files and folders read per skill; the rest of a skill over it are left out with a `scan-limit` warning |
/// | `unreferenced_files = true \| false` | `false` | warn (`unreferenced-file`) about each file nothing in its skill refers to |
/// | `compress = true \| false` | `false` | LZ4-compress each skill's text when the crate compiles (feature `compress`); decompressed once per skill on first access |
/// | `scripts = { "skill" => [function, async function, ...], ... }` | none | Rust functions that are the skills' scripts (see [Rust scripts](#rust-scripts)) |
/// | `crate = path` | this crate, whatever your Cargo.toml calls it | where generated code finds this crate; for a crate that re-exports it, e.g. `crate = ::agent_kit::skills_embed` |
///
/// ```
/// mod docs {
///     skills_embed::skills!(
///         "examples/skills",
///         enum_name = DocSkill,
///         static_name = DOCS,
///         include = ["**/*.md"],
///         summary = xml,
///     );
/// }
/// use docs::{DOCS, DocSkill};
/// assert!(DOCS.summary().starts_with("<available_skills>"));
/// // Only Markdown resources were embedded.
/// assert!(DOCS.skill(DocSkill::ReleaseNotes).paths().all(|p| p.ends_with(".md")));
/// ```
///
/// # Rust scripts
///
/// A skill's scripts can be Rust functions, run inside your binary through the run tool
/// ([`tools::Tools`] offers `run_skill_script` when a visible skill has one): no interpreter, no files,
/// no shell. A function `fn(A) -> Result<T, E>` (or an `async fn`, given up after
/// [`Settings::script_timeout`](tools::Settings::script_timeout)) becomes a script named
/// after it; `A` is its arguments (`serde::Deserialize` and `schemars::JsonSchema`: the model
/// is shown `A`'s JSON Schema, and `A`'s doc comment describes the script), `T` and `E` are
/// shown as text. A SKILL.md body names a script with a link whose target is `script:NAME`,
/// e.g. `[fill the form](script:fill_form)`.
///
/// When the crate compiles, `skills!` checks that every skill named in `scripts` exists and
/// gets each script once (`script-skill`), and that every `script:NAME` link of a body names a
/// script registered for its skill (`script-reference`, at the link's file, line and column);
/// the compiler checks each function's types. Nothing is registered at start-up: the table is
/// a `static` inside `SKILLS` ([`SkillSet::scripts`]).
///
/// ```
/// /// Totals an invoice.
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Invoice { lines: Vec<u64>, tax_percent: u64 }
/// fn invoice_total(i: Invoice) -> Result<u64, String> {
///     let subtotal: u64 = i.lines.iter().sum();
///     Ok(subtotal + subtotal * i.tax_percent / 100)
/// }
/// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct S { amount_cents: u64, people: u64 }
/// # fn split_evenly(s: S) -> Result<u64, String> { s.amount_cents.checked_div(s.people).ok_or("no people".into()) }
/// # async fn convert(s: S) -> Result<u64, String> { Ok(s.amount_cents) }
/// skills_embed::skills!(
///     "examples/script_skills",
///     scripts = { "invoice-totals" => [invoice_total, split_evenly, async convert] },
/// );
///
/// let tools = skills_embed::tools::Tools::new(&SKILLS, skills_embed::tools::Settings::default());
/// let out = tools.handle(
///     "run_skill_script",
///     r#"{"script": "invoice-totals/invoice_total", "args": {"lines": [1000, 500], "tax_percent": 20}}"#,
/// );
/// assert!(out.text.ends_with("1800"), "{}", out.text);
/// ```
///
/// A link to a script that is not registered is a compile error at the link:
///
/// ```text
/// error: examples/script_skills/invoice-totals/SKILL.md:7:59: error[script-reference]: the body
///        links to the Rust script `invoice_total`, but skill "invoice-totals" has no scripts;
///        register the function: skills!(..., scripts = { "invoice-totals" => [invoice_total] })
/// ```
///
/// # Errors
///
/// Every problem in every skill is a compile error, `FILE:LINE:COL: error[RULE]: message`;
/// the enum and the static are still generated for every skill whose name could be read, so the
/// rest of your code does not fail with them.
///
/// A skill whose `SKILL.md` says `name: Demo` fails with
/// `skills/Demo/SKILL.md:2:1: error[name-case]: name "Demo" must be lowercase: use "demo"`;
/// a folder that is not there names the folder it looked in:
///
/// ```compile_fail
/// // error: error[missing-path]: no such file or folder: /abs/path/of/your/crate/no-such-folder
/// skills_embed::skills!("no-such-folder");
/// ```
///
/// # Files added later
///
/// Cargo cannot see a file added to the folder on stable Rust. A build script with one line
/// makes it rescan the folder:
///
/// ```no_run
/// // build.rs
/// fn main() {
///     println!("cargo::rerun-if-changed=skills");
/// }
/// ```
// The build.rs sample is a whole file, so its `fn main` is the point.
#[allow(clippy::needless_doctest_main)]
#[macro_export]
macro_rules! skills {
    ($($input:tt)*) => {
        // `$crate` is this crate under whatever name the caller's Cargo.toml gives it, so the
        // generated code needs no knowledge of the dependency key.
        $crate::__skills_impl! { [$crate] $($input)* }
    };
}

#[doc(hidden)]
pub use skills_embed_macros::skills as __skills_impl;
