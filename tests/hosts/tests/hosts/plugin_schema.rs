//! Plugin folders (`package::Plugin`): each manifest checked against its format's published
//! schema, the skills read back from the plugin, the names and commands the formats refuse, and
//! the writes that must not happen.
//!
//! The schemas below are transcribed from the published ones (tests reach no network):
//! Agent Plugins 1.0.0, <https://agent-plugins.org/schemas/1.0.0/plugin.schema.json> and
//! `mcp.schema.json` (github.com/agentplugins/agent-plugins-spec, `schemas/1.0.0/`); Cursor's,
//! <https://raw.githubusercontent.com/cursor/plugins/main/schemas/plugin.schema.json>. Claude
//! Code publishes no JSON Schema: its schema here is written from the documented fields
//! (<https://code.claude.com/docs/en/plugins-reference>: `name` required, kebab-case; `version`,
//! `description` strings; `author` an object with `name`; `mcpServers` a map of servers with
//! `command` and `args`).

use std::fs;
use std::path::Path;

use serde_json::{Value, json};
use skills_embed::listing::ListingFormat;
use skills_embed::package::{Plugin, PluginError, PluginFormat};
use skills_embed::parse::{ScanOptions, validate};
use skills_embed::{Fields, Skill, SkillSet};

skills_embed::skills!("../fixtures/basic");

/// Agent Plugins 1.0.0 `plugin.json`: `$schema` and `name` required, a closed object.
fn agent_plugins_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "$schema": { "const": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json" },
            "name": {
                "type": "string", "minLength": 1, "maxLength": 64,
                "pattern": "^(?!.*(?:--|\\.\\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$"
            },
            "version": { "type": "string" },
            "description": { "type": "string" },
            "author": {
                "type": "object",
                "properties": {
                    "name": { "type": "string" },
                    "email": { "type": "string" },
                    "url": { "type": "string" }
                },
                "additionalProperties": false
            },
            "homepage": { "type": "string" },
            "repository": { "type": "string" },
            "license": { "type": "string" },
            "keywords": { "type": "array", "items": { "type": "string" } },
            "extensions": { "type": "object", "additionalProperties": { "type": "object" } },
            "displayName": { "type": "string" }
        },
        "required": ["$schema", "name"],
        "additionalProperties": false
    })
}

/// Agent Plugins 1.0.0 `mcp.json`: `$schema` and `mcpServers`, each server one closed variant.
fn agent_plugins_mcp_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "$schema": { "const": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json" },
            "mcpServers": { "type": "object", "additionalProperties": { "$ref": "#/$defs/server" } }
        },
        "required": ["$schema", "mcpServers"],
        "additionalProperties": false,
        "$defs": {
            "server": { "oneOf": [{ "$ref": "#/$defs/stdio" }, { "$ref": "#/$defs/http" }] },
            "stdio": {
                "type": "object",
                "properties": {
                    "type": { "const": "stdio" },
                    "command": { "type": "string", "minLength": 1 },
                    "args": { "type": "array", "items": { "type": "string" } },
                    "env": {
                        "type": "object",
                        "propertyNames": { "not": { "enum": ["PLUGIN_ROOT", "PLUGIN_DATA"] } },
                        "additionalProperties": { "type": "string" }
                    },
                    "cwd": {
                        "type": "string",
                        "pattern": "^(?:\\./|\\$\\{PLUGIN_ROOT\\}(?:/|$)|\\$\\{PLUGIN_DATA\\}(?:/|$))"
                    }
                },
                "required": ["type", "command"],
                "additionalProperties": false
            },
            "http": {
                "type": "object",
                "properties": {
                    "type": { "enum": ["streamable-http", "sse"] },
                    "url": { "type": "string", "minLength": 1 },
                    "headers": { "type": "object", "additionalProperties": { "type": "string" } }
                },
                "required": ["type", "url"],
                "additionalProperties": false
            }
        }
    })
}

/// Cursor's `.cursor-plugin/plugin.json` (draft-07): `name` required, a closed object; the
/// component fields this crate does not write are left out (so writing one fails here).
fn cursor_schema() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "required": ["name"],
        "additionalProperties": false,
        "properties": {
            "name": { "type": "string", "minLength": 1, "pattern": "^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$" },
            "displayName": { "type": "string" },
            "description": { "type": "string" },
            "version": { "type": "string" },
            "author": {
                "type": "object",
                "required": ["name"],
                "additionalProperties": false,
                "properties": {
                    "name": { "type": "string", "minLength": 1 },
                    "email": { "type": "string" }
                }
            },
            "mcpServers": {
                "oneOf": [
                    { "type": "string" },
                    { "type": "object" },
                    { "type": "array", "items": { "oneOf": [{ "type": "string" }, { "type": "object" }] } }
                ]
            }
        }
    })
}

/// Claude Code's documented fields (no schema is published), as a schema.
fn claude_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": { "type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" },
            "version": { "type": "string" },
            "description": { "type": "string" },
            "author": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": { "type": "string" },
                    "email": { "type": "string" },
                    "url": { "type": "string" }
                }
            },
            "mcpServers": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["command"],
                    "properties": {
                        "command": { "type": "string", "minLength": 1 },
                        "args": { "type": "array", "items": { "type": "string" } },
                        "env": { "type": "object", "additionalProperties": { "type": "string" } }
                    }
                }
            }
        }
    })
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// Every error of `instance` against `schema`, as text (empty when it is valid).
fn schema_errors(schema: &Value, instance: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("the schema compiles");
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn plugin() -> Plugin {
    Plugin::new("basic-skills")
        .version("1.0.0")
        .description("The basic fixture's skills.")
        .author("Ada")
        .server("skills", ["serve", "${PLUGIN_ROOT}/skills"])
}

fn one_skill_set(name: &str) -> SkillSet {
    SkillSet::from_skills(
        vec![Skill::owned(
            Fields {
                name: name.into(),
                description: "Take notes.".into(),
                ..Default::default()
            },
            "# Notes\n".into(),
            vec![],
        )],
        &ListingFormat::Markdown,
    )
}

#[test]
fn every_manifest_matches_its_formats_published_schema() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("basic-skills");
    let written = plugin().write(&SKILLS, &dir).unwrap();
    for (file, schema) in [
        ("plugin.json", agent_plugins_schema()),
        ("mcp.json", agent_plugins_mcp_schema()),
        (".cursor-plugin/plugin.json", cursor_schema()),
        (".claude-plugin/plugin.json", claude_schema()),
    ] {
        assert!(written.contains(&dir.join(file)), "{file} in {written:?}");
        let manifest = read_json(&dir.join(file));
        let errors = schema_errors(&schema, &manifest);
        assert!(errors.is_empty(), "{file}: {errors:?}\n{manifest:#}");
    }
    // Each server entry names the plugin's skills through its client's root variable.
    let args = |file: &str, pointer: &str| read_json(&dir.join(file)).pointer(pointer).cloned();
    assert_eq!(
        args(
            ".claude-plugin/plugin.json",
            "/mcpServers/basic-skills/args"
        ),
        Some(json!(["serve", "${CLAUDE_PLUGIN_ROOT}/skills"]))
    );
    assert_eq!(
        args(
            ".cursor-plugin/plugin.json",
            "/mcpServers/basic-skills/args"
        ),
        Some(json!(["serve", "${CURSOR_PLUGIN_ROOT}/skills"]))
    );
    assert_eq!(
        args("mcp.json", "/mcpServers/basic-skills"),
        Some(
            json!({"type": "stdio", "command": "skills", "args": ["serve", "${PLUGIN_ROOT}/skills"]})
        )
    );
    // What the schemas would not catch: the metadata as given.
    let claude = read_json(&dir.join(".claude-plugin/plugin.json"));
    assert_eq!(claude["version"], "1.0.0");
    assert_eq!(claude["author"]["name"], "Ada");
    assert_eq!(claude["description"], "The basic fixture's skills.");
}

/// The schemas do catch what the formats refuse: they are not vacuous.
#[test]
fn the_schemas_refuse_what_the_formats_refuse() {
    let bad_name = json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "has--double"});
    assert!(!schema_errors(&agent_plugins_schema(), &bad_name).is_empty());
    let inline = json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "a", "mcpServers": {}});
    assert!(!schema_errors(&agent_plugins_schema(), &inline).is_empty());
    let untyped = json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"s": {"command": "skills"}}});
    assert!(!schema_errors(&agent_plugins_mcp_schema(), &untyped).is_empty());
    assert!(!schema_errors(&cursor_schema(), &json!({"name": "A"})).is_empty());
    assert!(!schema_errors(&claude_schema(), &json!({"name": "a.b"})).is_empty());
}

#[test]
fn the_plugins_skills_read_back_as_the_set_and_pass_strict_validation() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("basic-skills");
    plugin()
        .formats([PluginFormat::Claude])
        .write(&SKILLS, &dir)
        .unwrap();
    let skills = dir.join("skills");
    let errors: Vec<_> = validate(&skills, &ScanOptions::default())
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let (back, diagnostics) =
        skills_embed::load::set(&skills, &ScanOptions::default(), &ListingFormat::Markdown);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    assert_eq!(
        back.names().collect::<Vec<_>>(),
        SKILLS.names().collect::<Vec<_>>()
    );
    for skill in SKILLS.skills() {
        let copy = back.get(skill.name()).unwrap();
        assert_eq!(copy.description(), skill.description());
        assert_eq!(copy.body(), skill.body());
        for file in skill.files().filter(|f| !f.is_body()) {
            let on_disk = skills.join(skill.name()).join(file.path());
            assert_eq!(fs::read(&on_disk).unwrap(), file.bytes(), "{}", file.path());
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = fs::metadata(&on_disk).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, if file.is_executable() { 0o755 } else { 0o644 });
            }
        }
    }
    // Only the formats asked for.
    assert!(!dir.join(".cursor-plugin").exists() && !dir.join("plugin.json").exists());
}

#[test]
fn names_follow_each_formats_rules_with_a_suggestion() {
    let set = one_skill_set("notes");
    let out = tempfile::tempdir().unwrap();
    // Periods: Cursor and Agent Plugins take them, Claude Code's kebab-case does not.
    let dotted =
        Plugin::new("acme.tools").formats([PluginFormat::Cursor, PluginFormat::AgentPlugins]);
    dotted.write(&set, &out.path().join("a")).unwrap();
    let err = Plugin::new("acme.tools")
        .write(&set, &out.path().join("b"))
        .unwrap_err();
    let PluginError::InvalidName {
        format, suggestion, ..
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!(
        (*format, suggestion.as_deref()),
        (PluginFormat::Claude, Some("acme-tools"))
    );
    assert!(
        err.to_string().contains(".claude-plugin/plugin.json"),
        "{err}"
    );
    for name in [
        "",
        "has--double",
        "too..dots",
        "-start",
        "end-",
        "Upper",
        &"a".repeat(65),
    ] {
        let err = Plugin::new(name)
            .formats([PluginFormat::AgentPlugins])
            .write(&set, &out.path().join("c"))
            .unwrap_err();
        assert!(
            matches!(err, PluginError::InvalidName { .. }),
            "{name:?}: {err}"
        );
    }
    // Nothing was written for a refused name.
    assert!(!out.path().join("b").exists() && !out.path().join("c").exists());
}

#[test]
fn a_server_command_must_be_one_token_inside_or_on_path() {
    let set = one_skill_set("notes");
    let out = tempfile::tempdir().unwrap();
    for command in [
        "skills serve",
        "/usr/bin/skills",
        "${PLUGIN_ROOT}/bin/skills",
        "bin/skills",
        "",
    ] {
        let err = Plugin::new("p")
            .server(command, ["serve"])
            .write(&set, &out.path().join("p"))
            .unwrap_err();
        assert!(
            matches!(err, PluginError::InvalidCommand { .. }),
            "{command:?}: {err}"
        );
    }
    Plugin::new("p")
        .server("./bin/skills", ["serve", "${PLUGIN_ROOT}/skills"])
        .write(&set, &out.path().join("p"))
        .unwrap();
    // Without a server, no MCP entry anywhere.
    Plugin::new("q").write(&set, &out.path().join("q")).unwrap();
    assert!(!out.path().join("q/mcp.json").exists());
    assert!(
        read_json(&out.path().join("q/.claude-plugin/plugin.json"))
            .get("mcpServers")
            .is_none()
    );
}

#[test]
fn an_occupied_destination_is_refused_unless_forced() {
    let set = one_skill_set("notes");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("p");
    fs::create_dir(&dir).unwrap();
    // An empty folder is fresh enough.
    Plugin::new("p").write(&set, &dir).unwrap();
    fs::write(dir.join("mine.txt"), "keep").unwrap();
    let err = Plugin::new("p").write(&set, &dir).unwrap_err();
    assert!(matches!(err, PluginError::Exists { .. }), "{err}");
    assert!(err.to_string().contains("--force"), "{err}");
    assert_eq!(fs::read_to_string(dir.join("mine.txt")).unwrap(), "keep");
    let files = Plugin::new("p").force(true).write(&set, &dir).unwrap();
    assert!(!dir.join("mine.txt").exists());
    assert!(
        files.iter().all(|f| f.starts_with(&dir) && f.is_file()),
        "{files:?}"
    );
    // No fresh folder is left beside it.
    let names: Vec<_> = fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["p"]);
    // An empty set makes no plugin.
    let err = Plugin::new("p")
        .force(true)
        .write(&SkillSet::empty(), &dir)
        .unwrap_err();
    assert!(matches!(err, PluginError::NoSkills), "{err}");
}

#[cfg(unix)]
#[test]
fn a_link_at_the_destination_is_replaced_never_written_through() {
    let set = one_skill_set("notes");
    let out = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let dir = out.path().join("p");
    std::os::unix::fs::symlink(elsewhere.path(), &dir).unwrap();
    let err = Plugin::new("p").write(&set, &dir).unwrap_err();
    assert!(matches!(err, PluginError::Exists { .. }), "{err}");
    Plugin::new("p").force(true).write(&set, &dir).unwrap();
    assert!(!fs::symlink_metadata(&dir).unwrap().file_type().is_symlink());
    assert!(dir.join("skills/notes/SKILL.md").is_file());
    assert_eq!(fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}
