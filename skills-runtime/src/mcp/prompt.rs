//! Each skill the user may invoke as an MCP prompt, beside the `skills` listing prompt: hosts
//! that offer a server's prompts as slash commands offer the skills as commands, without the
//! skills extension. `prompts/get` renders the skill as a user's `/name args` would
//! ([`invoke::render`]: the same placeholders, the same size cap).

use rmcp::model::{ErrorData, JsonObject, Prompt, PromptArgument};
use serde_json::Value;

use super::LISTING_PROMPT;
use crate::invoke;
use crate::model::skill::Skill;
use crate::text::{echo, json_string};

/// The one argument of a skill whose `arguments` field names none: what a user types after
/// `/name`, as `$ARGUMENTS` receives it.
pub(super) const ARGUMENTS: &str = "arguments";

/// Whether `skill` is offered as a prompt of its own: every skill the user may invoke but one
/// named like the listing prompt, which keeps its name (the skill stays reachable through the
/// tool and the listing).
pub(super) fn offered(skill: &Skill) -> bool {
    skill.name() != LISTING_PROMPT
}

/// The prompt of `skill`: its name, title and description, and its arguments: the names of its
/// `arguments` field in order (`$name` and `$N` in its body), or one `arguments` (what
/// `$ARGUMENTS` receives) described by its `argument-hint`. None is required: a skill invoked
/// without arguments gets empty placeholders, as `/name` alone does.
pub(super) fn prompt(skill: &Skill) -> Prompt {
    let policy = skill.policy();
    let hint = policy.argument_hint();
    let named: Vec<&str> = policy.arguments().collect();
    let arguments = if named.is_empty() {
        let description = match hint {
            Some(hint) => format!("What to invoke the skill with: {hint}"),
            None => "What to invoke the skill with, as typed after its slash command (words \
                     separated by spaces; quote a word that holds spaces)."
                .to_owned(),
        };
        vec![
            PromptArgument::new(ARGUMENTS)
                .with_description(description)
                .with_required(false),
        ]
    } else {
        named
            .iter()
            .enumerate()
            .map(|(at, name)| {
                let mut description = format!("Argument {} of the skill (${name}, ${at}).", at + 1);
                if let Some(hint) = hint {
                    description.push_str(&format!(" Usage: {hint}"));
                }
                PromptArgument::new(*name)
                    .with_description(description)
                    .with_required(false)
            })
            .collect()
    };
    Prompt::new(skill.name(), Some(skill.description()), Some(arguments))
        .with_title(format!("/{} (skill)", skill.name()))
}

/// The text a user would type after `/name` for the arguments of a `prompts/get` of `skill`:
/// the named arguments in their order, each quoted when it holds spaces or quotes (so `$N`
/// receives it whole), or the `arguments` argument as given. An argument the skill does not
/// take, or that is not a string (a number or a boolean is taken as its JSON text), is an
/// error naming the arguments it takes.
pub(super) fn typed(skill: &Skill, given: Option<&JsonObject>) -> Result<String, ErrorData> {
    let policy = skill.policy();
    let named: Vec<&str> = policy.arguments().collect();
    let takes: Vec<&str> = if named.is_empty() {
        vec![ARGUMENTS]
    } else {
        named.clone()
    };
    let Some(given) = given else {
        return Ok(String::new());
    };
    let mut values = Vec::with_capacity(takes.len());
    for name in &takes {
        values.push(match given.get(*name) {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.clone()),
            Some(scalar @ (Value::Number(_) | Value::Bool(_))) => Some(scalar.to_string()),
            Some(_) => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "Argument \"{name}\" of prompt \"{}\" must be a string.",
                        skill.name()
                    ),
                    None,
                ));
            }
        });
    }
    if let Some(unknown) = given.keys().find(|key| !takes.contains(&key.as_str())) {
        return Err(ErrorData::invalid_params(
            format!(
                "Prompt \"{}\" takes no argument {}; its arguments are: {}.",
                skill.name(),
                json_string(&echo(unknown)),
                takes.join(", ")
            ),
            None,
        ));
    }
    if named.is_empty() {
        return Ok(values.pop().flatten().unwrap_or_default());
    }
    // Positions count: an argument left out before a given one is an empty word.
    let last = values
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |at| at + 1);
    let words: Vec<String> = values[..last]
        .iter()
        .map(|value| quoted(value.as_deref().unwrap_or_default()))
        .collect();
    Ok(words.join(" "))
}

/// `word` as one word of a user's arguments ([`invoke::render`] splits them as a shell would):
/// as it is when it holds no space, quote or backslash, else in double quotes.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && !word
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '\\'));
    if plain {
        return word.to_owned();
    }
    let mut out = String::with_capacity(word.len() + 2);
    out.push('"');
    for c in word.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The text of the prompt of `skill` invoked with `typed`, its skill folder `dir` for
/// `${SKILL_DIR}`; a text over [`invoke::MAX_RENDERED_BYTES`] is an error saying so.
pub(super) fn render(skill: &Skill, typed: &str, dir: Option<&str>) -> Result<String, ErrorData> {
    invoke::render(skill, typed, dir).map_err(|e| ErrorData::invalid_params(e.to_string(), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fields;

    fn skill(extra: &str, body: &str) -> Skill {
        let fields = Fields {
            name: "pdf".into(),
            description: "Fill PDF forms.".into(),
            extra: extra.into(),
            ..Fields::default()
        };
        Skill::owned(fields, body.into(), vec![])
    }

    fn object(value: Value) -> JsonObject {
        let Value::Object(map) = value else {
            panic!("an object")
        };
        map
    }

    #[test]
    fn named_arguments_are_words_in_their_order() {
        let pdf = skill(
            r#"{"arguments": ["file", "values"], "argument-hint": "[file] [values]"}"#,
            "Fill $file with $values ($1).\n",
        );
        let prompt = prompt(&pdf);
        let names: Vec<_> = prompt
            .arguments
            .unwrap()
            .into_iter()
            .map(|a| a.name)
            .collect();
        assert_eq!(names, ["file", "values"]);
        let given = object(serde_json::json!({"values": "my \"v\".json", "file": "a b.pdf"}));
        let words = typed(&pdf, Some(&given)).unwrap();
        assert_eq!(words, r#""a b.pdf" "my \"v\".json""#);
        assert_eq!(
            render(&pdf, &words, None).unwrap(),
            "Fill a b.pdf with my \"v\".json (my \"v\".json).\n"
        );
        // A later argument alone: the earlier one is an empty word.
        let given = object(serde_json::json!({"values": "v.json"}));
        assert_eq!(typed(&pdf, Some(&given)).unwrap(), r#""" v.json"#);
        let given = object(serde_json::json!({"value": "v.json"}));
        let err = typed(&pdf, Some(&given)).unwrap_err();
        assert!(
            err.message
                .contains("takes no argument \"value\"; its arguments are: file, values."),
            "{}",
            err.message
        );
    }

    #[test]
    fn without_named_arguments_one_argument_takes_the_text() {
        let review = skill("{}", "Review $ARGUMENTS.\n");
        let prompt = prompt(&review);
        let arguments = prompt.arguments.unwrap();
        assert_eq!(arguments.len(), 1);
        assert_eq!(arguments[0].name, ARGUMENTS);
        assert_eq!(arguments[0].required, Some(false));
        let given = object(serde_json::json!({"arguments": "src/lib.rs  --deep"}));
        let words = typed(&review, Some(&given)).unwrap();
        assert_eq!(
            render(&review, &words, None).unwrap(),
            "Review src/lib.rs  --deep.\n"
        );
        assert_eq!(typed(&review, None).unwrap(), "");
        let nested = object(serde_json::json!({"arguments": ["a"]}));
        assert!(typed(&review, Some(&nested)).is_err());
    }
}
