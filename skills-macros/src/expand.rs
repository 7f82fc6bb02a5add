//! Code generation: the `SkillId` enum, the `SKILLS` static with one `include_str!` or
//! `include_bytes!` per file, and one compile error or warning per diagnostic.
//!
//! The enum and the static are always generated, with a variant for every skill whose name
//! could be read (or its folder's name), so one broken skill does not turn into errors in the
//! user's code that names the others.

use std::path::{Path, PathBuf};

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use skills_runtime::parse::{self, Diagnostic, Rule, ScanOptions, Severity, SkillSource, Tree};
use skills_runtime::summary::{self, Entry};
use syn::{Ident, LitStr};

use crate::ast::{Input, Options};
use crate::ctxt::Ctxt;
use crate::valid;

/// The environment variable that, when set, replaces `CARGO_MANIFEST_DIR` as the base of the
/// path. Only this project's trybuild tests set it: trybuild compiles each case in its own
/// crate under `target/`, far from the fixtures.
const BASE_DIR_OVERRIDE: &str = "SKILLS_MACRO_TEST_BASE_DIR";

pub(crate) fn expand(input: Input) -> TokenStream {
    let mut cx = Ctxt::default();
    let span = input.path.span();
    let base = base_dir();
    let root = base.join(input.path.value());
    let tree = match root.to_str() {
        Some(_) => parse::scan(&root, &scan_options(&input.options)),
        None => {
            cx.error_at(span, "the skills folder's absolute path is not valid UTF-8");
            Tree::default()
        }
    };
    let mut warnings = Vec::new();
    for d in &tree.diagnostics {
        let shown = d.relative_to(&base);
        match d.severity {
            Severity::Error => cx.error_at(span, &shown),
            Severity::Warning => warnings.push(shown.to_string()),
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
        let d = Diagnostic::error(
            Rule::VariantCollision,
            &root,
            1,
            1,
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

    let summary = summary::render(
        kept.iter()
            .filter(|(s, ..)| s.valid)
            .map(|(s, name, _)| Entry {
                name,
                description: s.manifest.as_ref().map_or("", |m| m.description.as_str()),
                ..Entry::default()
            }),
        input.options.summary,
    );
    let folder = input.path.value();
    let enum_tokens = expand_enum(&input.options.enum_name, &folder, &kept);
    let static_tokens = expand_static(&input.options, &folder, &kept, &summary, &mut cx);
    let warning_tokens = expand_warnings(&warnings);
    let errors = cx.into_compile_errors();
    quote! {
        #enum_tokens
        #static_tokens
        #warning_tokens
        #errors
    }
}

fn base_dir() -> PathBuf {
    std::env::var_os(BASE_DIR_OVERRIDE)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
        .unwrap_or_default()
}

fn scan_options(options: &Options) -> ScanOptions {
    ScanOptions {
        profile: options.profile,
        include: options.include.clone(),
        exclude: options.exclude.clone(),
        dotfiles: options.dotfiles,
        max_depth: None,
        limits: options.limits,
        follow_symlinks: true,
        max_dirs: None,
    }
}

fn expand_enum(name: &Ident, folder: &str, kept: &[(&SkillSource, &str, Ident)]) -> TokenStream {
    let variants = kept.iter().map(|(s, skill_name, variant)| {
        let doc = format!(
            "`{skill_name}`: {}",
            first_sentence(s.manifest.as_ref().map_or("", |m| m.description.as_str()))
        );
        quote! { #[doc = #doc] #variant, }
    });
    let idents: Vec<&Ident> = kept.iter().map(|(_, _, v)| v).collect();
    let skill_names = kept.iter().map(|(_, n, _)| *n);
    let indices = (0..kept.len()).map(Literal::usize_unsuffixed);
    let enum_doc = format!(
        "One variant per skill embedded from `{folder}` by `skills!`, in the order of their names.\n\n\
         Its JSON Schema is `{{\"type\":\"string\",\"enum\":[...names...]}}`, so a model can only name a skill that exists."
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

        impl ::skills::SkillIdentifier for #name {
            const ALL: &'static [#name] = #name::ALL;
            fn name(self) -> &'static str {
                #name::name(self)
            }
            fn index(self) -> usize {
                match self { #(#name::#idents => #indices,)* }
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::core::str::FromStr for #name {
            type Err = ::skills::SkillError;
            fn from_str(name: &str) -> ::core::result::Result<Self, Self::Err> {
                ::skills::__private::parse_id(name)
            }
        }

        impl ::skills::__private::serde::Serialize for #name {
            fn serialize<S: ::skills::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                ::skills::__private::serialize_id(*self, serializer)
            }
        }

        impl<'de> ::skills::__private::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::skills::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                ::skills::__private::deserialize_id(deserializer)
            }
        }

        impl ::skills::__private::schemars::JsonSchema for #name {
            // Inline, not a `$ref`: several model APIs handle references badly.
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> ::skills::__private::Cow<'static, str> {
                ::skills::__private::Cow::Borrowed(::core::stringify!(#name))
            }
            fn json_schema(
                _: &mut ::skills::__private::schemars::SchemaGenerator,
            ) -> ::skills::__private::schemars::Schema {
                ::skills::__private::id_schema::<#name>()
            }
        }
    }
}

fn expand_static(
    options: &Options,
    folder: &str,
    kept: &[(&SkillSource, &str, Ident)],
    summary: &str,
    cx: &mut Ctxt,
) -> TokenStream {
    let enum_name = &options.enum_name;
    let static_name = &options.static_name;
    // Arrays of `File` and `Skill` (types with destructors) cannot be promoted to `'static`
    // from a `&[...]` expression, so each gets a named static.
    let mut file_statics = Vec::new();
    let skills: Vec<TokenStream> = kept
        .iter()
        .enumerate()
        .map(|(i, (s, name, _))| {
            let files = if s.valid {
                expand_files(s, cx)
            } else {
                Vec::new()
            };
            let files_name = format_ident!("FILES_{}", i);
            let len = files.len();
            file_statics.push(quote! {
                static #files_name: [::skills::File; #len] = [#(#files),*];
            });
            let chunks = if s.valid {
                expand_chunks(s)
            } else {
                Vec::new()
            };
            let chunks_ref = if chunks.is_empty() {
                quote!(&[])
            } else {
                let chunks_name = format_ident!("CHUNKS_{}", i);
                let len = chunks.len();
                file_statics.push(quote! {
                    static #chunks_name: [::skills::Chunk; #len] = [#(#chunks),*];
                });
                quote!(&#chunks_name)
            };
            expand_skill(s, name, &files_name, chunks_ref)
        })
        .collect();
    let count = skills.len();
    let doc = format!(
        "The skills embedded from `{folder}` by `skills!`: look them up by [`{enum_name}`] or by name, \
         and put [`summary()`](::skills::SkillSet::summary) in the prompt."
    );
    quote! {
        #[doc = #doc]
        pub static #static_name: ::skills::SkillSet<#enum_name> = {
            #(#file_statics)*
            static SKILLS: [::skills::Skill; #count] = [#(#skills),*];
            ::skills::SkillSet::from_static(&SKILLS, #summary)
        };
    }
}

/// One `Skill::embedded(...)`. A skill with errors gets its fields but no files, so no
/// `include_*!` adds errors of its own on top of the diagnostics.
fn expand_skill(
    source: &SkillSource,
    name: &str,
    files: &Ident,
    chunks: TokenStream,
) -> TokenStream {
    let m = source.manifest.clone().unwrap_or_default();
    let description = &m.description;
    let license = option(m.license.as_deref());
    let compatibility = option(m.compatibility.as_deref());
    let (keys, values): (Vec<&str>, Vec<&str>) = m
        .metadata
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .unzip();
    let tools = &m.allowed_tools;
    let extra = serde_json_object(&m.extra);
    quote! {
        ::skills::Skill::embedded(
            ::skills::Fields {
                name: #name,
                description: #description,
                license: #license,
                compatibility: #compatibility,
                metadata: &[#((#keys, #values)),*],
                allowed_tools: &[#(#tools),*],
                extra: #extra,
            },
            &#files,
            #chunks,
        )
    }
}

/// The files sorted by path, `SKILL.md` among them holding the body only.
fn expand_files(source: &SkillSource, cx: &mut Ctxt) -> Vec<TokenStream> {
    let mut files: Vec<(&str, TokenStream)> = Vec::with_capacity(source.resources.len() + 1);
    if let Some(manifest) = abs_path(&source.manifest_path, cx) {
        let (start, end) = (source.body_start(), source.body_end);
        // Const slicing: a body that is not where the macro saw it fails to compile rather
        // than serving the wrong bytes.
        let text = if end == source.text.len() {
            quote!(<str>::split_at(::core::include_str!(#manifest), #start).1)
        } else {
            quote!(<str>::split_at(<str>::split_at(::core::include_str!(#manifest), #end).0, #start).1)
        };
        let digest = digest(&skills_runtime::sha256(source.body().as_bytes()));
        files.push((
            skills_runtime::MANIFEST,
            quote!(::skills::File::from_text("SKILL.md", #text, false, #digest)),
        ));
    }
    for r in &source.resources {
        let Some(file) = abs_path(&r.file, cx) else {
            continue;
        };
        let path = &r.path;
        let exec = r.executable;
        let digest = digest(&r.sha256);
        let tokens = if r.text {
            quote!(::skills::File::from_text(#path, ::core::include_str!(#file), #exec, #digest))
        } else {
            quote!(::skills::File::from_bytes(#path, ::core::include_bytes!(#file), #exec, #digest))
        };
        files.push((path, tokens));
    }
    files.sort_by(|a, b| a.0.cmp(b.0));
    files.into_iter().map(|(_, t)| t).collect()
}

fn digest(bytes: &[u8; 32]) -> TokenStream {
    let bytes = bytes.iter().map(|b| Literal::u8_unsuffixed(*b));
    quote!([#(#bytes),*])
}

/// `Chunk::new(...)` per `<chunk>` block of the body.
fn expand_chunks(source: &SkillSource) -> Vec<TokenStream> {
    source
        .chunks
        .iter()
        .filter_map(|c| {
            let n = |v: usize| u32::try_from(v).ok().map(Literal::u32_unsuffixed);
            let (start, end) = (n(c.start)?, n(c.end)?);
            let (content_start, content_end) = (n(c.content_start)?, n(c.content_end)?);
            let (id, description) = (&c.id, &c.description);
            Some(quote! {
                ::skills::Chunk::new(#id, #description, (#start, #end), (#content_start, #content_end))
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

fn option(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn serde_json_object(map: &serde_json::Map<String, serde_json::Value>) -> String {
    serde_json::Value::Object(map.clone()).to_string()
}

/// Real compiler warnings on stable Rust: a use of a `#[deprecated]` constant whose note is the
/// diagnostic.
fn expand_warnings(warnings: &[String]) -> TokenStream {
    let uses = warnings.iter().enumerate().map(|(i, w)| {
        let name = format_ident!("skills_warning_{}", i);
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
