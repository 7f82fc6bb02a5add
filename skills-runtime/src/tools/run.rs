//! Running a skill's script for the model: its panics caught, its output cut like a
//! resource, its failures worded so the model knows what to do next. Rust scripts run in
//! process; a skill's script files run through the host's [`FileRunner`], when it gives one.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::render::ToolOutput;
use super::runner::{FileRun, FileRunner};
use super::settings::Settings;
use crate::model::script::{CancelToken, Script, ScriptError, ScriptFn};
use crate::model::skill::Skill;
use crate::text::{self, excerpt};

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

    fn run(
        &self,
        args: Value,
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<String, ScriptError> {
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
                    e
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
    config: &Settings,
    script: &Script,
    args: Value,
    cancel: &CancelToken,
) -> ToolOutput {
    // A run cancelled while it waited for its turn is not started, whatever the script.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        if cancel.is_cancelled() {
            return Err(ScriptError::Cancelled);
        }
        script.run(args, config.script_timeout, cancel)
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
    use std::process::{Child, Command, Stdio};

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
        let cancel = CancelToken::default();
        let child = spin();
        let pid = child.id();
        let later = cancel.clone();
        std::thread::spawn(move || later.cancel());
        let err = run(&cancel, Duration::from_secs(600))
            .wait(child)
            .unwrap_err();
        assert_eq!(err, ScriptError::Cancelled);
        assert!(!exists(pid), "process {pid} is still there");
    }

    #[test]
    fn a_cancelled_file_run_answers_that_it_was_cancelled() {
        /// Runs until cancelled, then words it its own way.
        struct Waits;
        impl FileRunner for Waits {
            fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
                while !run.cancel.wait_timeout(Duration::from_secs(600)) {}
                Err(ScriptError::Failed("interrupted".into()))
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
        let cancel = CancelToken::default();
        let later = cancel.clone();
        std::thread::spawn(move || later.cancel());
        let out = super::run(
            &Settings::default(),
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
        let cancel = CancelToken::default();
        let child = spin();
        let pid = child.id();
        let err = run(&cancel, Duration::from_millis(50))
            .wait(child)
            .unwrap_err();
        assert_eq!(err, ScriptError::TimedOut(Duration::from_millis(50)));
        assert!(
            err.to_string().contains("did not finish within 50 ms"),
            "{err}"
        );
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
