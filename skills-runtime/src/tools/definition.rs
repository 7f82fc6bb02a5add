//! Tool definitions: what the model is told it can call to load skills.
//!
//! Two styles from one core. **Unified**: one tool (`load_skill` by default) taking `skill`,
//! `path` (default `SKILL.md`), `section`, `offset` and `chunk`. **Split**: `read_skill(skill)`,
//! `read_skill_resource(skill, file)` and `load_skill_chunk(skill, chunk)`. In both, `skill` is a
//! JSON Schema `enum` of the skills the model may load, so it can only name one that exists.
//!
//! Each [`ToolDefinition`] exports as plain JSON Schema, an OpenAI function tool (valid in strict
//! mode), an Anthropic tool and an MCP tool.
//!
//! No skill, no tool: when no skill is visible (an empty set, or every skill denied),
//! [`Tools::definitions`](super::Tools::definitions) is empty and the listing is the empty string;
//! a host whose set may fill up later (a watched folder) asks again.

use std::fmt::Write;

use serde_json::{Value, json};

use super::settings::{Settings, ToolStyle};
use crate::model::script::Script;
use crate::text;

/// The split style's tool names.
pub(crate) const READ_SKILL: &str = "read_skill";
/// The split style's resource tool.
pub(crate) const READ_SKILL_RESOURCE: &str = "read_skill_resource";
/// The split style's chunk tool.
pub(crate) const LOAD_SKILL_CHUNK: &str = "load_skill_chunk";

/// The name of the split style's tool for script `script` of skill `skill`:
/// `<skill>__<script>` (a skill name holds no `_`, so the two parts never blur), with every
/// character tool names may not hold (providers take ASCII letters, digits, `_` and `-`)
/// written as `_`, so a script file's path gives a name too.
pub(crate) fn script_tool_name(skill: &str, script: &str) -> String {
    format!("{skill}__{script}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One tool: its name, what it is for, and its parameters as JSON Schema.
///
/// ```
/// use skills_embed::tools::{Settings, Tools};
/// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// # let pdf = Skill::owned(
/// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
/// #     "Use pdftotext.\n".into(),
/// #     vec![],
/// # );
/// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
/// let definitions = Tools::new(set, Settings::default()).definitions();
/// let load = &definitions[0];
/// assert_eq!(load.name, "load_skill");
/// assert!(load.description.starts_with("Load a skill's instructions or one of its files."));
/// assert_eq!(load.json_schema()["required"], serde_json::json!(["skill"]));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// What the tool does, written for the model.
    pub description: String,
    /// Parameter name, JSON Schema, whether required, in order.
    params: Vec<(&'static str, Value, bool)>,
    /// A whole parameter schema given as is (a script's own arguments), instead of `params`.
    schema: Option<Value>,
}

impl ToolDefinition {
    /// The parameters as a JSON Schema object: optional parameters are simply not `required`.
    ///
    /// ```
    /// use serde_json::json;
    /// use skills_embed::tools::{Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let schema = Tools::new(set, Settings::default()).definitions()[0].json_schema();
    /// assert_eq!(schema["properties"]["skill"]["enum"], json!(["pdf"]));
    /// assert_eq!(schema["properties"]["path"]["default"], json!("SKILL.md"));
    /// assert_eq!(schema["required"], json!(["skill"])); // `path`, `offset`... are optional
    /// ```
    pub fn json_schema(&self) -> Value {
        if let Some(schema) = &self.schema {
            return schema.clone();
        }
        let properties: serde_json::Map<String, Value> = self
            .params
            .iter()
            .map(|(name, schema, _)| (name.to_string(), schema.clone()))
            .collect();
        let required: Vec<&str> = self
            .params
            .iter()
            .filter(|(_, _, req)| *req)
            .map(|(n, ..)| *n)
            .collect();
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })
    }

    /// An OpenAI function tool, valid in strict mode: every property is `required`, optional
    /// ones accept `null`, and `additionalProperties` is `false`. A script's tool whose
    /// arguments cannot be written that way (an open object, an optional field) is sent with
    /// `"strict": false` and its schema as it is.
    ///
    /// ```
    /// use serde_json::json;
    /// use skills_embed::tools::{Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let tool = Tools::new(set, Settings::default()).definitions()[0].to_openai();
    /// assert_eq!(tool["type"], "function");
    /// assert_eq!(tool["function"]["strict"], true);
    /// let parameters = &tool["function"]["parameters"];
    /// assert_eq!(parameters["required"], json!(["skill", "path", "section", "offset", "chunk"]));
    /// assert_eq!(parameters["properties"]["path"]["type"], json!(["string", "null"]));
    /// ```
    pub fn to_openai(&self) -> Value {
        if let Some(schema) = &self.schema {
            return json!({
                "type": "function",
                "function": {
                    "name": self.name,
                    "description": self.description,
                    "strict": strict_compatible(schema),
                    "parameters": schema,
                },
            });
        }
        let strict = self
            .params
            .iter()
            .all(|(_, schema, _)| strict_compatible(schema));
        let properties: serde_json::Map<String, Value> = self
            .params
            .iter()
            .map(|(name, schema, required)| {
                let schema = if *required {
                    schema.clone()
                } else {
                    nullable(schema)
                };
                (name.to_string(), schema)
            })
            .collect();
        let required: Vec<&str> = self.params.iter().map(|(n, ..)| *n).collect();
        json!({
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "strict": strict,
                "parameters": {
                    "type": "object",
                    "properties": properties,
                    "required": required,
                    "additionalProperties": false,
                },
            },
        })
    }

    /// An Anthropic tool: `name`, `description`, `input_schema`.
    ///
    /// ```
    /// use skills_embed::tools::{Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let load = &Tools::new(set, Settings::default()).definitions()[0];
    /// let tool = load.to_anthropic();
    /// assert_eq!(tool["name"], "load_skill");
    /// assert_eq!(tool["input_schema"], load.json_schema());
    /// ```
    pub fn to_anthropic(&self) -> Value {
        json!({ "name": self.name, "description": self.description, "input_schema": self.json_schema() })
    }

    /// An MCP tool: `name`, `description`, `inputSchema`.
    ///
    /// ```
    /// use skills_embed::tools::{Settings, Tools};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let pdf = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Use pdftotext.\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// let load = &Tools::new(set, Settings::default()).definitions()[0];
    /// let tool = load.to_mcp();
    /// assert_eq!(tool["name"], "load_skill");
    /// assert_eq!(tool["inputSchema"], load.json_schema());
    /// ```
    pub fn to_mcp(&self) -> Value {
        json!({ "name": self.name, "description": self.description, "inputSchema": self.json_schema() })
    }
}

/// Whether `schema` is valid in OpenAI's strict mode as it is: every object in it lists all
/// its properties as `required` and sets `additionalProperties` to `false`, and it uses no
/// keyword strict mode refuses (`oneOf`, `allOf`, `not`, `if`, `patternProperties`). Strings,
/// numbers, enums, arrays and `anyOf` pass.
pub fn strict_compatible(schema: &Value) -> bool {
    const REFUSED: [&str; 5] = ["oneOf", "allOf", "not", "if", "patternProperties"];
    fn walk(schema: &Value, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        let Some(obj) = schema.as_object() else {
            return schema.is_boolean() || schema.is_null();
        };
        if REFUSED.iter().any(|k| obj.contains_key(*k)) {
            return false;
        }
        let is_object = match obj.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            _ => obj.contains_key("properties"),
        };
        if is_object {
            let properties = obj.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = obj
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let all_required =
                properties.is_none_or(|p| p.keys().all(|k| required.contains(&k.as_str())));
            if obj.get("additionalProperties") != Some(&Value::Bool(false)) || !all_required {
                return false;
            }
        }
        obj.iter().all(|(key, value)| match key.as_str() {
            "properties" | "$defs" | "definitions" => value
                .as_object()
                .is_none_or(|m| m.values().all(|v| walk(v, depth + 1))),
            "items" | "additionalProperties" => walk(value, depth + 1),
            "anyOf" | "prefixItems" => value
                .as_array()
                .is_none_or(|a| a.iter().all(|v| walk(v, depth + 1))),
            _ => true,
        })
    }
    walk(schema, 0)
}

/// The definitions of the run tools for `scripts` (of visible skills, sorted by skill and
/// name): one `run_skill_script` whose `script` is a closed enum of `skill/script` pairs, or
/// (split style) one tool per script whose parameters are the script's own arguments.
///
/// The pair enum is one plain string enum, which every provider's strict mode accepts; a
/// `oneOf` with a branch per skill would be refused by OpenAI's strict mode and Gemini.
pub(crate) fn run_definitions(config: &Settings, scripts: &[&Script]) -> Vec<ToolDefinition> {
    if scripts.is_empty() {
        return Vec::new();
    }
    match config.style {
        ToolStyle::Unified => {
            let pairs: Vec<String> = scripts
                .iter()
                .map(|s| format!("{}/{}", s.skill(), s.name()))
                .collect();
            let mut described = String::new();
            for (pair, script) in pairs.iter().zip(scripts) {
                let description = script.description();
                let _ = write!(described, "\n- {pair}");
                if !description.is_empty() {
                    let _ = write!(described, ": {}", text::one_line(&description));
                }
                // The description was just written; the schema need not repeat it.
                let mut schema = script.schema();
                if let Value::Object(map) = &mut schema {
                    map.remove("description");
                }
                let _ = write!(described, " Arguments: {schema}");
            }
            vec![ToolDefinition {
                name: config.run_name.to_string(),
                description: format!(
                    "Run a script a skill provides, inside this agent: no files, no shell. Load the \
                     skill first and follow its instructions on when to run which script. Send \
                     `script` as \"skill/script\" and `args` as a JSON object matching that \
                     script's arguments. The scripts:{described}"
                ),
                params: vec![
                    (
                        "script",
                        json!({
                            "type": "string",
                            "enum": pairs,
                            "description": "The script to run, as \"skill/script\".",
                        }),
                        true,
                    ),
                    (
                        "args",
                        json!({
                            "type": "object",
                            "description": "The script's arguments, as its schema in this tool's description says.",
                        }),
                        true,
                    ),
                ],
                schema: None,
            }]
        }
        ToolStyle::Split => scripts
            .iter()
            .map(|script| {
                let description = script.description();
                let what = if description.is_empty() {
                    String::new()
                } else {
                    format!("{} ", text::one_line(&description))
                };
                ToolDefinition {
                    name: script_tool_name(script.skill(), script.name()),
                    description: format!(
                        "{what}(Script {} of skill {}: load the skill first and follow its instructions.)",
                        text::json_string(script.name()),
                        text::json_string(script.skill())
                    ),
                    params: Vec::new(),
                    schema: Some(script.schema()),
                }
            })
            .collect(),
    }
}

/// A schema that also accepts `null`, for optional parameters in strict mode.
fn nullable(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(obj) = schema.as_object_mut() {
        // Defaults are meaningless once the model must send every field.
        obj.remove("default");
        match obj.get_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                obj.insert("type".into(), json!([t, "null"]));
            }
            Some(Value::Array(types)) if !types.contains(&json!("null")) => {
                types.push(json!("null"))
            }
            _ => {}
        }
    }
    schema
}

/// Builds the definitions for `names` (the skills the model may load, sorted).
pub(crate) fn definitions(
    config: &Settings,
    names: &[&str],
    listing: Option<&str>,
) -> Vec<ToolDefinition> {
    let skill = json!({
        "type": "string",
        "enum": names,
        "description": "The skill to load, by name.",
    });
    let listing_note = match listing {
        Some(l) if !l.is_empty() => format!("\n\nAvailable skills:\n{l}"),
        _ => String::new(),
    };
    match config.style {
        ToolStyle::Unified => vec![ToolDefinition {
            name: config.name.to_string(),
            description: format!(
                "Load a skill's instructions or one of its files. Call it with only `skill` to get the \
                 instructions (path \"SKILL.md\") and the list of the skill's files; then load a file the \
                 instructions mention with `path`. Long files come in parts: the answer says which \
                 `offset` continues it. Use `section` to get one Markdown section, and `chunk` for an \
                 optional block listed after the instructions.{listing_note}"
            ),
            params: vec![
                ("skill", skill, true),
                (
                    "path",
                    json!({
                        "type": "string",
                        "description": "A path relative to the skill's folder, like \"references/forms.md\". \"SKILL.md\" (the default) is the instructions.",
                        "default": "SKILL.md",
                    }),
                    false,
                ),
                (
                    "section",
                    json!({
                        "type": "string",
                        "description": "A Markdown heading of the file, like \"Usage\": returns that section only.",
                    }),
                    false,
                ),
                (
                    "offset",
                    json!({
                        "type": "integer",
                        "minimum": 0,
                        "description": "Where to continue a file that was cut, as given at the end of the previous answer.",
                    }),
                    false,
                ),
                (
                    "chunk",
                    json!({
                        "type": "string",
                        "description": "The id of an optional block listed after the instructions.",
                    }),
                    false,
                ),
            ],
            schema: None,
        }],
        ToolStyle::Split => vec![
            ToolDefinition {
                name: READ_SKILL.into(),
                description: format!(
                    "Read a skill's instructions and the list of its files. Call it before a task the \
                     skill covers.{listing_note}"
                ),
                params: vec![("skill", skill.clone(), true)],
                schema: None,
            },
            ToolDefinition {
                name: READ_SKILL_RESOURCE.into(),
                description: "Read one file of a skill, by its path relative to the skill's folder, as listed \
                     after the skill's instructions. Long files come in parts: pass the `offset` the previous \
                     answer gave to continue."
                    .into(),
                params: vec![
                    ("skill", skill.clone(), true),
                    (
                        "file",
                        json!({ "type": "string", "description": "The file's path, like \"references/forms.md\"." }),
                        true,
                    ),
                    (
                        "offset",
                        json!({ "type": "integer", "minimum": 0, "description": "Where to continue a file that was cut." }),
                        false,
                    ),
                ],
                schema: None,
            },
            ToolDefinition {
                name: LOAD_SKILL_CHUNK.into(),
                description: "Load one optional block of a skill's instructions, by the id listed after them."
                    .into(),
                params: vec![
                    ("skill", skill, true),
                    ("chunk", json!({ "type": "string", "description": "The block's id." }), true),
                ],
                schema: None,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_tool_names_and_strict_schemas() {
        use serde_json::json;
        assert_eq!(
            script_tool_name("pdf-forms", "fill_form"),
            "pdf-forms__fill_form"
        );
        assert_eq!(
            script_tool_name("pdf-forms", "scripts/fill.py"),
            "pdf-forms__scripts_fill_py"
        );
        assert!(strict_compatible(
            &json!({"type": "object", "properties": {"a": {"type": "string"}},
            "required": ["a"], "additionalProperties": false})
        ));
        assert!(!strict_compatible(&json!({"type": "object"})));
        assert!(!strict_compatible(
            &json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})
        ));
    }
    use crate::tools::ToolName;
    use crate::tools::settings::RUN_SKILL_SCRIPT;

    /// Issue 25: a tool name took an empty name and newlines; now the set every provider
    /// accepts, `^[a-zA-Z0-9_-]{1,64}$`, and nothing else.
    #[test]
    fn tool_names_are_what_every_provider_accepts() {
        let longest = "a".repeat(64);
        for name in [
            "a",
            "Z9",
            "load_skill",
            "run-skill-script",
            "_",
            "-",
            &longest,
        ] {
            assert_eq!(name.parse::<ToolName>().unwrap(), name);
        }
        let over = "a".repeat(65);
        let huge = format!("{}\n", "b".repeat(10_000));
        for (name, problem) in [
            ("", "is empty"),
            ("\n", r"has '\n' at byte 0"),
            ("a\r", r"has '\r' at byte 1"),
            ("a b", "has ' ' at byte 1"),
            ("a.b", "has '.' at byte 1"),
            ("a/b", "has '/' at byte 1"),
            ("caf\u{e9}", "has 'é' at byte 3"),
            ("a\u{0}", r"has '\0' at byte 1"),
            (&over, "is 65 characters long"),
            (&huge, r"has '\n' at byte 10000"),
        ] {
            let err = name.parse::<ToolName>().unwrap_err();
            assert_eq!(err.problem, problem, "{name:?}");
            assert!(err.name.chars().count() <= crate::text::ECHO, "{name:?}");
            assert!(!err.to_string().contains('\n'), "{err}");
        }
        assert_eq!(Settings::default().name, "load_skill");
        assert_eq!(Settings::default().run_name, RUN_SKILL_SCRIPT);
    }

    #[test]
    fn unified_schema_has_the_enum_and_one_required_field() {
        let defs = definitions(&Settings::default(), &["a", "b"], None);
        assert_eq!(defs.len(), 1);
        let schema = defs[0].json_schema();
        assert_eq!(schema["properties"]["skill"]["enum"], json!(["a", "b"]));
        assert_eq!(schema["required"], json!(["skill"]));
        assert_eq!(schema["additionalProperties"], json!(false));
    }

    #[test]
    fn openai_strict_requires_everything_and_makes_optionals_nullable() {
        let defs = definitions(&Settings::default(), &["a"], None);
        let tool = defs[0].to_openai();
        let params = &tool["function"]["parameters"];
        assert_eq!(tool["function"]["strict"], json!(true));
        assert_eq!(
            params["required"],
            json!(["skill", "path", "section", "offset", "chunk"])
        );
        assert_eq!(
            params["properties"]["path"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(params["properties"]["path"].get("default"), None);
        assert_eq!(params["properties"]["skill"]["type"], json!("string"));
        assert_eq!(params["additionalProperties"], json!(false));
    }

    #[test]
    fn split_style_has_three_tools() {
        let config = Settings {
            style: ToolStyle::Split,
            ..Settings::default()
        };
        let names: Vec<String> = definitions(&config, &["a"], None)
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert_eq!(names, [READ_SKILL, READ_SKILL_RESOURCE, LOAD_SKILL_CHUNK]);
    }

    #[test]
    fn anthropic_and_mcp_shapes() {
        let def = &definitions(&Settings::default(), &["a"], Some("- a: does A"))[0];
        assert_eq!(def.to_anthropic()["input_schema"], def.json_schema());
        assert_eq!(def.to_mcp()["inputSchema"], def.json_schema());
        assert!(def.description.ends_with("Available skills:\n- a: does A"));
    }
}
