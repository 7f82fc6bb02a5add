//! Running a skill's script for the model: its panics caught, its output cut like a
//! resource, its failures worded so the model knows what to do next. Rust scripts run in
//! process; a skill's script files run through the host's [`FileRunner`], when it gives one.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::definition::ToolConfig;
use super::render::ToolOutput;
use crate::model::script::{Script, ScriptError, ScriptFn};
use crate::model::skill::Skill;
use crate::text::{self, excerpt};

/// How a host runs a skill's script *files* (`scripts/*.py`, `scripts/*.sh`) its own way: in a
/// sandbox, a container, a remote worker. Given to [`Tools::with_file_runner`](super::Tools::with_file_runner), each such
/// file becomes a script of the run tool, named by its path (`pdf-forms/scripts/fill.py`),
/// under the same permission rules and approvals as Rust scripts. Without a runner, script
/// files are only extracted and their paths told to the model, as before.
///
/// ```
/// use skills_embed_runtime::tools::{FileRun, FileRunner};
/// use skills_embed_runtime::{File, Fields, Skill, SkillSet, Tools, listing::ListingFormat};
/// use std::sync::Arc;
///
/// /// Pretends to run the file: says what it would run.
/// struct DryRun;
/// impl FileRunner for DryRun {
///     fn run(&self, run: FileRun<'_>) -> Result<String, String> {
///         Ok(format!("would run {} ({} bytes) with {:?}", run.path, run.contents.len(), run.argv))
///     }
/// }
/// let skill = Skill::owned(
///     Fields { name: "pdf-forms".into(), description: "Forms.".into(), ..Fields::default() },
///     "Run scripts/fill.py.\n".into(),
///     vec![File::owned("scripts/fill.py".into(), b"print('hi')\n".to_vec(), true)],
/// );
/// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let tools = Tools::new(&set).with_file_runner(Arc::new(DryRun));
/// let out = tools.handle(
///     "run_skill_script",
///     r#"{"script": "pdf-forms/scripts/fill.py", "args": {"argv": ["--in", "a.pdf"]}}"#,
/// );
/// assert!(out.text.ends_with(r#"would run scripts/fill.py (12 bytes) with ["--in", "a.pdf"]"#), "{}", out.text);
/// ```
pub trait FileRunner: Send + Sync {
    /// Runs one script file; the text returned (or the error) is the model's answer.
    ///
    /// # Errors
    ///
    /// Whatever stopped the run, as text for the model.
    fn run(&self, run: FileRun<'_>) -> Result<String, String>;
}

impl std::fmt::Debug for dyn FileRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileRunner")
    }
}

/// One run of a script file: what a [`FileRunner`] is given.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FileRun<'a> {
    /// The skill's name.
    pub skill: &'a str,
    /// The file's path in the skill, e.g. `scripts/fill.py`.
    pub path: &'a str,
    /// The file's bytes.
    pub contents: &'a [u8],
    /// Whether the file has its executable bit.
    pub executable: bool,
    /// The arguments the model gave, one string each.
    pub argv: &'a [String],
    /// How long the run may take ([`ToolConfig::script_timeout`]); the runner enforces it.
    pub timeout: Duration,
}

/// A script file of a skill as a [`ScriptFn`] that hands it to a [`FileRunner`].
struct FileScript {
    runner: Arc<dyn FileRunner>,
    skill: String,
    path: String,
    contents: Vec<u8>,
    executable: bool,
}

/// The arguments of a script file: `{"argv": ["..."]}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Argv {
    #[serde(default)]
    argv: Vec<String>,
}

impl ScriptFn for FileScript {
    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "description": format!("The script file {} of this skill, run by the host.", self.path),
            "properties": {
                "argv": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Its command-line arguments, one string each.",
                },
            },
            "required": ["argv"],
            "additionalProperties": false,
        })
    }

    fn run(&self, args: Value, timeout: Duration) -> Result<String, ScriptError> {
        let argv: Argv = serde_json::from_value(args).map_err(|e| ScriptError::InvalidArgs {
            problem: e.to_string(),
            schema: self.schema().to_string(),
        })?;
        self.runner
            .run(FileRun {
                skill: &self.skill,
                path: &self.path,
                contents: &self.contents,
                executable: self.executable,
                argv: &argv.argv,
                timeout,
            })
            .map_err(ScriptError::Failed)
    }
}

/// The script files of `skills` (files under `scripts/`, or with an executable bit) as scripts
/// run by `runner`, sorted by skill and path.
pub(crate) fn file_scripts<'a>(
    skills: impl Iterator<Item = &'a Skill>,
    runner: &Arc<dyn FileRunner>,
) -> Vec<Script> {
    let mut scripts = Vec::new();
    for skill in skills {
        for file in skill.script_files() {
            let function = FileScript {
                runner: Arc::clone(runner),
                skill: skill.name().to_owned(),
                path: file.path().to_owned(),
                contents: file.bytes().to_vec(),
                executable: file.is_executable(),
            };
            scripts.push(Script::with_fn(
                skill.name().to_owned(),
                file.path().to_owned(),
                Arc::new(function),
            ));
        }
    }
    scripts.sort_by(|a, b| a.key().cmp(&b.key()));
    scripts
}

/// Runs `script` with `args` and frames its output (or its failure) for the model.
pub(crate) fn run(config: &ToolConfig, script: &Script, args: Value) -> ToolOutput {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        script.function().run(args, config.script_timeout)
    }))
    .unwrap_or_else(|payload| Err(ScriptError::Panicked(panic_message(payload.as_ref()))));
    let heading = format!(
        "[Script: {}/{}]",
        text::one_line(script.skill()),
        text::one_line(script.name())
    );
    match outcome {
        Ok(output) => {
            let cut = excerpt::excerpt(&output, 0, config.max_chars);
            let mut text = format!("{heading}\n\n{}", cut.text);
            if cut.next_offset().is_some() {
                let total = output.chars().count();
                text.push_str(&format!(
                    "\n\n[Output cut at {} of {total} characters. Run the script again with \
                     arguments that ask for less.]",
                    cut.chars()
                ));
            }
            ToolOutput {
                text,
                is_error: false,
                report: None,
                approval: None,
            }
        }
        Err(e) => {
            let message = e.to_string();
            let cut = excerpt::excerpt(&message, 0, config.max_chars);
            ToolOutput::error(format!("{heading}\n\n{}", cut.text))
        }
    }
}

/// The text a panic carried, when it is text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    text::echo(&message)
}
