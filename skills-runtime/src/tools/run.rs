//! Running a skill's script for the model: its panics caught, its output cut like a
//! resource, its failures worded so the model knows what to do next. Rust scripts run in
//! process; a skill's script files run through the host's [`FileRunner`], when it gives one.

use std::io::Read;
use std::panic::{self, AssertUnwindSafe};
use std::process::{Child, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::definition::ToolConfig;
use super::render::ToolOutput;
use crate::model::script::{CancelToken, Script, ScriptError, ScriptFn};
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
/// use skills_embed_runtime::{File, Fields, Skill, SkillSet, tools::Tools, listing::ListingFormat};
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
    /// Cancelled when nobody waits for the answer any more (the MCP client cancelled the call
    /// or hung up): the runner stops the run. [`FileRun::wait`] does both for a child process.
    pub cancel: &'a CancelToken,
}

impl FileRun<'_> {
    /// Waits for `child`, the process this run started, and collects what it writes to its
    /// piped stdout and stderr (like [`Child::wait_with_output`]); when the run's
    /// [`timeout`](FileRun::timeout) passes or it is [cancelled](FileRun::cancel) first, kills
    /// and reaps the process and says so. Processes the child started itself are not
    /// killed with it: `exec` the interpreter, or start the child in a process group of its own
    /// and stop that.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// use skills_embed_runtime::tools::{FileRun, FileRunner};
    /// use std::process::{Command, Stdio};
    ///
    /// /// Runs a script file with `sh`, as a host without a sandbox might.
    /// struct Shell;
    /// impl FileRunner for Shell {
    ///     fn run(&self, run: FileRun<'_>) -> Result<String, String> {
    ///         let script = String::from_utf8_lossy(run.contents).into_owned();
    ///         let child = Command::new("sh")
    ///             .arg("-c")
    ///             .arg(script)
    ///             .arg(run.path)
    ///             .args(run.argv)
    ///             .stdout(Stdio::piped())
    ///             .stderr(Stdio::piped())
    ///             .spawn()
    ///             .map_err(|e| format!("could not start sh for {}: {e}", run.path))?;
    ///         let out = run.wait(child)?;
    ///         let text = String::from_utf8_lossy(&out.stdout).into_owned();
    ///         if out.status.success() { Ok(text) } else { Err(format!("{} ended with {}: {text}", run.path, out.status)) }
    ///     }
    /// }
    /// # use skills_embed_runtime::{File, Fields, Skill, SkillSet, tools::Tools, listing::ListingFormat};
    /// # let skill = Skill::owned(
    /// #     Fields { name: "greet".into(), description: "Greets.".into(), ..Fields::default() },
    /// #     "Run scripts/hi.sh.\n".into(),
    /// #     vec![File::owned("scripts/hi.sh".into(), b"echo hi $1".to_vec(), true)],
    /// # );
    /// # let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    /// let tools = Tools::new(&set).with_file_runner(std::sync::Arc::new(Shell));
    /// let out = tools.handle("run_skill_script", r#"{"script": "greet/scripts/hi.sh", "args": {"argv": ["there"]}}"#);
    /// assert!(out.text.ends_with("hi there\n"), "{}", out.text);
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// Text for the model: the run timed out or was cancelled (the process was killed), or
    /// the process could not be waited for.
    pub fn wait(&self, mut child: Child) -> Result<Output, String> {
        // Read on threads of their own, so a child that fills a pipe is not blocked by us.
        let stdout = child
            .stdout
            .take()
            .map(|pipe| std::thread::spawn(|| drain(pipe)));
        let stderr = child
            .stderr
            .take()
            .map(|pipe| std::thread::spawn(|| drain(pipe)));
        let deadline = Instant::now().checked_add(self.timeout);
        // std cannot wait for a child with a timeout: look, then sleep on the cancel token,
        // sleeping longer while the child runs long.
        let mut pause = Duration::from_millis(1);
        let stopped = loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    let collect = |reader: Option<std::thread::JoinHandle<Vec<u8>>>| {
                        reader
                            .map(|r| r.join().unwrap_or_default())
                            .unwrap_or_default()
                    };
                    return Ok(Output {
                        status,
                        stdout: collect(stdout),
                        stderr: collect(stderr),
                    });
                }
                Ok(None) => {}
                Err(e) => {
                    break format!(
                        "{} could not be waited for ({e}) and was stopped.",
                        self.path
                    );
                }
            }
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if self.cancel.is_cancelled() {
                break format!(
                    "{} was stopped (its process killed): the call was cancelled.",
                    self.path
                );
            }
            if left.is_some_and(|l| l.is_zero()) {
                break format!(
                    "{} did not finish within {} ms and was stopped (its process killed). Retry \
                     with less work, or tell the user.",
                    self.path,
                    self.timeout.as_millis()
                );
            }
            self.cancel
                .wait_timeout(left.map_or(pause, |l| l.min(pause)));
            pause = (pause * 2).min(Duration::from_millis(50));
        };
        // Killed and reaped: no zombie is left; the pipes' readers end when the pipes close.
        let _ = child.kill();
        let _ = child.wait();
        Err(stopped)
    }
}

/// All a pipe gives until it closes (what was read when it fails).
fn drain(mut pipe: impl Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = pipe.read_to_end(&mut bytes);
    bytes
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
        self.run_cancellable(args, timeout, &CancelToken::new())
    }

    fn run_cancellable(
        &self,
        args: Value,
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<String, ScriptError> {
        // Cancelled while waiting for its turn: no process is started.
        if cancel.is_cancelled() {
            return Err(ScriptError::Cancelled);
        }
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
                cancel,
            })
            .map_err(|e| {
                // However the runner words it, a cancelled run's answer says so.
                if cancel.is_cancelled() {
                    ScriptError::Cancelled
                } else {
                    ScriptError::Failed(e)
                }
            })
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

/// Runs `script` with `args` until it ends or `cancel`, and frames its output (or its failure)
/// for the model.
pub(crate) fn run(
    config: &ToolConfig,
    script: &Script,
    args: Value,
    cancel: &CancelToken,
) -> ToolOutput {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        script
            .function()
            .run_cancellable(args, config.script_timeout, cancel)
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    /// Whether process `pid` exists (a zombie counts: it was not reaped).
    fn exists(pid: u32) -> bool {
        Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    fn run<'a>(cancel: &'a CancelToken, timeout: Duration) -> FileRun<'a> {
        FileRun {
            skill: "s",
            path: "scripts/spin.sh",
            contents: b"",
            executable: true,
            argv: &[],
            timeout,
            cancel,
        }
    }

    /// A child that runs until stopped, busy (a looping script keeps a core busy).
    fn spin() -> Child {
        Command::new("sh")
            .args(["-c", "echo started; while :; do :; done"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    }

    #[test]
    fn a_cancelled_run_kills_and_reaps_its_process() {
        let cancel = CancelToken::new();
        let child = spin();
        let pid = child.id();
        let later = cancel.clone();
        std::thread::spawn(move || later.cancel());
        let err = run(&cancel, Duration::from_secs(600))
            .wait(child)
            .unwrap_err();
        assert_eq!(
            err,
            "scripts/spin.sh was stopped (its process killed): the call was cancelled."
        );
        assert!(!exists(pid), "process {pid} is still there");
    }

    #[test]
    fn a_cancelled_file_run_answers_that_it_was_cancelled() {
        /// Runs until cancelled, then words it its own way.
        struct Waits;
        impl FileRunner for Waits {
            fn run(&self, run: FileRun<'_>) -> Result<String, String> {
                while !run.cancel.wait_timeout(Duration::from_secs(600)) {}
                Err("interrupted".into())
            }
        }
        let runner: Arc<dyn FileRunner> = Arc::new(Waits);
        let skill = Skill::owned(
            crate::model::fields::Fields {
                name: "s".into(),
                description: "S.".into(),
                ..Default::default()
            },
            "Run it.\n".into(),
            vec![crate::model::file::File::owned(
                "scripts/x.sh".into(),
                b"true\n".to_vec(),
                true,
            )],
        );
        let scripts = file_scripts(std::iter::once(&skill), &runner);
        let cancel = CancelToken::new();
        let later = cancel.clone();
        std::thread::spawn(move || later.cancel());
        let out = super::run(
            &ToolConfig::default(),
            &scripts[0],
            serde_json::json!({"argv": []}),
            &cancel,
        );
        assert!(out.is_error);
        assert!(
            out.text.starts_with("[Script: s/scripts/x.sh]\n\n"),
            "{}",
            out.text
        );
        assert!(out.text.contains("its call was cancelled"), "{}", out.text);
    }

    #[test]
    fn a_run_past_its_timeout_is_killed_and_a_finished_one_gives_its_output() {
        let cancel = CancelToken::new();
        let child = spin();
        let pid = child.id();
        let err = run(&cancel, Duration::from_millis(50))
            .wait(child)
            .unwrap_err();
        assert!(err.contains("did not finish within 50 ms"), "{err}");
        assert!(!exists(pid), "process {pid} is still there");

        let child = Command::new("sh")
            .args(["-c", "echo out; echo err >&2; exit 3"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = run(&cancel, Duration::from_secs(600)).wait(child).unwrap();
        assert_eq!(
            (out.stdout, out.stderr),
            (b"out\n".to_vec(), b"err\n".to_vec())
        );
        assert_eq!(out.status.code(), Some(3));
    }
}
