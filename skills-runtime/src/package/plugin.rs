//! Plugin folders: a set's skills under `skills/`, the manifest of each format chosen, and an
//! MCP server entry that starts the binary's own `serve` over stdio.
//!
//! The formats and where their fields are documented:
//!
//! - Claude Code: `.claude-plugin/plugin.json`, `name` required (kebab-case), `version`,
//!   `description`, `author` an object; MCP servers inline as `mcpServers`, with
//!   `${CLAUDE_PLUGIN_ROOT}` expanded in them
//!   (<https://code.claude.com/docs/en/plugins-reference>,
//!   <https://code.claude.com/docs/en/plugins/manifest-reference>). No JSON Schema is published.
//! - Cursor: `.cursor-plugin/plugin.json` (<https://cursor.com/docs/reference/plugins>, schema
//!   <https://raw.githubusercontent.com/cursor/plugins/main/schemas/plugin.schema.json>);
//!   inline `mcpServers` replace the default `mcp.json`, and the root variable Cursor expands is
//!   `${CURSOR_PLUGIN_ROOT}`.
//! - Agent Plugins 1.0.0, the cross-vendor format (<https://agent-plugins.org>, specification
//!   and schemas at <https://github.com/agentplugins/agent-plugins-spec>): `plugin.json` with
//!   `$schema` at the root, MCP servers only in `mcp.json` (`type: "stdio"`, `command` a single
//!   token, `${PLUGIN_ROOT}` expanded in `args`). 1.0.0 is the released version, so the one the
//!   most clients accept (a client must reject a version it does not know).

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::disk::extract::{ExtractError, checked_paths, prepare_dest, write_files};
use crate::disk::folder::{Folder, Kind};
use crate::model::set::SkillSet;
use crate::model::skill_md::manifest;
use crate::parse::suggest_name;

/// The `$schema` of an Agent Plugins 1.0.0 `plugin.json`.
const AGENT_PLUGINS_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
/// The `$schema` of an Agent Plugins 1.0.0 `mcp.json`.
const AGENT_PLUGINS_MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
/// What a caller writes in a server's arguments for the plugin's root folder; each format's
/// own variable replaces it.
const ROOT: &str = "${PLUGIN_ROOT}";
/// The longest plugin name Agent Plugins accepts, and the others' documented limit too.
const MAX_NAME: usize = 64;

/// A plugin format clients read. `all` writes every one into the same folder: their files do
/// not overlap (Claude Code and Cursor read their own manifest, with the MCP server inline;
/// Agent Plugins reads the root `plugin.json` and `mcp.json`).
///
/// ```
/// use skills_embed::package::PluginFormat;
///
/// let format: PluginFormat = "agent-plugins".parse()?;
/// assert_eq!(format, PluginFormat::AgentPlugins);
/// assert_eq!(PluginFormat::Claude.to_string(), "claude");
/// # Ok::<(), strum::ParseError>(())
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum PluginFormat {
    /// Claude Code: `.claude-plugin/plugin.json`, the MCP server in it.
    Claude,
    /// Cursor: `.cursor-plugin/plugin.json`, the MCP server in it.
    Cursor,
    /// Agent Plugins 1.0.0: `plugin.json` and `mcp.json` at the plugin's root.
    AgentPlugins,
    /// The three above.
    All,
}

impl PluginFormat {
    /// The formats this one stands for.
    fn expand(self) -> &'static [PluginFormat] {
        match self {
            PluginFormat::Claude => &[PluginFormat::Claude],
            PluginFormat::Cursor => &[PluginFormat::Cursor],
            PluginFormat::AgentPlugins => &[PluginFormat::AgentPlugins],
            PluginFormat::All => &[
                PluginFormat::Claude,
                PluginFormat::Cursor,
                PluginFormat::AgentPlugins,
            ],
        }
    }

    /// Where its manifest goes, relative to the plugin's root.
    fn manifest_path(self) -> &'static str {
        match self {
            PluginFormat::Claude => ".claude-plugin/plugin.json",
            PluginFormat::Cursor => ".cursor-plugin/plugin.json",
            PluginFormat::AgentPlugins | PluginFormat::All => "plugin.json",
        }
    }

    /// The variable the client expands to the plugin's root in a server's arguments.
    fn root_variable(self) -> &'static str {
        match self {
            PluginFormat::Claude => "${CLAUDE_PLUGIN_ROOT}",
            PluginFormat::Cursor => "${CURSOR_PLUGIN_ROOT}",
            PluginFormat::AgentPlugins | PluginFormat::All => ROOT,
        }
    }

    /// Why `name` is not a plugin name in this format, if it is not: Claude Code documents
    /// kebab-case (lowercase letters, digits, single hyphens); Cursor and Agent Plugins also
    /// take periods (Agent Plugins: not two in a row), all within 64 characters.
    fn name_problem(self, name: &str) -> Option<&'static str> {
        let periods = !matches!(self, PluginFormat::Claude);
        let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
        let ends =
            |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        if name.is_empty() {
            Some("it is empty")
        } else if name.chars().count() > MAX_NAME {
            Some("it is longer than 64 characters")
        } else if !name.chars().all(|c| allowed(c) || (periods && c == '.')) {
            Some(if periods {
                "only lowercase letters, digits, hyphens and periods are allowed"
            } else {
                "only lowercase letters, digits and hyphens are allowed (kebab-case)"
            })
        } else if !ends(name.chars().next()) || !ends(name.chars().last()) {
            Some("it must start and end with a letter or a digit")
        } else if name.contains("--") || name.contains("..") || (!periods && name.contains('.')) {
            Some("it has two hyphens or two periods in a row")
        } else {
            None
        }
    }
}

/// Why a plugin folder was not written. Nothing is written when any of these is found before
/// the first write; a failed write leaves the destination as it was.
///
/// ```
/// use skills_embed::package::{Plugin, PluginError};
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
///
/// let set = SkillSet::from_skills(
///     vec![Skill::owned(
///         Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///         "# Notes\n".into(),
///         vec![],
///     )],
///     &ListingFormat::Markdown,
/// );
/// let out = tempfile::tempdir()?;
/// let err = Plugin::new("My Notes").write(&set, &out.path().join("p")).unwrap_err();
/// assert!(matches!(err, PluginError::InvalidName { .. }));
/// assert!(err.to_string().contains("\"my-notes\""), "{err}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PluginError {
    /// The plugin's name breaks a format's rules.
    #[error(
        "The plugin name \"{name}\" is not valid for {format} ({manifest}): {problem}. {}",
        match suggestion {
            Some(s) => format!("Name it \"{s}\" instead (`--name {s}` on the command line)."),
            None => "Give a name of lowercase letters, digits and single hyphens (`--name`).".into(),
        }
    )]
    InvalidName {
        /// The name asked for.
        name: String,
        /// The format whose rule it breaks.
        format: PluginFormat,
        /// That format's manifest, relative to the plugin's root.
        manifest: &'static str,
        /// The rule it breaks.
        problem: &'static str,
        /// A name that passes every format's rules, when one can be made from it.
        suggestion: Option<String>,
    },
    /// The MCP server's command cannot be written as a format requires.
    #[error(
        "The MCP server command \"{command}\" cannot go in a plugin's manifest: {problem}. Give the executable's bare name (found on PATH) or a path inside the plugin starting with `./`, and its arguments separately."
    )]
    InvalidCommand {
        /// The command asked for.
        command: String,
        /// Why it is refused.
        problem: &'static str,
    },
    /// The set has no skills, so the plugin would have none.
    #[error(
        "There are no skills to put in the plugin: the set is empty. Give a folder that holds at least one skill (`skills list PATH` shows what it holds)."
    )]
    NoSkills,
    /// The destination exists and holds something.
    #[error(
        "\"{}\" exists and is not empty, and a plugin is only written into a fresh folder. Choose another destination, remove it, or replace it (`force`, `--force` on the command line).",
        path.display()
    )]
    Exists {
        /// The destination.
        path: PathBuf,
    },
    /// The destination is not a path whose last part names a folder.
    #[error(
        "\"{}\" cannot be a plugin's folder: it must end in a folder name (not `..`, `.` or a root). Give the folder to create, e.g. `dist/my-plugin`.",
        path.display()
    )]
    BadDestination {
        /// The destination.
        path: PathBuf,
    },
    /// Writing failed (the message says what was in the way and what to do).
    #[error(transparent)]
    Write(#[from] ExtractError),
}

/// A plugin folder to write from a set: its name and metadata, the formats, and the MCP server
/// that serves the skills.
///
/// The MCP server entry is `command` and `args` as given to [`Plugin::server`], with
/// `${PLUGIN_ROOT}` in an argument replaced by each format's root variable
/// (`${CLAUDE_PLUGIN_ROOT}`, `${CURSOR_PLUGIN_ROOT}`, `${PLUGIN_ROOT}`). The `skills` command
/// line gives `skills serve ${PLUGIN_ROOT}/skills`: it serves the plugin's own copy of the skills.
/// A binary with embedded skills gives its own serving subcommand, e.g. `mytool` with
/// `["skill", "serve"]`, since its skills are in the binary. Without a server, no MCP entry is
/// written and the clients read the skills from `skills/` alone.
///
/// ```
/// use skills_embed::package::{Plugin, PluginFormat};
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
///
/// let set = SkillSet::from_skills(
///     vec![Skill::owned(
///         Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///         "# Notes\n".into(),
///         vec![],
///     )],
///     &ListingFormat::Markdown,
/// );
/// let out = tempfile::tempdir()?;
/// let dir = out.path().join("notes-plugin");
/// let written = Plugin::new("notes-plugin")
///     .version("1.0.0")
///     .formats([PluginFormat::Claude, PluginFormat::AgentPlugins])
///     .server("mytool", ["skill", "serve"])
///     .write(&set, &dir)?;
/// assert_eq!(written.len(), 4);
/// let claude = std::fs::read_to_string(dir.join(".claude-plugin/plugin.json"))?;
/// assert!(claude.contains(r#""command": "mytool""#), "{claude}");
/// assert!(std::fs::read_to_string(dir.join("mcp.json"))?.contains(r#""type": "stdio""#));
/// assert!(std::fs::read_to_string(dir.join("skills/notes/SKILL.md"))?.starts_with("---\nname: \"notes\"\n"));
/// // A second write into the same folder is refused unless forced.
/// assert!(Plugin::new("notes-plugin").write(&set, &dir).is_err());
/// assert!(Plugin::new("notes-plugin").force(true).write(&set, &dir).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Plugin {
    name: String,
    version: Option<String>,
    description: Option<String>,
    author: Option<String>,
    formats: Vec<PluginFormat>,
    server: Option<(String, Vec<String>)>,
    force: bool,
}

impl Plugin {
    /// A plugin named `name` (checked by [`Plugin::write`] against each format's rules), in
    /// every format, with no MCP server, written only into a fresh folder.
    ///
    /// ```
    /// use skills_embed::package::Plugin;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// Plugin::new("my-tool").write(&set, &dir)?;
    /// for path in ["plugin.json", ".claude-plugin/plugin.json", ".cursor-plugin/plugin.json"] {
    ///     assert_eq!(read(dir.join(path))["name"], "my-tool"); // every format
    /// }
    /// assert!(!dir.join("mcp.json").exists()); // no MCP server
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(name: impl Into<String>) -> Plugin {
        Plugin {
            name: name.into(),
            version: None,
            description: None,
            author: None,
            formats: vec![PluginFormat::All],
            server: None,
            force: false,
        }
    }

    /// The plugin's version (clients compare it for updates; semantic versioning advised).
    ///
    /// ```
    /// use skills_embed::package::Plugin;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// Plugin::new("my-tool").version("1.2.0").write(&set, &dir)?;
    /// assert_eq!(read(dir.join(".claude-plugin/plugin.json"))["version"], "1.2.0");
    /// assert_eq!(read(dir.join("plugin.json"))["version"], "1.2.0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(mut self, version: impl Into<String>) -> Plugin {
        self.version = Some(version.into());
        self
    }

    /// The plugin's description. Default: the one skill's description, or the skills' names.
    ///
    /// ```
    /// use skills_embed::package::Plugin;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// Plugin::new("my-tool").write(&set, &dir)?;
    /// assert_eq!(read(dir.join("plugin.json"))["description"], "Notes."); // the skill's
    /// let mine = out.path().join("mine");
    /// Plugin::new("my-tool").description("My tool's skills.").write(&set, &mine)?;
    /// assert_eq!(read(mine.join("plugin.json"))["description"], "My tool's skills.");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn description(mut self, description: impl Into<String>) -> Plugin {
        self.description = Some(description.into());
        self
    }

    /// The author's name (`author.name` in every manifest). Default: none.
    ///
    /// ```
    /// use skills_embed::package::Plugin;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// Plugin::new("my-tool").author("Ada").write(&set, &dir)?;
    /// for path in ["plugin.json", ".claude-plugin/plugin.json", ".cursor-plugin/plugin.json"] {
    ///     assert_eq!(read(dir.join(path))["author"]["name"], "Ada");
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn author(mut self, author: impl Into<String>) -> Plugin {
        self.author = Some(author.into());
        self
    }

    /// The formats to write ([`PluginFormat::All`] by default); repeated ones are written once.
    ///
    /// ```
    /// use skills_embed::package::{Plugin, PluginFormat};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// let plugin = Plugin::new("my-tool").formats([PluginFormat::Cursor]);
    /// let written = plugin.write(&set, &dir)?;
    /// assert_eq!(written.len(), 2); // Cursor's manifest and the skill's SKILL.md
    /// assert_eq!(read(dir.join(".cursor-plugin/plugin.json"))["name"], "my-tool");
    /// assert!(!dir.join(".claude-plugin").exists() && !dir.join("plugin.json").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn formats(mut self, formats: impl IntoIterator<Item = PluginFormat>) -> Plugin {
        self.formats = formats.into_iter().collect();
        self
    }

    /// The MCP server that serves the skills over stdio: `command` (a bare executable name
    /// found on PATH, or a path inside the plugin starting with `./`) and its `args`, where
    /// `${PLUGIN_ROOT}` stands for the plugin's root folder. See [`Plugin`].
    ///
    /// ```
    /// use skills_embed::package::Plugin;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// let plugin = Plugin::new("my-tool").server("skills", ["serve", "${PLUGIN_ROOT}/skills"]);
    /// plugin.write(&set, &dir)?;
    /// let claude = &read(dir.join(".claude-plugin/plugin.json"))["mcpServers"]["my-tool"];
    /// assert_eq!(claude["command"], "skills");
    /// assert_eq!(claude["args"][1], "${CLAUDE_PLUGIN_ROOT}/skills"); // Claude Code's variable
    /// let agent_plugins = &read(dir.join("mcp.json"))["mcpServers"]["my-tool"];
    /// assert_eq!(agent_plugins["args"][1], "${PLUGIN_ROOT}/skills");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn server(
        mut self,
        command: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Plugin {
        self.server = Some((command.into(), args.into_iter().map(Into::into).collect()));
        self
    }

    /// Replace a destination that exists and is not empty (it is removed once the new plugin
    /// is in place). Default: refuse ([`PluginError::Exists`]).
    ///
    /// ```
    /// use skills_embed::package::{Plugin, PluginError};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let set = SkillSet::from_skills(vec![Skill::owned(
    /// #     Fields { name: "notes".into(), description: "Notes.".into(), ..Default::default() },
    /// #     "# Notes\n".into(),
    /// #     vec![],
    /// # )], &ListingFormat::Markdown);
    /// # let read = |path: std::path::PathBuf| -> serde_json::Value {
    /// #     serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    /// # };
    /// let out = tempfile::tempdir()?;
    /// let dir = out.path().join("my-tool");
    /// std::fs::create_dir(&dir)?;
    /// std::fs::write(dir.join("old.txt"), "from before")?;
    /// let err = Plugin::new("my-tool").write(&set, &dir).unwrap_err();
    /// assert!(matches!(err, PluginError::Exists { .. }));
    /// Plugin::new("my-tool").force(true).write(&set, &dir)?;
    /// assert!(dir.join("plugin.json").is_file() && !dir.join("old.txt").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn force(mut self, force: bool) -> Plugin {
        self.force = force;
        self
    }

    /// Writes the plugin into the folder `out` (created; its parent too): every file of every
    /// skill of `set` under `skills/<name>/` (`SKILL.md` written whole from the skill's fields,
    /// scripts executable), then each format's manifest. Everything is checked first and
    /// written into a fresh folder beside `out`, through opened folder handles that never
    /// follow a link, then renamed into place. Returns the files written, absolute and sorted.
    ///
    /// A folder of skills, loaded at run time, as `skills plugin` does:
    ///
    /// ```
    /// use skills_embed::{listing::ListingFormat, load, package::Plugin, parse::ScanOptions};
    ///
    /// let src = tempfile::tempdir()?;
    /// std::fs::create_dir_all(src.path().join("notes"))?;
    /// std::fs::write(
    ///     src.path().join("notes/SKILL.md"),
    ///     "---\nname: notes\ndescription: Take notes. Use when asked to.\n---\n# Notes\n",
    /// )?;
    /// let (set, _) = load::set(src.path(), &ScanOptions::default(), &ListingFormat::Markdown);
    /// let out = tempfile::tempdir()?;
    /// let files = Plugin::new("notes").write(&set, &out.path().join("notes"))?;
    /// let names: Vec<_> = files.iter().map(|f| f.strip_prefix(out.path()).unwrap()).collect();
    /// assert_eq!(names.len(), 4); // three manifests and SKILL.md: no server, no mcp.json
    /// assert!(names.contains(&std::path::Path::new("notes/skills/notes/SKILL.md")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write<Id>(&self, set: &SkillSet<Id>, out: &Path) -> Result<Vec<PathBuf>, PluginError> {
        let formats = self.checked_formats()?;
        if set.is_empty() {
            return Err(PluginError::NoSkills);
        }
        let mut skills = Vec::with_capacity(set.len());
        for skill in set.skills() {
            skills.push((skill, checked_paths(skill)?));
        }
        let mut manifests = Vec::new();
        for format in &formats {
            manifests.extend(self.manifests(*format, set)?);
        }

        let Some(leaf) = out
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| !matches!(*n, "." | ".."))
        else {
            return Err(PluginError::BadDestination {
                path: out.to_owned(),
            });
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let parent = Folder::open_ambient(&prepare_dest(parent)?)?;
        let existing = parent.kind(leaf)?;
        let occupied = match existing {
            Kind::Missing => false,
            Kind::Folder => parent
                .existing(leaf)?
                // A folder that cannot be listed counts as occupied: it is never replaced unasked.
                .is_none_or(|f| f.names().map_or(true, |n| !n.is_empty())),
            Kind::File | Kind::Link => true,
        };
        if occupied && !self.force {
            return Err(PluginError::Exists {
                path: parent.path().join(leaf),
            });
        }

        let temp = parent.fresh_child(".skills-plugin-")?;
        let temp_name = temp
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let result = (|| -> Result<Vec<String>, ExtractError> {
            let root = temp.child(leaf)?;
            let mut written = Vec::new();
            let skills_dir = root.child("skills")?;
            for (skill, (name, targets)) in skills {
                let dir = skills_dir.child(name)?;
                let text = manifest(skill);
                let (files, _) = write_files(&dir, targets, Some(text.as_bytes()))?;
                written.extend(files.iter().filter_map(|f| relative(f, root.path())));
            }
            for (path, bytes) in manifests {
                let (folder, file) = match path.split_once('/') {
                    Some((folder, file)) => (Some(root.child(folder)?), file),
                    None => (None, path),
                };
                folder
                    .as_ref()
                    .unwrap_or(&root)
                    .replace(file, &bytes, false)?;
                written.push(path.to_owned());
            }
            if existing != Kind::Missing {
                parent.rename(leaf, &temp, ".old")?;
            }
            temp.rename(leaf, &parent, leaf)?;
            Ok(written)
        })();
        // The fresh folder (and what was replaced, moved into it) goes whatever happened.
        let cleaned = parent.remove(&temp_name);
        let written = result?;
        cleaned?;
        let root = parent.path().join(leaf);
        let mut files: Vec<PathBuf> = written.iter().map(|rel| root.join(rel)).collect();
        files.sort();
        Ok(files)
    }

    /// The concrete formats asked for, each once, after the name and the server's command are
    /// checked against each.
    fn checked_formats(&self) -> Result<Vec<PluginFormat>, PluginError> {
        let mut formats: Vec<PluginFormat> = Vec::new();
        for format in self.formats.iter().flat_map(|f| f.expand()) {
            if !formats.contains(format) {
                formats.push(*format);
            }
        }
        for format in &formats {
            if let Some(problem) = format.name_problem(&self.name) {
                return Err(PluginError::InvalidName {
                    name: self.name.clone(),
                    format: *format,
                    manifest: format.manifest_path(),
                    problem,
                    suggestion: suggest_name(&self.name),
                });
            }
        }
        if let Some((command, _)) = &self.server
            && let Some(problem) = command_problem(command)
        {
            return Err(PluginError::InvalidCommand {
                command: command.clone(),
                problem,
            });
        }
        Ok(formats)
    }

    /// The files of `format`: its manifest, and Agent Plugins' `mcp.json`.
    fn manifests<Id>(
        &self,
        format: PluginFormat,
        set: &SkillSet<Id>,
    ) -> Result<Vec<(&'static str, Vec<u8>)>, ExtractError> {
        let description = self.description.clone().or_else(|| match set.skills() {
            [one] => Some(one.description().to_owned()),
            skills => Some(format!(
                "Agent Skills: {}.",
                skills
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        });
        let server = self.server.as_ref().map(|(command, args)| {
            let root = format.root_variable();
            Server {
                kind: (format == PluginFormat::AgentPlugins).then_some("stdio"),
                command: command.clone(),
                args: args.iter().map(|a| a.replace(ROOT, root)).collect(),
            }
        });
        let agent = format == PluginFormat::AgentPlugins;
        let manifest = Manifest {
            schema: agent.then_some(AGENT_PLUGINS_SCHEMA),
            name: &self.name,
            version: self.version.as_deref(),
            description: description.as_deref(),
            author: self.author.as_deref().map(|name| Author { name }),
            mcp_servers: server
                .as_ref()
                .filter(|_| !agent)
                .map(|s| [(self.name.as_str(), s)].into_iter().collect()),
        };
        let mut files = vec![(
            format.manifest_path(),
            json(format.manifest_path(), &manifest)?,
        )];
        if let Some(server) = server.as_ref().filter(|_| agent) {
            let mcp = McpJson {
                schema: AGENT_PLUGINS_MCP_SCHEMA,
                mcp_servers: [(self.name.as_str(), server)].into_iter().collect(),
            };
            files.push(("mcp.json", json("mcp.json", &mcp)?));
        }
        Ok(files)
    }
}

/// Why `command` cannot be a stdio server's command. Agent Plugins wants one token, a bare
/// name or `./path`, with no placeholder (§7.2.1); the others run it as given, so one rule for
/// all keeps a command valid in every format.
fn command_problem(command: &str) -> Option<&'static str> {
    if command.is_empty() {
        Some("it is empty")
    } else if command.chars().any(char::is_whitespace) {
        Some("it has a space: it must be one executable, not a shell command line")
    } else if command.contains("${") {
        Some("it has a `${...}` placeholder, which Agent Plugins does not expand in a command")
    } else if command.contains(['/', '\\']) && !command.starts_with("./") {
        Some("a path must be inside the plugin and start with `./`")
    } else {
        None
    }
}

/// `path` relative to `root`, `/`-separated.
fn relative(path: &Path, root: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    Some(parts.join("/"))
}

/// Pretty JSON and a final newline, as people write these files.
fn json(path: &str, value: &impl Serialize) -> Result<Vec<u8>, ExtractError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| ExtractError::Io {
        op: "encode",
        path: PathBuf::from(path),
        source: io::Error::other(e),
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A manifest's fields, in the order they are written.
#[derive(Serialize)]
struct Manifest<'a> {
    #[serde(rename = "$schema", skip_serializing_if = "Option::is_none")]
    schema: Option<&'static str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    author: Option<Author<'a>>,
    #[serde(rename = "mcpServers", skip_serializing_if = "Option::is_none")]
    mcp_servers: Option<std::collections::BTreeMap<&'a str, &'a Server>>,
}

#[derive(Serialize)]
struct Author<'a> {
    name: &'a str,
}

/// A stdio server entry; `type` only where the format has it (Agent Plugins requires it).
#[derive(Serialize)]
struct Server {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    command: String,
    args: Vec<String>,
}

/// Agent Plugins' `mcp.json`.
#[derive(Serialize)]
struct McpJson<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    #[serde(rename = "mcpServers")]
    mcp_servers: std::collections::BTreeMap<&'a str, &'a Server>,
}
