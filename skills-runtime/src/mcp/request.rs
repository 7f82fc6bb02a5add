//! What a request names and speaks: the skill and path of a `skill://` URI, the call a
//! `tools/call` decodes to, the errors for a name that is not there (what exists, the closest
//! name, the URI asked for in `data.uri`), and what its protocol revision changes.

use std::borrow::Cow;

use rmcp::ErrorData;
use rmcp::model::{JsonObject, ProtocolVersion};
use rmcp::service::{RequestContext, RoleServer};

use super::prompt;
use super::uri::{parse_uri, uri};
use super::{LISTING_PROMPT, SCHEME};
use crate::model::skill::{MANIFEST, Skill};
use crate::text::echo;
use crate::tools::{Call, LOAD_SKILL_CHUNK, READ_SKILL, READ_SKILL_RESOURCE, Tools};

/// The visible skill and the path a `skill://` URI names; `unknown` makes the error for a skill
/// the client may not see (which reads like one that does not exist).
pub(super) fn file_at<'s, 'u>(
    tools: &'s Tools,
    uri: &'u str,
    unknown: impl FnOnce(String) -> ErrorData,
) -> Result<(&'s Skill, Cow<'u, str>), ErrorData> {
    let (name, path) = parse_uri(uri).map_err(|e| invalid_uri(tools, &e, uri))?;
    let skill = tools.lookup(&name).map_err(|e| unknown(e.to_string()))?;
    Ok((skill, path))
}

/// The URIs of the `SKILL.md` of every skill the client may see, for error messages.
pub(super) fn skill_uris(tools: &Tools) -> Vec<String> {
    tools.visible().map(|s| uri(s.name(), MANIFEST)).collect()
}

/// The error for a URI that names no skill file: what was wrong, the URI form, what exists;
/// the URI asked for in `data.uri`, as a missing resource has it (SEP-2164).
pub(super) fn invalid_uri(tools: &Tools, problem: &str, asked: &str) -> ErrorData {
    let known = skill_uris(tools);
    let known = if known.is_empty() {
        "There are no skills available.".to_owned()
    } else {
        format!("The skills are: {}.", known.join(", "))
    };
    ErrorData::invalid_params(
        format!(
            "{problem}. Skill files are {SCHEME}<skill>/<path>, like {SCHEME}<skill>/{MANIFEST}. {known}"
        ),
        Some(serde_json::json!({ "uri": echo(asked) })),
    )
}

/// Why a call was not decoded.
pub(super) enum Refused {
    /// A tool that is not offered now: a protocol error (`-32602`) at every revision.
    Tool(ErrorData),
    /// Arguments that do not fit the tool's input schema, and what the valid ones are: a tool
    /// result with `isError` from 2025-11-25 on, `-32602` before.
    Arguments(String),
}

/// The call, decoded once from the object rmcp parsed, or why the tools cannot take it: a tool
/// that is not offered now (the tools of either [`ToolStyle`](crate::tools::ToolStyle) are
/// answered whichever is listed, and none while no skill is visible), or arguments that do not
/// fit its input schema. A known tool with well-formed arguments naming a skill, file or chunk
/// that does not exist is answered by the tool, as a result with `isError`.
pub(super) fn check_call(
    tools: &Tools,
    unified: &str,
    name: &str,
    arguments: JsonObject,
) -> Result<Call, Refused> {
    // `is_empty` looks at the visible skills only: the definitions (schemas with every name)
    // are built on the error path alone, not on every call.
    let name_trimmed = name.trim();
    let load_tool = is_load_tool(unified, name);
    let offered = || -> Vec<String> { tools.definitions().into_iter().map(|d| d.name).collect() };
    // A run tool (the unified one, or a split style's tool per script) is known while a script
    // is runnable; only such a call builds the definitions to tell.
    let known = !tools.is_empty()
        && (load_tool
            || (name_trimmed == tools.settings().run_name && !tools.runnable().is_empty())
            || offered().iter().any(|o| o == name_trimmed));
    if !known {
        let offered = offered();
        let tools = if offered.is_empty() {
            "This server offers no tool now: no skill is available.".to_owned()
        } else {
            format!("The tools are: {}.", offered.join(", "))
        };
        return Err(Refused::Tool(ErrorData::invalid_params(
            format!(
                "Unknown tool {}. {tools}",
                crate::text::json_string(&echo(name))
            ),
            None,
        )));
    }
    tools
        .parse_object(name, arguments)
        .map_err(|e| Refused::Arguments(e.to_string()))
}

/// The error for a resource that is not there: `-32002` before 2026-07-28, `-32602` from it
/// (rmcp renumbers it per request), with the URI asked for in `data.uri` (SEP-2164), cut as
/// every echo is.
pub(super) fn not_found(message: String, asked: &str) -> ErrorData {
    ErrorData::resource_not_found(message, Some(serde_json::json!({ "uri": echo(asked) })))
}

/// Whether `name` is one of the tools that load (the unified one, named `unified`, or a split
/// style's), as opposed to a run tool.
pub(super) fn is_load_tool(unified: &str, name: &str) -> bool {
    [unified, READ_SKILL, READ_SKILL_RESOURCE, LOAD_SKILL_CHUNK].contains(&name.trim())
}

/// The error for a prompt this server does not offer (`-32602`, as MCP asks): the prompts it
/// offers, and the closest name.
pub(super) fn unknown_prompt(tools: &Tools, name: &str) -> ErrorData {
    let skills: Vec<&str> = tools
        .user_invocable()
        .filter(|skill| prompt::offered(skill))
        .map(Skill::name)
        .collect();
    let names = std::iter::once(LISTING_PROMPT).chain(skills.iter().copied());
    let suggestion = crate::text::closest(name, names.clone())
        .map(|near| format!(" Did you mean \"{near}\"?"))
        .unwrap_or_default();
    ErrorData::invalid_params(
        format!(
            "Unknown prompt {}.{suggestion} The prompts are \"{LISTING_PROMPT}\" (the skills \
             listing) and one per skill you may invoke: {}.",
            crate::text::json_string(&echo(name)),
            if skills.is_empty() {
                "none now".to_owned()
            } else {
                skills.join(", ")
            }
        ),
        None,
    )
}

/// Whether `path` names a skill's `SKILL.md` (however it is written: `./SKILL.md` too), which
/// is served with its frontmatter.
pub(super) fn is_manifest(path: &str) -> bool {
    crate::model::path::check(path).is_ok_and(|p| p.segments().eq([MANIFEST]))
}

/// Whether the request of `context` speaks MCP 2026-07-28 or later: no `initialize`, no
/// `logging/setLevel`, cache hints on cacheable answers.
pub(super) fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// Whether a tool's arguments that do not fit its schema are answered as a tool result with
/// `isError` (2025-11-25 on, SEP-1303: the model reads it and corrects the call) rather than
/// as a protocol error `-32602` (earlier revisions). A request with no version is taken as new.
pub(super) fn argument_errors_are_results(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version.as_str() >= ProtocolVersion::V_2025_11_25.as_str())
}
