//! The fields beyond the specification: unknown fields (errors when strict, kept when lenient),
//! the client fields of the dialects read (see [`dialect`](super::dialect)), the invocation
//! policy they make, and the one JSON text all kept fields become.

use serde_yaml::{Mapping, Value};

use super::checker::{Checker, Pos};
use super::dialect::{self, Dialect, Expect, Reading};
use super::fields::{ALLOWED_FIELDS, is_tool_separator};
use super::value::{json_text, key_text, kind, scalar_text, to_json, untag};
use super::{Rule, Severity};
use crate::model::fields::ClientFields;
use crate::model::invocation::InvocationFields;
use crate::text::{clip, closest};

/// Reports the fields the specification does not define, and returns the ones kept as
/// canonical JSON object text ([`Fields::extra`](crate::Fields::extra)): the client fields of
/// the dialects read, and under the lenient profile every unknown field.
pub(super) fn check_unknown_fields(cx: &mut Checker<'_>, mapping: &Mapping) -> String {
    let mut extra = serde_json::Map::new();
    for (key, value) in mapping {
        let key = key_text(key);
        if ALLOWED_FIELDS.contains(&key.as_str()) {
            continue;
        }
        if let Some((expect, read)) = dialect::claude_code_field(&key) {
            let reading = cx.reading(Dialect::ClaudeCode);
            // Opted in: a known field. Lenient: the fields this crate reads are honoured, with
            // a warning; the other client fields stay unknown fields (kept, warned).
            if reading == Reading::Known || (reading == Reading::Warned && read) {
                if reading == Reading::Warned {
                    let (what, pos) = (format!("field {key:?}"), cx.key_pos(&key));
                    warn_client_field(cx, what, Dialect::ClaudeCode, pos);
                }
                check_client_type(cx, &key, value, expect, Dialect::ClaudeCode);
                extra.insert(key, to_json(value));
                continue;
            }
        }
        // The one "did you mean"; `allowed_tools` is the usual slip for `allowed-tools`.
        let hint = closest(&key.replace('_', "-"), ALLOWED_FIELDS.iter().copied())
            .map(|field| format!(" (did you mean {field:?}?)"))
            .unwrap_or_default();
        // A field a client defines: say which option accepts it.
        let client = dialect::claude_code_field(&key)
            .map(|_| opt_in(Dialect::ClaudeCode))
            .unwrap_or_default();
        let message = format!(
            "unknown field {key:?}{hint}; the allowed fields are {}{client}",
            ALLOWED_FIELDS.join(", ")
        );
        cx.strict_error(Rule::UnknownField, cx.key_pos(&key), message);
        if cx.lenient() {
            extra.insert(key, to_json(value));
        }
    }
    json_text(&serde_json::Value::Object(extra))
}

/// A client field of `dialect` that is not of the type `expect`: an error when the dialect
/// is opted in to, a warning when the lenient profile honours it. Null reads as absent.
fn check_client_type(
    cx: &mut Checker<'_>,
    key: &str,
    value: &Value,
    expect: Expect,
    dialect: Dialect,
) {
    if value.is_null() || expect.accepts(value) {
        return;
    }
    // A value out of a fixed set is shown; a value of the wrong type is named by its type.
    let found = match (expect, scalar_text(value, None)) {
        (Expect::OneOf(_), Some(text)) => format!("{:?}", clip(&text, 41)),
        _ => kind(value).to_string(),
    };
    let message = format!(
        "field {key:?} ({}) must be {}, not {found}",
        dialect.client(),
        expect.describe(),
    );
    let severity = cx.reading(dialect).type_severity();
    cx.push(severity, Rule::ClientFieldType, cx.key_pos(key), message);
}

/// How to accept a field `dialect` defines, for an `unknown-field` error: the CLI flag and the
/// macro's option.
fn opt_in(dialect: Dialect) -> String {
    let ident = <&str>::from(dialect).replace('-', "_");
    format!(
        "; it is a {} field: opt in to the {dialect} dialect to accept it \
         (`skills validate --dialect {dialect}`, `skills!(..., dialects = [{ident}])`, \
         or `ScanOptions::dialects`)",
        dialect.client()
    )
}

/// A client field's portability warning under the lenient profile.
fn warn_client_field(cx: &mut Checker<'_>, what: String, dialect: Dialect, pos: Pos) {
    let article = if dialect.client().starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    let message = format!(
        "{what} is {article} {} field, not part of the Agent Skills specification: it is \
         honoured here, other clients ignore it; opt in to the {} dialect to accept it \
         without this warning",
        dialect.client(),
        dialect
    );
    cx.push(Severity::Warning, Rule::UnknownField, pos, message);
}

/// The invocation policy from Claude Code's fields and OpenCode's metadata key, as far as
/// the profile and the dialects read them (types were checked with the unknown fields).
pub(super) fn read_invocation(
    cx: &mut Checker<'_>,
    mapping: &Mapping,
    metadata: &[(String, String)],
) -> InvocationFields {
    let mut policy = InvocationFields::default();
    if cx.reading(Dialect::ClaudeCode) != Reading::Ignored {
        let get = |key: &str| mapping.get(key).map(untag);
        if let Some(Value::Bool(true)) = get("disable-model-invocation") {
            policy.model_may_invoke = false;
        }
        if let Some(Value::Bool(false)) = get("user-invocable") {
            policy.user_may_invoke = false;
        }
        policy.argument_hint = match get("argument-hint") {
            // `argument-hint: [file]` is YAML for a list: what the author meant is the text.
            Some(Value::Sequence(items)) => {
                let words: Vec<String> = items
                    .iter()
                    .filter_map(|item| scalar_text(item, None))
                    .map(|item| format!("[{}]", item.trim()))
                    .collect();
                Some(words.join(" "))
            }
            Some(value) => scalar_text(value, cx.raw_value("argument-hint").as_deref())
                .map(|text| text.trim().to_owned()),
            None => None,
        }
        .filter(|hint| !hint.is_empty() && !hint.chars().any(char::is_control));
        policy.arguments = match get("arguments") {
            Some(Value::Sequence(items)) => items
                .iter()
                .filter_map(|item| scalar_text(item, None))
                .flat_map(|item| argument_words(&item))
                .collect(),
            Some(value) => scalar_text(value, None)
                .map(|text| argument_words(&text))
                .unwrap_or_default(),
            None => Vec::new(),
        };
    }
    let opencode = cx.reading(Dialect::OpenCode);
    let autoinvoke = metadata
        .iter()
        .find(|(key, _)| key == dialect::OPENCODE_AUTOINVOKE);
    if let (true, Some((key, value))) = (opencode != Reading::Ignored, autoinvoke) {
        let pos = cx.child_pos("metadata", key);
        match value.trim() {
            "false" | "true" => {
                if value.trim() == "false" {
                    policy.model_may_invoke = false;
                }
                if opencode == Reading::Warned {
                    let what = format!("metadata {key:?}");
                    warn_client_field(cx, what, Dialect::OpenCode, pos);
                }
            }
            other => {
                let message = format!(
                    "metadata {key:?} (OpenCode) must be \"true\" or \"false\", not {:?}",
                    clip(other, 41)
                );
                let severity = opencode.type_severity();
                cx.push(severity, Rule::ClientFieldType, pos, message);
            }
        }
    }
    policy
}

/// Claude Code's fields typed ([`ClientFields`]), as far as the profile and the dialects read
/// them; a value of the wrong type (reported with the unknown fields) is left out. Codex's part
/// comes from `agents/openai.yaml`, read with the skill's folder.
pub(super) fn read_client(cx: &Checker<'_>, mapping: &Mapping) -> ClientFields {
    let mut client = ClientFields::default();
    if cx.reading(Dialect::ClaudeCode) == Reading::Ignored {
        return client;
    }
    let get = |key: &str| {
        let value = mapping.get(key).map(untag)?;
        let (expect, _) = dialect::claude_code_field(key)?;
        expect.accepts(value).then_some(value)
    };
    let text = |key: &str| {
        scalar_text(get(key)?, cx.raw_value(key).as_deref())
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
    };
    client.when_to_use = text("when_to_use");
    client.context = text("context");
    client.agent = text("agent");
    client.model = text("model");
    // A list, or one string: tools separated by spaces or commas (`Edit, Write` is common),
    // paths by commas (a glob may hold spaces; `{a,b}` keeps its comma).
    client.disallowed_tools = items(get("disallowed-tools"), |c, depth| {
        depth.parens == 0 && is_tool_separator(c)
    });
    client.paths = items(get("paths"), |c, depth| depth.braces == 0 && c == ',');
    client
}

/// How deep a character sits in `(...)` and `{...}`.
#[derive(Default)]
struct Depth {
    parens: usize,
    braces: usize,
}

/// The items of a list value (each trimmed), or of a string split where `splits` says, outside
/// the brackets it tracks; empty items dropped.
fn items(value: Option<&Value>, splits: impl Fn(char, &Depth) -> bool) -> Vec<String> {
    let pieces: Vec<String> = match value {
        Some(Value::Sequence(list)) => {
            return list
                .iter()
                .filter_map(|item| scalar_text(item, None))
                .map(|item| item.trim().to_owned())
                .filter(|item| !item.is_empty())
                .collect();
        }
        Some(other) => match scalar_text(other, None) {
            Some(text) => {
                let (mut pieces, mut current, mut depth) =
                    (Vec::new(), String::new(), Depth::default());
                for c in text.chars() {
                    if splits(c, &depth) {
                        pieces.push(std::mem::take(&mut current));
                        continue;
                    }
                    match c {
                        '(' => depth.parens += 1,
                        ')' => depth.parens = depth.parens.saturating_sub(1),
                        '{' => depth.braces += 1,
                        '}' => depth.braces = depth.braces.saturating_sub(1),
                        _ => {}
                    }
                    current.push(c);
                }
                pieces.push(current);
                pieces
            }
            None => Vec::new(),
        },
        None => Vec::new(),
    };
    pieces
        .into_iter()
        .map(|piece| piece.trim().to_owned())
        .filter(|piece| !piece.is_empty())
        .collect()
}

/// The names in an `arguments` value: separated by spaces or commas.
fn argument_words(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::testing::*;

    #[test]
    fn unknown_fields_are_errors_when_strict() {
        let (manifest, diagnostics) = strict(&with("version: 1.0\nallowed_tools: Read\n"));
        assert_eq!(
            found(&diagnostics),
            [("unknown-field", E, 4, 1), ("unknown-field", E, 5, 1)]
        );
        assert_eq!(
            diagnostics[1].message,
            "unknown field \"allowed_tools\" (did you mean \"allowed-tools\"?); the allowed fields are \
             name, description, license, compatibility, metadata, allowed-tools"
        );
        assert!(extra_of(&manifest.unwrap()).is_empty());
    }

    #[test]
    fn unknown_fields_get_a_hint_only_when_near() {
        let hint = |key: &str| {
            let diagnostics = strict(&with(&format!("{key}: x\n"))).1;
            let message = &single(&diagnostics).message;
            message.split_once("(did you mean ").map(|(_, rest)| {
                rest.split_once('?')
                    .map_or(rest, |(name, _)| name)
                    .to_owned()
            })
        };
        assert_eq!(hint("descripton").as_deref(), Some("\"description\""));
        assert_eq!(hint("Licence").as_deref(), Some("\"license\""));
        assert_eq!(hint("allowed_tool").as_deref(), Some("\"allowed-tools\""));
        assert_eq!(hint("version"), None);
        assert_eq!(hint("x".repeat(10_000).as_str()), None);
    }

    #[test]
    fn unknown_fields_are_kept_when_lenient() {
        let (manifest, diagnostics) =
            lenient(&with("version: 1.0\nuser-invocable: true\ntags: [a, b]\n"));
        assert_eq!(
            found(&diagnostics),
            [
                ("unknown-field", W, 4, 1),
                ("unknown-field", W, 5, 1),
                ("unknown-field", W, 6, 1)
            ]
        );
        let manifest = manifest.unwrap();
        // Canonical JSON text: keys sorted, whatever order they were written in.
        assert_eq!(
            manifest.fields.extra,
            r#"{"tags":["a","b"],"user-invocable":true,"version":1.0}"#
        );
        let extra = extra_of(&manifest);
        assert_eq!(
            serde_json::Value::Object(extra),
            serde_json::json!({"version": 1.0, "user-invocable": true, "tags": ["a", "b"]})
        );
    }

    const CLAUDE: &str = "disable-model-invocation: true\nuser-invocable: false\n\
                          argument-hint: \"[file] [out]\"\narguments: [file, out]\nmodel: sonnet\n";

    #[test]
    fn claude_code_fields_stay_unknown_when_strict() {
        let (manifest, diagnostics) = dialects(&with(CLAUDE), Profile::Strict, Dialects::NONE);
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8].map(|line| ("unknown-field", E, line, 1))
        );
        // The specification's message, and the option that accepts the field.
        assert_eq!(
            diagnostics[0].message,
            "unknown field \"disable-model-invocation\"; the allowed fields are name, description, \
             license, compatibility, metadata, allowed-tools; it is a Claude Code field: opt in \
             to the claude-code dialect to accept it (`skills validate --dialect claude-code`, \
             `skills!(..., dialects = [claude_code])`, or `ScanOptions::dialects`)"
        );
        // Lenient: a client field this crate does not read is an unknown field too, with the
        // same advice.
        let (_, diagnostics) = dialects(&with("effort: high\n"), Profile::Lenient, Dialects::NONE);
        assert!(
            single(&diagnostics)
                .message
                .contains("`skills validate --dialect claude-code`")
        );
        // A field no client defines gets no such advice.
        let (_, diagnostics) = dialects(&with("colour: red\n"), Profile::Strict, Dialects::NONE);
        assert!(!single(&diagnostics).message.contains("dialect"));
        // Nothing is honoured.
        assert!(manifest.fields.invocation.is_default());
        assert!(extra_of(&manifest).is_empty());
    }

    #[test]
    fn claude_code_fields_are_honoured_with_warnings_when_lenient() {
        let (manifest, diagnostics) = dialects(&with(CLAUDE), Profile::Lenient, Dialects::NONE);
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8].map(|line| ("unknown-field", W, line, 1))
        );
        assert_eq!(
            diagnostics[0].message,
            "field \"disable-model-invocation\" is a Claude Code field, not part of the Agent \
             Skills specification: it is honoured here, other clients ignore it; opt in to the \
             claude-code dialect to accept it without this warning"
        );
        // `model` is read too (typed in the client fields), with the same warning.
        assert!(
            diagnostics[4]
                .message
                .starts_with("field \"model\" is a Claude Code field")
        );
        assert_eq!(manifest.fields.client.model.as_deref(), Some("sonnet"));
        let policy = manifest.fields.invocation.clone();
        assert!(!policy.model_may_invoke && !policy.user_may_invoke);
        assert_eq!(policy.argument_hint.as_deref(), Some("[file] [out]"));
        assert_eq!(policy.arguments, ["file", "out"]);
        assert_eq!(extra_of(&manifest)["model"], "sonnet");
    }

    #[test]
    fn claude_code_fields_are_known_when_opted_in() {
        for profile in [Profile::Strict, Profile::Lenient] {
            let (manifest, diagnostics) =
                dialects(&with(CLAUDE), profile, Dialect::ClaudeCode.into());
            assert!(diagnostics.is_empty(), "{profile:?}: {diagnostics:#?}");
            assert!(!manifest.fields.invocation.model_may_invoke);
            assert!(!manifest.fields.invocation.user_may_invoke);
            assert_eq!(manifest.fields.invocation.arguments, ["file", "out"]);
            // Known client fields are kept, never dropped.
            assert_eq!(extra_of(&manifest)["model"], "sonnet");
            assert_eq!(
                extra_of(&manifest)["arguments"],
                serde_json::json!(["file", "out"])
            );
        }
        // Another dialect opted in does not make Claude Code's fields known.
        let (_, diagnostics) = dialects(&with(CLAUDE), Profile::Strict, Dialect::Codex.into());
        assert_eq!(diagnostics.len(), 5);
    }

    #[test]
    fn claude_code_types_are_checked_with_lines_when_opted_in() {
        let text = with(
            "disable-model-invocation: \"yes\"\nuser-invocable: 1\nargument-hint: {a: b}\n\
             arguments: [[a]]\nhooks: run\npaths: [\"src/**\"]\nwhen_to_use: Use it.\n",
        );
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialect::ClaudeCode.into());
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8].map(|line| ("client-field-type", E, line, 1))
        );
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "field \"disable-model-invocation\" (Claude Code) must be a boolean (true or false), not a string",
                "field \"user-invocable\" (Claude Code) must be a boolean (true or false), not a number",
                "field \"argument-hint\" (Claude Code) must be a string or a list of strings, not a mapping",
                "field \"arguments\" (Claude Code) must be a string or a list of strings, not a list",
                "field \"hooks\" (Claude Code) must be a mapping, not a string",
            ]
        );
        // A wrong value is not honoured.
        assert!(
            manifest.fields.invocation.model_may_invoke
                && manifest.fields.invocation.user_may_invoke
        );
        // Lenient without the opt-in: the same problems are warnings, beside the portability
        // warnings; the client fields this crate does not read (`hooks`) are not checked.
        let (_, diagnostics) = dialects(&text, Profile::Lenient, Dialects::NONE);
        let types: Vec<_> = found(&diagnostics)
            .into_iter()
            .filter(|d| d.0 == "client-field-type")
            .collect();
        assert_eq!(
            types,
            [4, 5, 6, 7].map(|line| ("client-field-type", W, line, 1))
        );
    }

    #[test]
    fn arguments_and_hints_in_every_shape() {
        let read = |extra: &str| {
            dialects(&with(extra), Profile::Strict, Dialect::ClaudeCode.into())
                .0
                .fields
                .invocation
        };
        assert_eq!(read("arguments: file out\n").arguments, ["file", "out"]);
        assert_eq!(
            read("arguments: \"file, out\"\n").arguments,
            ["file", "out"]
        );
        assert_eq!(
            read("arguments:\n  - file\n  - out\n").arguments,
            ["file", "out"]
        );
        assert!(read("arguments:\n").arguments.is_empty());
        // `argument-hint: [file]` is a YAML list; the author meant the text.
        assert_eq!(
            read("argument-hint: [file, out]\n")
                .argument_hint
                .as_deref(),
            Some("[file] [out]")
        );
        assert_eq!(
            read("argument-hint: 3\n").argument_hint.as_deref(),
            Some("3")
        );
        assert_eq!(read("argument-hint: \"  \"\n").argument_hint, None);
        assert!(read("disable-model-invocation: false\nuser-invocable: true\n").is_default());
    }

    const CLIENT: &str = "when_to_use: The user asks for a review.\n\
                          disallowed-tools: Edit, Write Bash(git push:*)\n\
                          paths: \"src/**/*.rs, docs/{a,b}/*.md\"\n\
                          context: fork\nagent: Explore\nmodel: sonnet\n";

    #[test]
    fn client_fields_are_typed_when_read() {
        for (profile, dialects_read, warnings) in [
            (Profile::Strict, Dialects::from(Dialect::ClaudeCode), 0),
            (Profile::Lenient, Dialects::NONE, 6),
        ] {
            let (manifest, diagnostics) = dialects(&with(CLIENT), profile, dialects_read);
            assert_eq!(diagnostics.len(), warnings, "{diagnostics:#?}");
            assert!(diagnostics.iter().all(|d| !d.is_error()));
            let client = &manifest.fields.client;
            assert_eq!(
                client.when_to_use.as_deref(),
                Some("The user asks for a review.")
            );
            assert_eq!(
                client.disallowed_tools,
                ["Edit", "Write", "Bash(git push:*)"]
            );
            assert_eq!(client.paths, ["src/**/*.rs", "docs/{a,b}/*.md"]);
            assert_eq!(client.context.as_deref(), Some("fork"));
            assert_eq!(client.agent.as_deref(), Some("Explore"));
            assert_eq!(client.model.as_deref(), Some("sonnet"));
            // Still kept as written, beside the unknown fields.
            assert_eq!(
                extra_of(&manifest)["disallowed-tools"],
                "Edit, Write Bash(git push:*)"
            );
        }
        // Strict without the opt-in: unknown fields, nothing typed.
        let (manifest, diagnostics) = dialects(&with(CLIENT), Profile::Strict, Dialects::NONE);
        assert_eq!(diagnostics.len(), 6);
        assert_eq!(manifest.fields.client, crate::ClientFields::default());
        // Lists are read item by item.
        let list = with("disallowed-tools:\n  - Edit\n  - Bash(rm -rf *)\npaths: [\"a b/*\", c]\n");
        let client = dialects(&list, Profile::Strict, Dialect::ClaudeCode.into())
            .0
            .fields
            .client;
        assert_eq!(client.disallowed_tools, ["Edit", "Bash(rm -rf *)"]);
        assert_eq!(client.paths, ["a b/*", "c"]);
    }

    #[test]
    fn client_field_types_are_checked_at_their_lines() {
        let text = with(
            "disallowed-tools: {a: b}\npaths: [[a]]\ncontext: inherit\nagent: [x]\nmodel: {a: 1}\nwhen_to_use: [a]\n",
        );
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialect::ClaudeCode.into());
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8, 9].map(|line| ("client-field-type", E, line, 1))
        );
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "field \"disallowed-tools\" (Claude Code) must be a string or a list of strings, not a mapping",
                "field \"paths\" (Claude Code) must be a string or a list of strings, not a list",
                "field \"context\" (Claude Code) must be \"fork\", not \"inherit\"",
                "field \"agent\" (Claude Code) must be a string, not a list",
                "field \"model\" (Claude Code) must be a string, not a mapping",
                "field \"when_to_use\" (Claude Code) must be a string, not a list",
            ]
        );
        // A wrong value is left out.
        assert_eq!(manifest.fields.client, crate::ClientFields::default());
        // Lenient: warnings, and still left out.
        let (manifest, diagnostics) = dialects(&text, Profile::Lenient, Dialects::NONE);
        assert!(diagnostics.iter().all(|d| !d.is_error()));
        assert_eq!(manifest.fields.client, crate::ClientFields::default());
    }

    #[test]
    fn opencode_autoinvoke() {
        let text = with("metadata:\n  author: Ann\n  opencode/autoinvoke: \"false\"\n");
        // Strict: valid metadata, not honoured.
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialects::NONE);
        assert!(diagnostics.is_empty() && manifest.fields.invocation.model_may_invoke);
        // Lenient: honoured, with a warning at the key.
        let (manifest, diagnostics) = dialects(&text, Profile::Lenient, Dialects::NONE);
        assert_eq!(found(&diagnostics), [("unknown-field", W, 6, 3)]);
        assert!(
            diagnostics[0]
                .message
                .starts_with("metadata \"opencode/autoinvoke\" is an OpenCode field")
        );
        assert!(!manifest.fields.invocation.model_may_invoke);
        // Opted in: honoured, no warning; a bad value is an error at its line.
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialect::OpenCode.into());
        assert!(diagnostics.is_empty() && !manifest.fields.invocation.model_may_invoke);
        let bad = with("metadata:\n  opencode/autoinvoke: never\n");
        let (manifest, diagnostics) = dialects(&bad, Profile::Strict, Dialect::OpenCode.into());
        assert_eq!(found(&diagnostics), [("client-field-type", E, 5, 3)]);
        assert_eq!(
            diagnostics[0].message,
            "metadata \"opencode/autoinvoke\" (OpenCode) must be \"true\" or \"false\", not \"never\""
        );
        assert!(manifest.fields.invocation.model_may_invoke);
        // A YAML boolean is read as its text.
        let boolean = with("metadata: {opencode/autoinvoke: false}\n");
        let (manifest, diagnostics) = dialects(&boolean, Profile::Strict, Dialect::OpenCode.into());
        assert!(diagnostics.is_empty() && !manifest.fields.invocation.model_may_invoke);
    }
}
