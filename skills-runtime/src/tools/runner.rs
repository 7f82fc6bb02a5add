//! [`FileRunner`]: how a host runs a skill's script files its own way, and [`FileRun`], one run
//! handed to it (with the wait that kills and reaps a child process at its timeout or
//! cancellation).

use std::io::Read;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use crate::model::script::{CancelToken, ScriptError};

/// How a host runs a skill's script *files* (`scripts/*.py`, `scripts/*.sh`) its own way: in a
/// sandbox, a container, a remote worker. Given to [`Settings::with_file_runner`](super::Settings::with_file_runner), each such
/// file becomes a script of the run tool, named by its path (`pdf-forms/scripts/fill.py`),
/// under the same permission rules and approvals as Rust scripts. Without a runner, script
/// files are only extracted and their paths told to the model, as before.
///
/// ```
/// use skills_embed::tools::{FileRun, FileRunner, Settings};
/// use skills_embed::{File, Fields, ScriptError, Skill, SkillSet, tools::Tools, listing::ListingFormat};
/// use std::sync::Arc;
///
/// /// Pretends to run the file: says what it would run.
/// struct DryRun;
/// impl FileRunner for DryRun {
///     fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
///         Ok(format!("would run {} ({} bytes) with {:?}", run.path, run.contents.len(), run.argv))
///     }
/// }
/// let skill = Skill::owned(
///     Fields { name: "pdf-forms".into(), description: "Forms.".into(), ..Fields::default() },
///     "Run scripts/fill.py.\n".into(),
///     vec![File::owned("scripts/fill.py".into(), b"print('hi')\n".to_vec(), true)],
/// );
/// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let tools = Tools::new(set, Settings::default().with_file_runner(Arc::new(DryRun)));
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
    /// Whatever stopped the run, worded for the model: [`ScriptError::Failed`] with what went
    /// wrong, or what [`FileRun::wait`] gave (a timeout, a cancellation).
    ///
    /// ```
    /// use skills_embed::tools::{FileRun, FileRunner, Settings, Tools};
    /// use skills_embed::ScriptError;
    /// # use skills_embed::{File, Fields, Skill, SkillSet, listing::ListingFormat};
    /// /// Runs nothing that is not executable.
    /// struct ExecutableOnly;
    /// impl FileRunner for ExecutableOnly {
    ///     fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
    ///         if !run.executable {
    ///             return Err(ScriptError::Failed(format!("{} is not executable", run.path)));
    ///         }
    ///         Ok(format!("ran {}", run.path))
    ///     }
    /// }
    /// # let skill = Skill::owned(
    /// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
    /// #     "Run scripts/text.sh.\n".into(),
    /// #     vec![File::owned("scripts/text.sh".into(), b"pdftotext \"$1\" -\n".to_vec(), false)],
    /// # );
    /// # let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    /// let tools = Tools::new(set, Settings::default().with_file_runner(std::sync::Arc::new(ExecutableOnly)));
    /// let out = tools.handle("run_skill_script", r#"{"script": "pdf/scripts/text.sh"}"#);
    /// assert!(out.is_error && out.text.contains("scripts/text.sh is not executable"), "{}", out.text);
    /// ```
    fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError>;
}

impl std::fmt::Debug for dyn FileRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileRunner")
    }
}

/// One run of a script file: what a [`FileRunner`] is given.
///
/// ```
/// use skills_embed::tools::{FileRun, FileRunner, Settings, Tools};
/// use skills_embed::ScriptError;
/// # use skills_embed::{File, Fields, Skill, SkillSet, listing::ListingFormat};
/// /// Says what it was asked to run.
/// struct Describe;
/// impl FileRunner for Describe {
///     fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
///         Ok(format!("{} {} {:?} {:?}", run.skill, run.path, run.argv, run.timeout))
///     }
/// }
/// # let skill = Skill::owned(
/// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
/// #     "Run scripts/text.sh.\n".into(),
/// #     vec![File::owned("scripts/text.sh".into(), b"pdftotext \"$1\" -\n".to_vec(), true)],
/// # );
/// # let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let settings = Settings::default().with_file_runner(std::sync::Arc::new(Describe));
/// let tools = Tools::new(set, settings);
/// let call = r#"{"script": "pdf/scripts/text.sh", "args": {"argv": ["a.pdf"]}}"#;
/// let out = tools.handle("run_skill_script", call);
/// assert!(out.text.ends_with(r#"pdf scripts/text.sh ["a.pdf"] 30s"#), "{}", out.text);
/// ```
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
    /// How long the run may take ([`Settings::script_timeout`](super::Settings::script_timeout)); the runner enforces it.
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
    /// use skills_embed::tools::{FileRun, FileRunner, Settings};
    /// use skills_embed::ScriptError;
    /// use std::process::{Command, Stdio};
    ///
    /// /// Runs a script file with `sh`, as a host without a sandbox might.
    /// struct Shell;
    /// impl FileRunner for Shell {
    ///     fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
    ///         let script = String::from_utf8_lossy(run.contents).into_owned();
    ///         let child = Command::new("sh")
    ///             .arg("-c")
    ///             .arg(script)
    ///             .arg(run.path)
    ///             .args(run.argv)
    ///             .stdout(Stdio::piped())
    ///             .stderr(Stdio::piped())
    ///             .spawn()
    ///             .map_err(|e| ScriptError::Failed(format!("could not start sh for {}: {e}", run.path)))?;
    ///         let out = run.wait(child)?;
    ///         let text = String::from_utf8_lossy(&out.stdout).into_owned();
    ///         if out.status.success() { Ok(text) } else { Err(ScriptError::Failed(format!("{} ended with {}: {text}", run.path, out.status))) }
    ///     }
    /// }
    /// # use skills_embed::{File, Fields, Skill, SkillSet, tools::Tools, listing::ListingFormat};
    /// # let skill = Skill::owned(
    /// #     Fields { name: "greet".into(), description: "Greets.".into(), ..Fields::default() },
    /// #     "Run scripts/hi.sh.\n".into(),
    /// #     vec![File::owned("scripts/hi.sh".into(), b"echo hi $1".to_vec(), true)],
    /// # );
    /// # let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    /// let tools = Tools::new(set, Settings::default().with_file_runner(std::sync::Arc::new(Shell)));
    /// let out = tools.handle("run_skill_script", r#"{"script": "greet/scripts/hi.sh", "args": {"argv": ["there"]}}"#);
    /// assert!(out.text.ends_with("hi there\n"), "{}", out.text);
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`ScriptError::TimedOut`] or [`ScriptError::Cancelled`] (the process was killed), or
    /// [`ScriptError::Failed`] when the process could not be waited for.
    pub fn wait(&self, mut child: Child) -> Result<Output, ScriptError> {
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
                    break ScriptError::Failed(format!(
                        "{} could not be waited for ({e}) and was stopped.",
                        self.path
                    ));
                }
            }
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if self.cancel.is_cancelled() {
                break ScriptError::Cancelled;
            }
            if left.is_some_and(|l| l.is_zero()) {
                break ScriptError::TimedOut(self.timeout);
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
