//! Decoding a tool call: the model's raw JSON arguments into a [`Call`], or a [`CallError`]
//! that says what was wrong and what is valid.

use serde_json::{Map, Value};

use super::definition::{LOAD_SKILL_CHUNK, READ_SKILL, READ_SKILL_RESOURCE};
use super::settings::Settings;
use crate::model::fields::MANIFEST;
use crate::text::{self, echo};

/// A parsed tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Call {
    /// A skill's body.
    Body {
        /// The skill's name.
        skill: String,
        /// A heading to return alone.
        section: Option<String>,
        /// Where to continue a cut body.
        offset: usize,
    },
    /// One file of a skill.
    File {
        /// The skill's name.
        skill: String,
        /// The path relative to the skill's folder.
        path: String,
        /// A heading to return alone.
        section: Option<String>,
        /// Where to continue a cut file.
        offset: usize,
    },
    /// One chunk of a skill's body.
    Chunk {
        /// The skill's name.
        skill: String,
        /// The chunk's id.
        chunk: String,
    },
    /// A run of one of a skill's Rust scripts.
    Run {
        /// The skill's name.
        skill: String,
        /// The script's name.
        script: String,
        /// The arguments, as the model sent them.
        args: Value,
    },
}

impl Call {
    /// The skill the call is for.
    pub(crate) fn skill(&self) -> &str {
        match self {
            Call::Body { skill, .. }
            | Call::File { skill, .. }
            | Call::Chunk { skill, .. }
            | Call::Run { skill, .. } => skill,
        }
    }
}

/// A call that cannot be answered with content: its text says what was wrong and what is
/// valid, for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct CallError(pub(crate) String);

/// What decoding needs to know besides the configuration, asked only when it is needed: the
/// sentence naming the skills that exist, the names of the tools offered, and the skill and
/// script a split-style script tool stands for.
pub(crate) struct Known<'a> {
    pub(crate) names: &'a dyn Fn() -> String,
    pub(crate) tools: &'a dyn Fn() -> Vec<String>,
    pub(crate) script_tool: &'a dyn Fn(&str) -> Option<(String, String)>,
}

/// Decodes a call to tool `tool_name` with its raw JSON `arguments`. What `known` gives is
/// asked only when the call is wrong or names a script tool: a right call allocates for its own
/// values only.
pub(crate) fn decode(
    config: &Settings,
    tool_name: &str,
    arguments: &str,
    known: &Known<'_>,
) -> Result<Call, CallError> {
    let args = parse_object(arguments)
        .map_err(|e| CallError(e + &usage(config, tool_name, known.names)))?;
    decode_object(config, tool_name, args, known)
}

/// [`decode`] for arguments already parsed into an object, as a protocol such as MCP hands
/// them over: they are not written out as text to be parsed again.
pub(crate) fn decode_object(
    config: &Settings,
    tool_name: &str,
    args: Map<String, Value>,
    known: &Known<'_>,
) -> Result<Call, CallError> {
    let names = known.names;
    let usage = |tool_name: &str| usage(config, tool_name, names);
    let skill = || required_str(&args, "skill", tool_name, &usage);
    let name = tool_name.trim();
    if name == config.run_name {
        return run_call(args, tool_name, &usage);
    }
    if name == config.name {
        let chunk = optional_str(&args, "chunk")?;
        let section = optional_str(&args, "section")?;
        let offset = optional_offset(&args)?;
        let path = optional_str(&args, "path")?.unwrap_or_else(|| MANIFEST.to_owned());
        let skill = skill()?;
        Ok(match chunk {
            Some(chunk) => Call::Chunk { skill, chunk },
            None if is_manifest(&path) => Call::Body {
                skill,
                section,
                offset,
            },
            None => Call::File {
                skill,
                path,
                section,
                offset,
            },
        })
    } else if name == READ_SKILL {
        Ok(Call::Body {
            skill: skill()?,
            section: None,
            offset: 0,
        })
    } else if name == READ_SKILL_RESOURCE {
        let offset = optional_offset(&args)?;
        let path = required_str(&args, "file", tool_name, &usage)?;
        Ok(Call::File {
            skill: skill()?,
            path,
            section: None,
            offset,
        })
    } else if name == LOAD_SKILL_CHUNK {
        let chunk = required_str(&args, "chunk", tool_name, &usage)?;
        Ok(Call::Chunk {
            skill: skill()?,
            chunk,
        })
    } else if let Some((skill, script)) = (known.script_tool)(name) {
        Ok(Call::Run {
            skill,
            script,
            args: Value::Object(args),
        })
    } else {
        let names = (known.tools)();
        Err(CallError(format!(
            "Unknown tool {}. The skill tools are: {}.",
            text::json_string(&echo(tool_name)),
            names.join(", ")
        )))
    }
}

/// A call of the unified run tool: `script` as `skill/script` (or `skill` and `script`
/// apart, as some models send them), `args` an object (or a string holding one).
fn run_call(
    args: Map<String, Value>,
    tool_name: &str,
    usage: &dyn Fn(&str) -> String,
) -> Result<Call, CallError> {
    let script = required_str(&args, "script", tool_name, usage)?;
    let (skill, script) = match (script.split_once('/'), optional_str(&args, "skill")?) {
        (Some((skill, script)), _) => (skill.to_owned(), script.to_owned()),
        (None, Some(skill)) => (skill, script),
        (None, None) => {
            return Err(CallError(format!(
                "\"script\" must name the skill too, as \"skill/script\"; got {}.{}",
                text::json_string(&echo(&script)),
                usage(tool_name)
            )));
        }
    };
    let args = match args.get("args") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::Object(map)) => Value::Object(map.clone()),
        Some(Value::String(s)) => match parse_object(s) {
            Ok(map) => Value::Object(map),
            Err(e) => return Err(CallError(format!("\"args\": {e}{}", usage(tool_name)))),
        },
        Some(other) => {
            return Err(CallError(format!(
                "\"args\" must be a JSON object, not {}.{}",
                kind(other),
                usage(tool_name)
            )));
        }
    };
    Ok(Call::Run {
        skill,
        script,
        args,
    })
}

/// How to call `tool_name`, and the skills that exist.
fn usage(config: &Settings, tool_name: &str, names: &dyn Fn() -> String) -> String {
    let example = match tool_name.trim() {
        READ_SKILL => r#"{"skill": "NAME"}"#,
        READ_SKILL_RESOURCE => r#"{"skill": "NAME", "file": "references/guide.md"}"#,
        LOAD_SKILL_CHUNK => r#"{"skill": "NAME", "chunk": "ID"}"#,
        name if name == config.run_name => r#"{"script": "SKILL/SCRIPT", "args": {...}}"#,
        _ => r#"{"skill": "NAME", "path": "SKILL.md"}"#,
    };
    format!(" Send a JSON object like {example}.{}", names())
}

fn required_str(
    args: &Map<String, Value>,
    key: &str,
    tool_name: &str,
    usage: &dyn Fn(&str) -> String,
) -> Result<String, CallError> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        None | Some(Value::Null) => {
            Err(CallError(format!("Missing \"{key}\".{}", usage(tool_name))))
        }
        Some(other) => Err(CallError(format!(
            "\"{key}\" must be a string, not {}.{}",
            kind(other),
            usage(tool_name)
        ))),
    }
}

fn parse_object(arguments: &str) -> Result<Map<String, Value>, String> {
    let trimmed = arguments.trim();
    if trimmed.is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "The arguments must be a JSON object, not {}.",
            kind(&other)
        )),
        Err(e) => Err(format!("The arguments are not valid JSON ({e}).")),
    }
}

fn optional_str(args: &Map<String, Value>, key: &str) -> Result<Option<String>, CallError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() && key != "path" => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(CallError(format!(
            "\"{key}\" must be a string, not {}.",
            kind(other)
        ))),
    }
}

fn optional_offset(args: &Map<String, Value>) -> Result<usize, CallError> {
    match args.get("offset") {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => match n.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) => Ok(n),
            None => Err(CallError(format!(
                "\"offset\" must be a whole number of 0 or more, as given at the end of a cut answer; got {n}."
            ))),
        },
        // Some models send numbers as strings.
        Some(Value::String(s)) if s.trim().parse::<usize>().is_ok() => {
            Ok(s.trim().parse().unwrap_or(0))
        }
        Some(other) => Err(CallError(format!(
            "\"offset\" must be a whole number of 0 or more, not {}.",
            kind(other)
        ))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn is_manifest(path: &str) -> bool {
    crate::model::path::check(path).is_ok_and(|p| p.to_string() == MANIFEST)
}
