//! The macro's input: `skills!("path", key = value, ...)`.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use skills_embed_runtime::listing::ListingFormat;
use skills_embed_runtime::parse::{Dialect, LimitAction, Profile, ScanOptions};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitBool, LitInt, LitStr, Path, Token, bracketed};

use crate::ctxt::Ctxt;

/// The options every key may set, for messages.
const KEYS: &str = "profile, dialects, enum_name, static_name, include, exclude, dotfiles, summary, \
                    body_limit, max_body_lines, max_body_chars, max_resource_bytes, max_depth, \
                    max_entries, max_skill_entries, unreferenced_files, compress, scripts, crate";

pub(crate) struct Input {
    pub(crate) path: LitStr,
    pub(crate) options: Options,
}

pub(crate) struct Options {
    /// The path generated code reaches the runtime through: `$crate` of the `skills!` front
    /// in the facade, or the `crate = path` option.
    pub(crate) krate: TokenStream,
    pub(crate) profile: Profile,
    /// The client dialects whose fields are known fields (`dialects = [claude_code, codex]`).
    pub(crate) dialects: Vec<Dialect>,
    pub(crate) enum_name: Ident,
    pub(crate) static_name: Ident,
    pub(crate) include: Vec<String>,
    pub(crate) exclude: Vec<String>,
    pub(crate) dotfiles: bool,
    pub(crate) summary: ListingFormat,
    /// The size limits and the caps of the walk (on by default, as everywhere), in the
    /// fields of a `ScanOptions`.
    pub(crate) limits: ScanOptions,
    pub(crate) compress: bool,
    /// `scripts = { "skill" => [function, async function, ...], ... }`.
    pub(crate) scripts: Vec<ScriptGroup>,
}

/// One skill's Rust scripts: `"skill" => [function, async function]`.
pub(crate) struct ScriptGroup {
    pub(crate) skill: LitStr,
    pub(crate) scripts: Vec<ScriptFn>,
}

/// One function given as a script; its name is the path's last segment.
pub(crate) struct ScriptFn {
    pub(crate) is_async: bool,
    pub(crate) path: Path,
}

impl ScriptFn {
    pub(crate) fn name(&self) -> String {
        self.path
            .segments
            .last()
            .map(|s| s.ident.unraw().to_string())
            .unwrap_or_default()
    }
}

impl Parse for ScriptGroup {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let skill: LitStr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a skill's name as a string, e.g. scripts = { \"pdf-forms\" => [fill_form] }",
            )
        })?;
        input.parse::<Token![=>]>()?;
        let content;
        bracketed!(content in input);
        let mut scripts = Vec::new();
        while !content.is_empty() {
            let is_async = content.parse::<Option<Token![async]>>()?.is_some();
            scripts.push(ScriptFn {
                is_async,
                path: content.parse()?,
            });
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        Ok(ScriptGroup { skill, scripts })
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            krate: quote::quote!(::skills_embed),
            profile: Profile::Strict,
            dialects: Vec::new(),
            enum_name: Ident::new("SkillId", Span::call_site()),
            static_name: Ident::new("SKILLS", Span::call_site()),
            include: Vec::new(),
            exclude: Vec::new(),
            dotfiles: false,
            summary: ListingFormat::Markdown,
            limits: ScanOptions::default(),
            compress: false,
            scripts: Vec::new(),
        }
    }
}

/// One `key = value` pair; the value is checked once the key is known.
struct Pair {
    key: Ident,
    value: Value,
}

enum Value {
    Ident(Ident),
    Str(LitStr),
    Bool(LitBool),
    Int(LitInt),
    List(Punctuated<LitStr, Token![,]>),
    Idents(Punctuated<Ident, Token![,]>),
    Path(Path),
    Scripts(Punctuated<ScriptGroup, Token![,]>),
}

impl Parse for Pair {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // `crate` is a keyword, so keys are read as any identifier.
        let key = Ident::parse_any(input)?;
        input.parse::<Token![=]>()?;
        let value = if key == "crate" {
            Value::Path(input.parse()?)
        } else if input.peek(syn::token::Brace) {
            let content;
            syn::braced!(content in input);
            Value::Scripts(content.parse_terminated(ScriptGroup::parse, Token![,])?)
        } else if input.peek(syn::token::Bracket) {
            let content;
            bracketed!(content in input);
            if content.peek(Ident::peek_any) {
                Value::Idents(content.parse_terminated(Ident::parse_any, Token![,])?)
            } else {
                Value::List(content.parse_terminated(|p| p.parse::<LitStr>(), Token![,])?)
            }
        } else if input.peek(LitStr) {
            Value::Str(input.parse()?)
        } else if input.peek(LitBool) {
            Value::Bool(input.parse()?)
        } else if input.peek(LitInt) {
            Value::Int(input.parse()?)
        } else {
            Value::Ident(input.parse()?)
        };
        Ok(Pair { key, value })
    }
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // The facade's `skills!` front passes `[$crate]` before the user's tokens.
        let krate = if input.peek(syn::token::Bracket) {
            let content;
            bracketed!(content in input);
            Some(content.parse::<TokenStream>()?)
        } else {
            None
        };
        let path: LitStr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the skills folder as a string literal, e.g. skills!(\"skills\")",
            )
        })?;
        let mut pairs = Vec::new();
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            pairs.push(input.parse::<Pair>()?);
        }
        let mut cx = Ctxt::default();
        let mut options = Options::default();
        if let Some(krate) = krate {
            options.krate = krate;
        }
        let options = options.with_pairs(pairs, &mut cx);
        match cx.into_error() {
            Some(e) => Err(e),
            None => Ok(Input { path, options }),
        }
    }
}

impl Options {
    fn with_pairs(mut self, pairs: Vec<Pair>, cx: &mut Ctxt) -> Options {
        let options = &mut self;
        let mut seen: Vec<String> = Vec::new();
        for Pair { key, value } in pairs {
            let name = key.to_string();
            if seen.contains(&name) {
                cx.error_spanned_by(&key, format!("option `{name}` is given twice"));
                continue;
            }
            seen.push(name.clone());
            match (name.as_str(), value) {
                ("profile", Value::Ident(v)) => match v.to_string().parse::<Profile>() {
                    Ok(p) => options.profile = p,
                    Err(_) => cx.error_spanned_by(&v, "expected `strict` or `lenient`"),
                },
                ("dialects", Value::Idents(v)) => {
                    for ident in &v {
                        dialect(&ident.to_string(), ident, options, cx);
                    }
                }
                ("dialects", Value::List(v)) => {
                    for lit in &v {
                        dialect(&lit.value(), lit, options, cx);
                    }
                }
                ("dialects", Value::Str(v)) => {
                    for name in v.value().split([' ', ',']).filter(|n| !n.is_empty()) {
                        dialect(name, &v, options, cx);
                    }
                }
                ("dialects", v) => cx.error_spanned_by(
                    v.tokens(),
                    "`dialects` takes a list of client dialects, e.g. dialects = [claude_code, codex, opencode]",
                ),
                ("summary", Value::Ident(v)) => match v.to_string().parse::<ListingFormat>() {
                    Ok(f) => options.summary = f,
                    Err(_) => cx.error_spanned_by(&v, "expected `markdown` or `xml`"),
                },
                ("enum_name", Value::Ident(v)) => options.enum_name = v,
                ("static_name", Value::Ident(v)) => options.static_name = v,
                ("include", Value::List(v)) => {
                    options.include = v.iter().map(LitStr::value).collect()
                }
                ("exclude", Value::List(v)) => {
                    options.exclude = v.iter().map(LitStr::value).collect()
                }
                ("dotfiles", Value::Bool(v)) => options.dotfiles = v.value,
                ("unreferenced_files", Value::Bool(v)) => {
                    options.limits.unreferenced_files = v.value
                }
                ("crate", Value::Path(v)) => options.krate = v.into_token_stream(),
                ("scripts", Value::Scripts(v)) => options.scripts = v.into_iter().collect(),
                ("scripts", v) => cx.error_spanned_by(
                    v.tokens(),
                    "`scripts` takes each skill's Rust functions, e.g. \
                     scripts = { \"pdf-forms\" => [fill_form, async fetch_form] }",
                ),
                ("compress", Value::Bool(v)) if v.value && !cfg!(feature = "compress") => cx
                    .error_spanned_by(
                        &v,
                        "`compress = true` needs the `compress` feature: \
                         skills-embed = { version = \"...\", features = [\"compress\"] }",
                    ),
                ("compress", Value::Bool(v)) => options.compress = v.value,
                ("body_limit", Value::Ident(v)) => match v.to_string().parse::<LimitAction>() {
                    Ok(a) => options.limits.body_limit = a,
                    Err(_) => cx.error_spanned_by(&v, "expected `warn`, `error` or `cut`"),
                },
                ("max_body_lines", Value::Int(v)) => {
                    if let Some(n) = int(&v, cx) {
                        options.limits.max_body_lines = n;
                    }
                }
                ("max_body_chars", Value::Int(v)) => {
                    if let Some(n) = int(&v, cx) {
                        options.limits.max_body_chars = n;
                    }
                }
                ("max_resource_bytes", Value::Int(v)) => {
                    if let Some(n) = int(&v, cx) {
                        options.limits.max_resource_bytes = Some(n as u64);
                    }
                }
                ("max_resource_bytes", Value::Ident(v)) if v == "none" => {
                    options.limits.max_resource_bytes = None;
                }
                ("max_depth" | "max_entries" | "max_skill_entries", Value::Int(v)) => {
                    if let Some(n) = int(&v, cx) {
                        *walk_cap(&mut options.limits, &name) = Some(n);
                    }
                }
                ("max_depth" | "max_entries" | "max_skill_entries", Value::Ident(v))
                    if v == "none" =>
                {
                    *walk_cap(&mut options.limits, &name) = None;
                }
                ("max_depth" | "max_entries" | "max_skill_entries", v) => cx.error_spanned_by(
                    v.tokens(),
                    format!("`{name}` takes a number or `none`, e.g. {name} = 20_000"),
                ),
                ("body_limit", v) => cx.error_spanned_by(v.tokens(), "`body_limit` takes `warn`, `error` or `cut`"),
                ("max_body_lines" | "max_body_chars", v) => {
                    cx.error_spanned_by(v.tokens(), format!("`{name}` takes a number, e.g. {name} = 800"))
                }
                ("max_resource_bytes", v) => cx.error_spanned_by(
                    v.tokens(),
                    "`max_resource_bytes` takes a number or `none`, e.g. max_resource_bytes = 5_000_000",
                ),
                ("profile" | "summary" | "enum_name" | "static_name", v) => cx.error_spanned_by(
                    v.tokens(),
                    format!("`{name}` takes an identifier, e.g. {}", example(&name)),
                ),
                ("include" | "exclude", v) => cx.error_spanned_by(
                    v.tokens(),
                    format!("`{name}` takes a list of globs, e.g. {name} = [\"**/*.md\"]"),
                ),
                ("dotfiles" | "compress" | "unreferenced_files", v) => {
                    cx.error_spanned_by(v.tokens(), format!("`{name}` takes `true` or `false`"))
                }
                _ => cx.error_spanned_by(
                    &key,
                    format!("unknown option `{name}`; the options are: {KEYS}"),
                ),
            }
        }
        self
    }
}

/// Adds the dialect `name` (spanned by `at`) to the options, or reports it.
fn dialect(name: &str, at: &dyn ToTokens, options: &mut Options, cx: &mut Ctxt) {
    match name.parse::<Dialect>() {
        Ok(d) if !options.dialects.contains(&d) => options.dialects.push(d),
        Ok(_) => {}
        Err(_) => cx.error_spanned_by(
            at,
            format!("unknown dialect `{name}`; expected `claude_code`, `codex` or `opencode`"),
        ),
    }
}

/// The walk cap an option names (`max_depth`, `max_entries` or `max_skill_entries`).
fn walk_cap<'a>(walk: &'a mut ScanOptions, name: &str) -> &'a mut Option<usize> {
    match name {
        "max_depth" => &mut walk.max_walk_depth,
        "max_entries" => &mut walk.max_entries,
        _ => &mut walk.max_skill_entries,
    }
}

fn int(lit: &LitInt, cx: &mut Ctxt) -> Option<usize> {
    match lit.base10_parse::<usize>() {
        Ok(n) if n > 0 => Some(n),
        Ok(_) => {
            cx.error_spanned_by(lit, "expected a number above 0");
            None
        }
        Err(e) => {
            cx.push(e);
            None
        }
    }
}

fn example(key: &str) -> &'static str {
    match key {
        "profile" => "profile = lenient",
        "summary" => "summary = xml",
        "enum_name" => "enum_name = MySkill",
        _ => "static_name = MY_SKILLS",
    }
}

impl Value {
    fn tokens(&self) -> TokenStream {
        match self {
            Value::Ident(v) => v.to_token_stream(),
            Value::Str(v) => v.to_token_stream(),
            Value::Bool(v) => v.to_token_stream(),
            Value::Int(v) => v.to_token_stream(),
            Value::List(v) => v.to_token_stream(),
            Value::Idents(v) => v.to_token_stream(),
            Value::Path(v) => v.to_token_stream(),
            Value::Scripts(v) => v.iter().map(|g| g.skill.to_token_stream()).collect(),
        }
    }
}
