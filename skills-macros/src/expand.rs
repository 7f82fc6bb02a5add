//! Code generation: the `SkillId` enum, the `SKILLS` static with one `include_str!` or
//! `include_bytes!` per file, and one compile error or warning per diagnostic.
//!
//! The enum and the static are always generated, with a variant for every skill whose name
//! could be read (or its folder's name), so one broken skill does not turn into errors in the
//! user's code that names the others.

use std::path::{Path, PathBuf};

use proc_macro2::{Literal, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use skills_embed_runtime::__private::{SkillSource, Tree, scan};
use skills_embed_runtime::Fields;
use skills_embed_runtime::listing::{self, Entry};
use skills_embed_runtime::parse::{Diagnostic, Rule, ScanOptions};
use syn::{Ident, LitStr};

use crate::ast::{Input, Options};
use crate::ctxt::Ctxt;
use crate::valid;

/// The environment variable that, when set, replaces `CARGO_MANIFEST_DIR` as the base of the
/// path. trybuild compiles each case as a crate of its own under `target/tests/trybuild/`, far
/// from the skills; a test that pins `skills!` errors sets it to its own crate's folder.
const BASE_DIR_VAR: &str = "SKILLS_EMBED_BASE_DIR";

pub(crate) fn expand(input: Input) -> TokenStream {
    let mut cx = Ctxt::default();
    let span = input.path.span();
    let base = base_dir();
    let root = base.join(input.path.value());
    let tree = match root.to_str() {
        Some(_) => scan(&root, &scan_options(&input.options)),
        None => {
            cx.error_at(span, "the skills folder's absolute path is not valid UTF-8");
            Tree::default()
        }
    };
    let mut warnings = Vec::new();
    for d in &tree.diagnostics {
        let shown = d.relative_to(&base);
        if !d.is_error() {
            warnings.push(shown.to_string());
        } else if d.rule == Rule::MissingPath {
            cx.error_at(
                span,
                format!(
                    "{shown} (the path is relative to CARGO_MANIFEST_DIR, or to {BASE_DIR_VAR} \
                     when that is set, as a trybuild test does)"
                ),
            );
        } else {
            cx.error_at(span, &shown);
        }
    }
    let skills: Vec<&SkillSource> = tree.skills.iter().collect();
    let names: Vec<String> = skills.iter().map(|s| s.name()).collect();
    let (variants, collisions) = valid::assign_variants(names.iter().map(String::as_str));
    for valid::Collision {
        kept,
        dropped,
        variant,
    } in &collisions
    {
        let d = Diagnostic::path_error(
            Rule::VariantCollision,
            &root,
            format!(
                "skills \"{kept}\" and \"{dropped}\" would both be the enum variant `{variant}`; rename one"
            ),
        );
        cx.error_at(span, d.relative_to(&base));
    }
    let kept: Vec<(&SkillSource, &str, Ident)> = skills
        .iter()
        .zip(&names)
        .zip(variants)
        .filter_map(|((s, n), v)| Some((*s, n.as_str(), format_ident!("{}", v?))))
        .collect();

    // Skills the model may not invoke are left out of the listing (the host still has them).
    let summary = listing::summary(
        kept.iter()
            .filter(|(s, ..)| s.valid && model_may_invoke(s))
            .map(|(s, name, _)| {
                let fields = s.manifest.as_ref().map(|m| &m.fields);
                Entry {
                    name,
                    description: fields.map_or("", |f| f.description.as_str()),
                    when_to_use: fields.and_then(|f| f.client.when_to_use.as_deref()),
                    ..Entry::default()
                }
            }),
        &input.options.summary,
    );
    let folder = input.path.value();
    let enum_tokens = expand_enum(&input.options, &folder, &kept);
    let script_tokens = expand_scripts(&input.options, &kept, &root, &base, span, &mut cx);
    let static_tokens = expand_static(
        &input.options,
        &folder,
        &kept,
        &summary,
        &script_tokens,
        &mut cx,
    );
    let warning_tokens = expand_warnings(&warnings, span);
    let errors = cx.into_compile_errors();
    quote! {
        #enum_tokens
        #static_tokens
        #warning_tokens
        #errors
    }
}

/// Whether the model may invoke a skill, as its client fields say.
fn model_may_invoke(source: &SkillSource) -> bool {
    source
        .manifest
        .as_ref()
        .is_none_or(|m| m.fields.invocation.model_may_invoke)
}

fn base_dir() -> PathBuf {
    std::env::var_os(BASE_DIR_VAR)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
        .unwrap_or_default()
}

fn scan_options(options: &Options) -> ScanOptions {
    ScanOptions {
        profile: options.profile,
        dialects: options.dialects.clone(),
        include: options.include.clone(),
        exclude: options.exclude.clone(),
        dotfiles: options.dotfiles,
        max_depth: None,
        follow_symlinks: true,
        max_dirs: None,
        // The size limits and the walk caps are the options' (the caps on by default, as in
        // the CLI and discovery).
        ..options.limits.clone()
    }
}

fn expand_enum(
    options: &Options,
    folder: &str,
    kept: &[(&SkillSource, &str, Ident)],
) -> TokenStream {
    let krate = &options.krate;
    let name = &options.enum_name;
    let static_name = &options.static_name;
    let variants = kept.iter().map(|(s, skill_name, variant)| {
        let doc = format!(
            "`{skill_name}`: {}",
            first_sentence(
                s.manifest
                    .as_ref()
                    .map_or("", |m| m.fields.description.as_str())
            )
        );
        quote! { #[doc = #doc] #variant, }
    });
    let idents: Vec<&Ident> = kept.iter().map(|(_, _, v)| v).collect();
    let skill_names = kept.iter().map(|(_, n, _)| *n);
    let enum_doc = format!(
        "One variant per skill embedded from `{folder}` by `skills!`, in the order of their names.\n\n\
         Its JSON Schema is `{{\"type\":\"string\",\"enum\":[...names...]}}`, so a model can only name a skill that exists; \
         skills the model may not invoke (`disable-model-invocation` and the like) keep their variant but are left out of the schema."
    );
    quote! {
        #[doc = #enum_doc]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub enum #name {
            #(#variants)*
        }

        impl #name {
            /// Every skill, sorted by name.
            pub const ALL: &'static [#name] = &[#(#name::#idents),*];

            /// The skill's name, as the model sends it.
            pub const fn name(self) -> &'static str {
                match self { #(#name::#idents => #skill_names,)* }
            }
        }

        impl #krate::SkillIdentifier for #name {
            const ALL: &'static [#name] = #name::ALL;
            fn name(self) -> &'static str {
                #name::name(self)
            }
            fn index(self) -> usize {
                // The variants carry no data and no explicit discriminants: 0, 1, 2... in
                // name order, which is the set's order.
                self as usize
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::core::str::FromStr for #name {
            type Err = #krate::SkillError;
            #[inline]
            fn from_str(name: &str) -> ::core::result::Result<Self, Self::Err> {
                #krate::__private::parse_id_in(&#static_name, name)
            }
        }

        impl #krate::__private::serde::Serialize for #name {
            fn serialize<S: #krate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                #krate::__private::serialize_id(*self, serializer)
            }
        }

        impl<'de> #krate::__private::serde::Deserialize<'de> for #name {
            fn deserialize<D: #krate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #krate::__private::deserialize_id(deserializer)
            }
        }

        impl #krate::__private::schemars::JsonSchema for #name {
            // Inline, not a `$ref`: several model APIs handle references badly.
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> #krate::__private::Cow<'static, str> {
                #krate::__private::Cow::Borrowed(::core::stringify!(#name))
            }
            fn json_schema(
                _: &mut #krate::__private::schemars::SchemaGenerator,
            ) -> #krate::__private::schemars::Schema {
                #krate::__private::id_schema_in(&#static_name)
            }
        }
    }
}

/// The `SCRIPTS` table of `scripts = {...}`, sorted by skill and name, after checking that each
/// named skill exists, that no skill gets one script name twice, and that every
/// `[...](script:NAME)` link of a body names a script registered for its skill. Entries that
/// fail a check are left out, so the rest still compiles.
fn expand_scripts(
    options: &Options,
    kept: &[(&SkillSource, &str, Ident)],
    root: &Path,
    base: &Path,
    span: Span,
    cx: &mut Ctxt,
) -> TokenStream {
    let krate = &options.krate;
    let names: Vec<&str> = kept.iter().map(|(_, name, _)| *name).collect();
    // (skill, script name, tokens), then sorted.
    let mut entries: Vec<(String, String, TokenStream)> = Vec::new();
    for group in &options.scripts {
        let skill = group.skill.value();
        if !names.contains(&skill.as_str()) {
            let mut message = format!(
                "`scripts` names skill \"{skill}\", which is not among the skills: {}.",
                names.join(", ")
            );
            if let Some(near) =
                skills_embed_runtime::__private::closest_of(&skill, names.iter().copied())
            {
                message.push_str(&format!(" Did you mean \"{near}\"?"));
            }
            let d = Diagnostic::path_error(Rule::ScriptSkill, root, message);
            cx.error_spanned_by(&group.skill, d.relative_to(base));
            continue;
        }
        for script in &group.scripts {
            let name = script.name();
            if entries.iter().any(|(s, n, _)| *s == skill && *n == name) {
                let d = Diagnostic::path_error(
                    Rule::ScriptSkill,
                    root,
                    format!(
                        "skill \"{skill}\" is given the script `{name}` twice; give each script once"
                    ),
                );
                cx.error_spanned_by(&script.path, d.relative_to(base));
                continue;
            }
            let path = &script.path;
            let adapter = if script.is_async {
                quote!(AsyncScript)
            } else {
                quote!(FnScript)
            };
            // Spanned by the path, and the bounds are on `new`'s argument, so a function whose
            // types do not fit (an argument type without `JsonSchema`, a result that is not a
            // `Result`) is pointed at, not the whole macro call.
            let tokens = quote::quote_spanned! {path_span(path)=>
                #krate::__private::script(#skill, #name, &#krate::__private::#adapter::new(#path))
            };
            entries.push((skill.clone(), name, tokens));
        }
    }
    for (source, name, _) in kept {
        let Some(manifest) = &source.manifest else {
            continue;
        };
        let body = source
            .text
            .get(manifest.body_start..source.body_end)
            .unwrap_or("");
        let lines_before = source.text[..manifest.body_start.min(source.text.len())]
            .matches('\n')
            .count();
        let registered: Vec<&str> = entries
            .iter()
            .filter(|(s, ..)| s == name)
            .map(|(_, n, _)| n.as_str())
            .collect();
        // The body's links as the validator reads them (one scanner): those naming `script:`.
        for reference in skills_embed_runtime::__private::references(body) {
            let Some(script) = reference.script() else {
                continue;
            };
            let problem = if !skills_embed_runtime::__private::is_script_name(script) {
                format!(
                    "the link target `script:{script}` is not a Rust script's name (letters, digits and `_`), \
                     e.g. [fill the form](script:fill_form)"
                )
            } else if registered.contains(&script) {
                continue;
            } else if registered.is_empty() {
                format!(
                    "the body links to the Rust script `{r}`, but skill \"{name}\" has no scripts; \
                     register the function: skills!(..., scripts = {{ \"{name}\" => [{r}] }})",
                    r = script
                )
            } else {
                format!(
                    "the body links to the Rust script `{}`, which is not registered for skill \"{name}\"; \
                     its scripts are: {}",
                    script,
                    registered.join(", ")
                )
            };
            let d = Diagnostic::error(
                Rule::ScriptReference,
                &source.manifest_path,
                lines_before + reference.line,
                reference.column,
                problem,
            );
            cx.error_at(span, d.relative_to(base));
        }
    }
    entries.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let len = lit(entries.len());
    let tokens = entries.iter().map(|(.., t)| t);
    quote! {
        #[doc = " Every Rust script, sorted by skill, then name: its skill, its name, its function."]
        static SCRIPTS: [#krate::Script; #len] = [#(#tokens),*];
    }
}

/// The span of a path, for errors about the function it names.
fn path_span(path: &syn::Path) -> Span {
    syn::spanned::Spanned::span(path)
}

fn expand_static(
    options: &Options,
    folder: &str,
    kept: &[(&SkillSource, &str, Ident)],
    summary: &str,
    scripts: &TokenStream,
    cx: &mut Ctxt,
) -> TokenStream {
    let krate = &options.krate;
    let enum_name = &options.enum_name;
    let static_name = &options.static_name;
    let mut strings = Strings::new(summary);
    let mut files = Vec::new();
    let mut entries = Vec::new();
    let mut metadata = Vec::new();
    let mut tools = Vec::new();
    let mut chunks = Vec::new();
    let mut ranges = Vec::new();
    let mut packed = Vec::new();
    let mut blocks = Vec::new();
    let mut watched = Vec::new();
    let no_fields = Fields::default();
    let mut name_spans = Vec::with_capacity(kept.len());
    for (s, name, _) in kept {
        // The validator's fields, as the disk loader hands them to a `Skill`.
        let m = s.manifest.as_ref().map_or(&no_fields, |m| &m.fields);
        // Only the skills in the listing have their name and description there.
        let listed = s.valid && m.invocation.model_may_invoke;
        let (name_span, description) = if listed {
            (strings.listed_raw(name), strings.listed_raw(&m.description))
        } else {
            (strings.intern_raw(name), strings.intern_raw(&m.description))
        };
        name_spans.push(name_span);
        let policy = skills_embed_runtime::__private::invocation_flags(&m.invocation);
        let argument_hint = strings.optional_raw(m.invocation.argument_hint.as_deref());
        let arguments = if m.invocation.arguments.is_empty() {
            (0, 0)
        } else {
            strings.intern_raw(&m.invocation.arguments.join(" "))
        };
        let license = strings.optional_raw(m.license.as_deref());
        let compatibility = strings.optional_raw(m.compatibility.as_deref());
        // Canonical JSON text from the validator, embedded as is: the disk loader holds the same
        // bytes, so both give one `content_digest`.
        let extra = strings.intern_raw(&m.extra);
        let when_to_use = strings.optional_raw(m.client.when_to_use.as_deref());
        let client_json = skills_embed_runtime::__private::client_json(&m.client);
        let client = if client_json.is_empty() {
            (0, 0)
        } else {
            strings.intern_raw(&client_json)
        };
        // A skill with errors gets its fields but no files, so no `include_bytes!` adds errors
        // of its own on top of the diagnostics.
        let (first_file, first_chunk) = (files.len(), chunks.len());
        let mut table = (0, 0);
        if s.valid {
            let out = expand_files(s, &mut strings, options.compress, cx);
            files.extend(out.entries);
            packed.extend(out.packed);
            watched.extend(out.watched);
            blocks.push(out.block.unwrap_or_default());
            table = out.table;
            chunks.extend(expand_chunks(s, krate));
        } else {
            blocks.push(Vec::new());
        }
        let first_pair = metadata.len();
        metadata.extend(m.metadata.iter().map(|(k, v)| quote!((#k, #v))));
        let first_tool = tools.len();
        tools.extend(m.allowed_tools.iter().map(|t| quote!(#t)));
        let range = |first: usize, end: usize| {
            let (first, count) = (lit(first), lit(end - first));
            quote!((#first, #count))
        };
        let files_range = range(first_file, files.len());
        ranges.push((files_range.clone(), table));
        let count = |first: usize, end: usize| {
            let first = u32::try_from(first).unwrap_or(u32::MAX);
            (
                first,
                u32::try_from(end - first as usize).unwrap_or(u32::MAX),
            )
        };
        // `SkillEntry`'s fields in order, as `skill_rows` reads them.
        let row: [(u32, u32); 13] = [
            name_span,
            description,
            license,
            compatibility,
            extra,
            count(first_file, files.len()),
            count(first_pair, metadata.len()),
            count(first_tool, tools.len()),
            count(first_chunk, chunks.len()),
            argument_hint,
            arguments,
            when_to_use,
            client,
        ];
        let (head, tail) = row.split_at(9);
        let words = head
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .chain([u32::from(policy)])
            .chain(tail.iter().flat_map(|&(a, b)| [a, b]))
            .map(|w| lit(w as usize));
        entries.push(quote!([#(#words),*]));
    }
    // A slot in hex, `0xOOOOOOOO_LLTT_NNNN`: the name's offset, its length and hash byte, then
    // the skill's index + 1.
    let names = skills_embed_runtime::__private::name_table(
        kept.iter()
            .map(|(_, n, _)| *n)
            .zip(name_spans.iter().copied()),
    );
    let names = hex_literals(&names, |slot| match slot {
        0 => "0".to_owned(),
        _ => format!(
            "{:#010x}_{:04x}_{:04x}",
            slot >> 32,
            (slot >> 16) & 0xffff,
            slot & 0xffff
        ),
    });
    let names_len = lit(names.len());
    let summary_len = lit(summary.len());
    let files_count = files.len();
    let (files_len, skills_len) = (lit(files_count), lit(entries.len()));
    let (pairs_len, tools_len, chunks_len) =
        (lit(metadata.len()), lit(tools.len()), lit(chunks.len()));
    // Per file, one word in hex, `0xPPPPPPPP_LLLL_TTFF`: the path's offset and length, its
    // tag, then TEXT 1 | EXEC 2 | PACKED 4. Literals and not `TEXT | tag(0x5a)`: named
    // constants made rustc's type check slower.
    let words: Vec<u64> = files
        .iter()
        .map(|f| u64::from(f.path) << 32 | u64::from(f.path_len) << 16 | u64::from(f.flags))
        .collect();
    let mut words = hex_literals(&words, |w| {
        format!(
            "{:#010x}_{:04x}_{:04x}",
            w >> 32,
            (w >> 16) & 0xffff,
            w & 0xffff
        )
    })
    .into_iter();
    let mut bytes = files.into_iter().map(|f| f.bytes);
    // `FILES` as the concatenation of constants of up to 256 files, each built from its files'
    // bytes and words by a const fn: rustc holds less for two literals per file than for a
    // struct literal of four fields, and less for a few dozen bodies than for one of 10,000
    // files or one per skill (see BENCHMARKS.md, issue 31 item 2, round two).
    let mut parts = Vec::new();
    let mut part_consts = Vec::new();
    let mut left = files_count;
    while left > 0 {
        let count = left.min(FILES_PER_CONST);
        left -= count;
        let part = format_ident!("FILES_{}", parts.len());
        let bytes = bytes.by_ref().take(count);
        let words = words.by_ref().take(count);
        let len = lit(count);
        part_consts.push(quote! {
            const #part: [#krate::__private::FileEntry; #len] =
                #krate::__private::file_rows([#(#bytes),*], [#(#words),*]);
        });
        parts.push(part);
    }
    let strings = strings.text;
    // Without compression the two tables are empty, so they cost nothing.
    if !options.compress {
        packed.clear();
        blocks.clear();
    }
    let (packed_len, blocks_len) = (lit(packed.len()), lit(blocks.len()));
    let packed = packed.iter().map(|(offset, len)| {
        let (offset, len) = (lit(*offset as usize), lit(*len as usize));
        quote!((#offset, #len))
    });
    let blocks = blocks.iter().map(|b| {
        let b = Literal::byte_string(b);
        quote!(#krate::__private::Block::new(#b))
    });
    // Each path table in hex, the multiplier `0xMMMMMMMM` and the slots `0xSSSSSSSSSSSSSSSS`,
    // one nibble a slot, lexed all at once.
    let tables: Vec<u64> = ranges
        .iter()
        .flat_map(|(_, (mult, slots))| [u64::from(*mult), *slots])
        .collect();
    let tables = hex_literals(&tables, |w| format!("{w:#x}"));
    let skills =
        ranges
            .iter()
            .zip(tables.chunks_exact(2))
            .enumerate()
            .map(|(i, ((files, _), table))| {
                let (mult, slots) = (&table[0], &table[1]);
                let i = lit(i);
                quote!(#krate::__private::skill(&INDEX, #i, #files, (#mult, #slots)))
            });
    let doc = format!(
        "The skills embedded from `{folder}` by `skills!`: look them up by [`{enum_name}`] or by name, \
         and put `summary()` in the prompt."
    );
    // One line per table, as `cargo expand` shows it (a `//` comment would not survive), with
    // the space of a `///` comment.
    quote! {
        #[doc = #doc]
        pub static #static_name: #krate::SkillSet<#enum_name> = {
            #[doc = " The string table: the listing `summary()` returns, then every name, description, path and field not found in it, each once."]
            const STRINGS: &str = #strings;
            #[doc = " Each skill's files sorted by path, from constants of up to 256 files (`FILES_0`, `FILES_1`...): per file its bytes and a word `0xPPPPPPPP_LLLL_TTFF`, the path's offset and length in `STRINGS`, then its tag for lookups and TEXT 1 | EXEC 2 | PACKED 4."]
            static FILES: [#krate::__private::FileEntry; #files_len] = #krate::__private::concat_files(&[#(&#parts),*]);
            #(#part_consts)*
            #[doc = " Names the files embedded from elsewhere (a SKILL.md's body, compressed text) so that editing one rebuilds the crate: a function never called (named below, so not dead code), so rustc reads them without evaluating them."]
            fn __skills_watched() {
                let _: &[&[u8]] = &[#(::core::include_bytes!(#watched)),*];
            }
            #[doc = " The skills sorted by name, 27 words each in `SkillEntry`'s field order: `(offset, length)` spans of `STRINGS`, `(first, count)` ranges of the other tables, the policy."]
            static SKILLS: [#krate::__private::SkillEntry; #skills_len] = #krate::__private::skill_rows([#(#entries),*]);
            #[doc = " Every skill's `metadata` pairs."]
            static METADATA: [(&str, &str); #pairs_len] = [#(#metadata),*];
            #[doc = " Every skill's `allowed-tools`."]
            static TOOLS: [&str; #tools_len] = [#(#tools),*];
            #[doc = " Every skill's `<chunk>` blocks: id, description, byte ranges of the body."]
            static CHUNKS: [#krate::__private::Chunk; #chunks_len] = [#(#chunks),*];
            #[doc = " Hash table of the names: per slot `0xOOOOOOOO_LLTT_NNNN`, the name's offset in `STRINGS`, its length, its hash's high byte and its skill's index + 1; 0 if empty."]
            static NAMES: [u64; #names_len] = [#(#names),*];
            #[doc = " Per skill, its text files as one LZ4 block (`compress = true`; else empty)."]
            static BLOCKS: [#krate::__private::Block; #blocks_len] = [#(#blocks),*];
            #[doc = " Per file, its `(offset, length)` in its skill's unpacked block (`compress = true`; else empty)."]
            static PACKED: [(u32, u32); #packed_len] = [#(#packed),*];
            #[doc = " Every table of the set."]
            static INDEX: #krate::__private::Index = #krate::__private::Index {
                strings: STRINGS,
                skills: &SKILLS,
                files: &FILES,
                metadata: &METADATA,
                tools: &TOOLS,
                chunks: &CHUNKS,
                blocks: &BLOCKS,
                packed: &PACKED,
                names: &NAMES,
            };
            #[doc = " Per skill, its index, its `(first, count)` range of `FILES` and its path table: a multiplier (0 for none) and, per 4-bit slot, the position of the one file whose path can fall there."]
            static SET: [#krate::Skill; #skills_len] = [#(#skills),*];
            #scripts
            let _ = __skills_watched;
            #krate::__private::set(&INDEX, &SET, <str>::split_at(STRINGS, #summary_len).0, &SCRIPTS)
        };
    }
}

/// How many files each constant of `FILES` holds.
const FILES_PER_CONST: usize = 256;

fn lit(n: usize) -> Literal {
    Literal::u32_unsuffixed(u32::try_from(n).unwrap_or(u32::MAX))
}

/// Integer literals written as `write` spells them (in hex, say), lexed all at once: each
/// `Literal::from_str` of its own would have rustc open a source file for it, 10,000 of them for
/// 10,000 files. Decimal if the text does not lex as that many literals.
fn hex_literals(values: &[u64], write: impl Fn(u64) -> String) -> Vec<Literal> {
    let text: Vec<String> = values.iter().map(|&v| write(v)).collect();
    let lexed: Vec<Literal> = text
        .join(" ")
        .parse::<TokenStream>()
        .map(|tokens| {
            tokens
                .into_iter()
                .filter_map(|t| match t {
                    TokenTree::Literal(l) => Some(l),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    if lexed.len() == values.len() {
        lexed
    } else {
        values.iter().map(|&v| Literal::u64_unsuffixed(v)).collect()
    }
}

/// The string table: the rendered listing first, so a name or description is a span of it
/// rather than a second copy, then every other string once.
struct Strings {
    text: String,
    /// Where the search for the next listed skill's name starts: skills come in listing order.
    cursor: usize,
    summary_len: usize,
    seen: std::collections::HashMap<String, (u32, u32)>,
}

impl Strings {
    fn new(summary: &str) -> Self {
        Strings {
            text: summary.to_owned(),
            cursor: 0,
            summary_len: summary.len(),
            seen: std::collections::HashMap::new(),
        }
    }

    /// A name or description: found just after the previous one in the listing when it is
    /// there verbatim (the XML format escapes text, Markdown joins lines), interned otherwise.
    fn listed_raw(&mut self, s: &str) -> (u32, u32) {
        if s.is_empty() {
            return (0, 0);
        }
        let listing = &self.text[..self.summary_len];
        let mut end = (self.cursor + s.len() + 256).min(listing.len());
        while !listing.is_char_boundary(end) {
            end -= 1;
        }
        if let Some(at) = listing[self.cursor..end].find(s) {
            let start = self.cursor + at;
            self.cursor = start + s.len();
            return (start as u32, s.len() as u32);
        }
        self.intern_raw(s)
    }

    fn intern_raw(&mut self, s: &str) -> (u32, u32) {
        match self.seen.get(s) {
            Some(&found) => found,
            None => {
                let found = (self.text.len() as u32, s.len() as u32);
                self.text.push_str(s);
                self.seen.insert(s.to_owned(), found);
                found
            }
        }
    }

    /// A string's span, or `NONE` when there is none.
    fn optional_raw(&mut self, s: Option<&str>) -> (u32, u32) {
        s.map_or(skills_embed_runtime::__private::NONE, |s| {
            self.intern_raw(s)
        })
    }
}

/// One file as the table holds it.
struct FileOut<'a> {
    path: &'a str,
    /// The file on disk, read again only to compress it.
    #[cfg_attr(not(feature = "compress"), allow(dead_code))]
    source: &'a Path,
    /// The file, for `include_bytes!`.
    file: LitStr,
    /// The body of SKILL.md, which is not embedded from the file.
    body: Option<&'a str>,
    text: bool,
    exec: bool,
}

/// One `FileEntry` before its word is written (all files' at once, see `hex_literals`).
struct FileParts {
    bytes: TokenStream,
    /// The path's offset in the string table.
    path: u32,
    path_len: u16,
    flags: u16,
}

/// The files of one skill: entries sorted by path (`SKILL.md` among them holding the body
/// only), and, when compressing, each packed file's range of the skill's block and the block.
#[derive(Default)]
struct SkillFiles {
    entries: Vec<FileParts>,
    packed: Vec<(u32, u32)>,
    block: Option<Vec<u8>>,
    /// Files embedded from elsewhere (a SKILL.md's body, a compressed file): each still named
    /// by an `include_bytes!` so that editing it rebuilds the crate.
    watched: Vec<LitStr>,
    /// The skill's path table, `(multiplier, slots)`.
    table: (u32, u64),
}

fn expand_files(
    source: &SkillSource,
    strings: &mut Strings,
    compress: bool,
    cx: &mut Ctxt,
) -> SkillFiles {
    let mut files: Vec<FileOut<'_>> = Vec::with_capacity(source.resources.len() + 1);
    if let Some(file) = abs_path(&source.manifest_path, cx) {
        // The body as a literal, not a slice of `include_bytes!(SKILL.md)`: that would keep the
        // frontmatter in the binary too, beside the listing that already holds the name and
        // description. An unused constant makes SKILL.md a build dependency all the same.
        files.push(FileOut {
            path: skills_embed_runtime::__private::MANIFEST,
            source: &source.manifest_path,
            file,
            body: Some(source.body()),
            text: true,
            exec: false,
        });
    }
    for r in &source.resources {
        if let Some(file) = abs_path(&r.file, cx) {
            files.push(FileOut {
                path: &r.path,
                source: &r.file,
                file,
                body: None,
                text: r.text,
                exec: r.executable,
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(b.path));
    let block = if compress { pack(&files, cx) } else { None };
    let mut packed_lens = block.iter().flat_map(|b| b.lens.iter().copied());
    let mut out = SkillFiles::default();
    let mut offset = 0u32;
    let mut paths = Vec::with_capacity(files.len());
    for f in &files {
        let Ok(path_len) = u16::try_from(f.path.len()) else {
            cx.error_at(
                Span::call_site(),
                format!("{}: the path is over 65,535 bytes long; shorten it", f.path),
            );
            continue;
        };
        let path = strings.intern_raw(f.path).0;
        let tag = skills_embed_runtime::__private::path_tag(f.path.as_bytes());
        let packed = block.is_some() && f.text;
        let mut flags = u16::from(f.text) | (u16::from(f.exec) << 1) | (u16::from(tag) << 8);
        let file = &f.file;
        let bytes = match (packed, f.body) {
            (true, _) => {
                flags |= skills_embed_runtime::__private::PACKED;
                let len = packed_lens.next().unwrap_or(0);
                out.packed.push((offset, len));
                offset += len;
                out.watched.push(file.clone());
                quote!(&[])
            }
            (false, Some(body)) => {
                out.packed.push((0, 0));
                out.watched.push(file.clone());
                quote!(#body.as_bytes())
            }
            (false, None) => {
                out.packed.push((0, 0));
                quote!(::core::include_bytes!(#file))
            }
        };
        out.entries.push(FileParts {
            bytes,
            path,
            path_len,
            flags,
        });
        paths.push(f.path.as_bytes());
    }
    out.table = skills_embed_runtime::__private::path_table(paths.into_iter());
    out.block = block.map(|b| b.packed);
    out
}

/// A skill's text files, in path order, compressed as one block.
struct Packed {
    packed: Vec<u8>,
    /// Each text file's length in the block, in path order.
    lens: Vec<u32>,
}

/// Compresses the skill's text files as one block, or `None` when that would not save at
/// least 64 bytes (small skills stay stored as they are).
#[cfg(feature = "compress")]
fn pack(files: &[FileOut<'_>], cx: &mut Ctxt) -> Option<Packed> {
    let mut raw = Vec::new();
    let mut lens = Vec::new();
    for f in files.iter().filter(|f| f.text) {
        let start = raw.len();
        match f.body {
            Some(body) => raw.extend_from_slice(body.as_bytes()),
            // The scanner checked this file but kept no bytes: reading it again is the price
            // of not holding every file in memory when nothing is compressed.
            None => match std::fs::read(f.source) {
                Ok(bytes) => raw.extend_from_slice(&bytes),
                Err(e) => {
                    cx.error_at(
                        Span::call_site(),
                        format!(
                            "{}: could not read it again to compress it: {e}",
                            f.source.display()
                        ),
                    );
                    return None;
                }
            },
        }
        lens.push(u32::try_from(raw.len() - start).ok()?);
    }
    let packed = skills_embed_runtime::__private::pack(&raw);
    (packed.len() + 64 <= raw.len()).then_some(Packed { packed, lens })
}

#[cfg(not(feature = "compress"))]
fn pack(_: &[FileOut<'_>], _: &mut Ctxt) -> Option<Packed> {
    None
}

/// `__private::chunk(...)` per `<chunk>` block of the body.
fn expand_chunks(source: &SkillSource, krate: &TokenStream) -> Vec<TokenStream> {
    source
        .chunks
        .iter()
        .filter_map(|c| {
            let n = |v: usize| u32::try_from(v).ok().map(Literal::u32_unsuffixed);
            let (start, end) = (n(c.start)?, n(c.end)?);
            let (content_start, content_end) = (n(c.content_start)?, n(c.content_end)?);
            let (id, description) = (&c.id, &c.description);
            Some(quote! {
                #krate::__private::chunk(#id, #description, (#start, #end), (#content_start, #content_end))
            })
        })
        .collect()
}

fn abs_path(path: &Path, cx: &mut Ctxt) -> Option<LitStr> {
    match path.to_str() {
        Some(p) => Some(LitStr::new(p, Span::call_site())),
        None => {
            cx.error_at(
                Span::call_site(),
                format!("{}: path is not valid UTF-8; rename it", path.display()),
            );
            None
        }
    }
}

/// Real compiler warnings on stable Rust: a use of a `#[deprecated]` constant whose note is the
/// diagnostic.
///
/// The use is spanned at the folder's literal, a token of the caller's, so the warning points
/// there and not into the `skills!` front.
fn expand_warnings(warnings: &[String], at: Span) -> TokenStream {
    let uses = warnings.iter().enumerate().map(|(i, w)| {
        let name = format_ident!("skills_warning_{}", i, span = at);
        quote! {
            #[deprecated(note = #w)]
            #[allow(non_upper_case_globals)]
            const #name: () = ();
            let _ = #name;
        }
    });
    if warnings.is_empty() {
        return TokenStream::new();
    }
    quote! { const _: () = { #(#uses)* }; }
}

/// The first sentence of a description, for a variant's doc comment.
fn first_sentence(description: &str) -> String {
    let one_line: String = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = one_line.find(". ").map_or(one_line.len(), |i| i + 1);
    let cut: String = one_line[..end].chars().take(200).collect();
    cut.replace('`', "'")
}
