//! Where each coding agent reads skills, for a project or a user, and which agents are there.
//! The folders and their sources are the README's table of targets ("Install into agents").

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::InstallError;

/// A coding agent whose skills folders `disk::Install` writes. Its name (what `--agent`
/// takes and `to_string` writes) is `gh skill install`'s id for it.
///
/// Every agent but Claude Code reads the shared `.agents/skills` (project) and
/// `~/.agents/skills` (user), so those agents share one destination and get each skill once;
/// Claude Code reads `.claude/skills` and `~/.claude/skills` (`$CLAUDE_CONFIG_DIR/skills` when
/// set); Windsurf reads `.windsurf/skills` and `~/.codeium/windsurf/skills`.
///
/// ```
/// use skills_embed::disk::Agent;
///
/// let agent: Agent = "claude-code".parse()?;
/// assert_eq!(agent, Agent::ClaudeCode);
/// assert_eq!(Agent::GeminiCli.to_string(), "gemini-cli");
/// # Ok::<(), strum::ParseError>(())
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
    strum::VariantArray,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum Agent {
    /// No client: the shared `.agents/skills` and `~/.agents/skills` of the Agent Skills
    /// guide, which every agent here but Claude Code and Windsurf reads.
    Universal,
    /// Claude Code: `.claude/skills`, `~/.claude/skills` or `$CLAUDE_CONFIG_DIR/skills`.
    ClaudeCode,
    /// OpenAI Codex: `.agents/skills` from the repository root down, `~/.agents/skills`.
    Codex,
    /// GitHub Copilot (cloud agent, CLI, VS Code): `.agents/skills`, `~/.agents/skills`.
    GithubCopilot,
    /// Cursor: `.agents/skills`, `~/.agents/skills`.
    Cursor,
    /// Gemini CLI: `.agents/skills` (the alias of `.gemini/skills`) in the folder it starts
    /// in, `~/.agents/skills`.
    GeminiCli,
    /// OpenCode: `.agents/skills` up to the git worktree, `~/.agents/skills`.
    Opencode,
    /// goose: `.agents/skills`, `~/.agents/skills` (its recommended folders).
    Goose,
    /// Windsurf: `.windsurf/skills`, `~/.codeium/windsurf/skills`.
    Windsurf,
}

/// Whether skills go to a project (the repository the start folder is in) or to the user's
/// home. Its name (`project`, `user`) is what `--scope` takes.
///
/// ```
/// use skills_embed::disk::Scope;
/// assert_eq!("user".parse::<Scope>()?, Scope::User);
/// assert_eq!(Scope::default(), Scope::Project);
/// # Ok::<(), strum::ParseError>(())
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum Scope {
    /// The repository around the start folder (the nearest folder above it holding `.git`).
    #[default]
    Project,
    /// The user's home folder.
    User,
}

/// The home folder and the environment variables that move agents' folders.
pub(crate) struct Places<'a> {
    pub(crate) home: Option<&'a Path>,
    pub(crate) vars: &'a BTreeMap<String, String>,
}

impl Places<'_> {
    fn var(&self, name: &str) -> Option<PathBuf> {
        self.vars
            .get(name)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    }

    fn home(&self) -> Result<&Path, InstallError> {
        self.home.ok_or(InstallError::NoHome)
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    fn config(&self) -> Result<PathBuf, InstallError> {
        match self.var("XDG_CONFIG_HOME") {
            Some(dir) => Ok(dir),
            None => Ok(self.home()?.join(".config")),
        }
    }

    /// Claude Code's folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    fn claude(&self) -> Result<PathBuf, InstallError> {
        match self.var("CLAUDE_CONFIG_DIR") {
            Some(dir) => Ok(dir),
            None => Ok(self.home()?.join(".claude")),
        }
    }
}

impl Agent {
    /// The folder, relative to the project root, this agent reads project skills from.
    pub(crate) fn project_folder(self) -> &'static str {
        match self {
            Agent::ClaudeCode => ".claude/skills",
            Agent::Windsurf => ".windsurf/skills",
            _ => ".agents/skills",
        }
    }

    /// The folder this agent reads the user's skills from.
    pub(crate) fn user_folder(self, places: &Places<'_>) -> Result<PathBuf, InstallError> {
        Ok(match self {
            Agent::ClaudeCode => places.claude()?.join("skills"),
            Agent::Windsurf => places.home()?.join(".codeium/windsurf/skills"),
            _ => places.home()?.join(".agents/skills"),
        })
    }

    /// Whether this agent looks used here: its own folder in the user's home (or where its
    /// variable moves it), or its folder in the project.
    pub(crate) fn detected(self, places: &Places<'_>, project: Option<&Path>) -> bool {
        let home = |rel: &str| places.home.map(|h| h.join(rel));
        let user: Vec<Option<PathBuf>> = match self {
            Agent::Universal => vec![],
            Agent::ClaudeCode => vec![places.claude().ok()],
            Agent::Codex => vec![places.var("CODEX_HOME").or_else(|| home(".codex"))],
            Agent::GithubCopilot => vec![home(".copilot")],
            Agent::Cursor => vec![home(".cursor")],
            Agent::GeminiCli => vec![home(".gemini")],
            Agent::Opencode => vec![places.config().ok().map(|c| c.join("opencode"))],
            Agent::Goose => vec![places.config().ok().map(|c| c.join("goose"))],
            Agent::Windsurf => vec![home(".codeium/windsurf")],
        };
        let in_project: &[&str] = match self {
            Agent::Universal => &[".agents"],
            Agent::ClaudeCode => &[".claude"],
            Agent::Codex => &[".codex"],
            Agent::GithubCopilot => &[".github/skills", ".github/copilot-instructions.md"],
            Agent::Cursor => &[".cursor"],
            Agent::GeminiCli => &[".gemini"],
            Agent::Opencode => &[".opencode"],
            Agent::Goose => &[".goose", ".goosehints"],
            Agent::Windsurf => &[".windsurf"],
        };
        user.into_iter().flatten().any(|p| p.exists())
            || project.is_some_and(|root| in_project.iter().any(|rel| root.join(rel).exists()))
    }
}

/// The project around `start`: the nearest folder at or above it holding `.git` (a folder, or
/// a file as in worktrees and submodules), refused when it is the home folder.
pub(crate) fn project_root(start: &Path, home: Option<&Path>) -> Result<PathBuf, InstallError> {
    let start = std::path::absolute(start).map_err(|source| InstallError::Io {
        op: "make an absolute path of",
        path: start.to_owned(),
        source,
    })?;
    let root = start
        .ancestors()
        .find(|dir| fs::symlink_metadata(dir.join(".git")).is_ok())
        .ok_or_else(|| InstallError::NoProject {
            start: start.clone(),
        })?;
    if let Some(home) = home {
        let same = match (fs::canonicalize(root), fs::canonicalize(home)) {
            (Ok(a), Ok(b)) => a == b,
            _ => root == home,
        };
        if same {
            return Err(InstallError::HomeProject {
                root: root.to_owned(),
            });
        }
    }
    Ok(root.to_owned())
}

/// `root/rel`, refused when a link on the way leads out of `root` (or nowhere).
pub(crate) fn inside(root: &Path, rel: &str) -> Result<PathBuf, InstallError> {
    let io = |path: &Path, source: io::Error| InstallError::Io {
        op: "resolve",
        path: path.to_owned(),
        source,
    };
    let real_root = fs::canonicalize(root).map_err(|e| io(root, e))?;
    let mut path = root.to_owned();
    for part in Path::new(rel).components() {
        let Component::Normal(part) = part else {
            continue;
        };
        path.push(part);
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let real = fs::canonicalize(&path).ok();
                if !real
                    .as_ref()
                    .is_some_and(|real| real.starts_with(&real_root))
                {
                    return Err(InstallError::LeavesProject {
                        path,
                        target: real,
                        root: root.to_owned(),
                    });
                }
            }
            Ok(_) => {}
            // The rest is created as plain folders.
            Err(e) if e.kind() == io::ErrorKind::NotFound => break,
            Err(e) => return Err(io(&path, e)),
        }
    }
    Ok(root.join(rel))
}

/// The path with the links of its existing part resolved: two destinations with the same key
/// are one folder.
pub(crate) fn same_folder_key(path: &Path) -> PathBuf {
    let mut existing = path.to_owned();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = fs::canonicalize(&existing) {
            let mut key = real;
            for part in rest.iter().rev() {
                key.push(part);
            }
            return key;
        }
        match (
            existing.file_name().map(|n| n.to_owned()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_owned();
            }
            _ => return path.to_owned(),
        }
    }
}
