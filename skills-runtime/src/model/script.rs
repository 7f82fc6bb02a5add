//! A skill's scripts written in Rust: a function the model calls through the run tool, its
//! arguments a JSON value checked against the function's own argument type.
//!
//! A [`Script`] names its skill and itself and holds the function behind it (`ScriptFn`): the
//! JSON Schema of its arguments and a way to run it. `skills!(..., scripts = {...})` builds a static
//! table of them; [`Script::new`] and [`Script::new_async`] build one at run time.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde_json::Value;

/// What runs a [`Script`]: the JSON Schema of its arguments, and a way to run it with
/// arguments the model sent. Implemented by the adapters of [`Script::new`],
/// [`Script::new_async`] and [`Script::dynamic`] (and by generated code's static adapters). Not
/// a public API: generated code reaches it through `__private`.
pub trait ScriptFn: Send + Sync {
    /// The JSON Schema of the arguments, as the model is shown it. Its `description` (for a
    /// derived schema, the argument type's doc comment) describes the script.
    fn schema(&self) -> Value;

    /// Runs the script with the arguments the model sent (see [`Script::run`]).
    fn run(
        &self,
        args: Value,
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<String, ScriptError>;
}

/// Tells a script run that its answer is no longer wanted: the MCP server cancels it when the
/// client sends `notifications/cancelled` for the call or hangs up. Clones share one state;
/// once cancelled it stays so.
///
/// ```
/// use skills_embed::tools::CancelToken;
/// use std::time::Duration;
///
/// let cancel = CancelToken::default();
/// assert!(!cancel.wait_timeout(Duration::from_millis(1)));
/// let other = cancel.clone();
/// std::thread::spawn(move || other.cancel());
/// // Wakes as soon as another thread cancels (a runner's wait between checks on its process).
/// while !cancel.wait_timeout(Duration::from_secs(1)) {}
/// // Once cancelled, a wait of no time says so at once.
/// assert!(cancel.wait_timeout(Duration::ZERO));
/// ```
#[derive(Clone, Default)]
pub struct CancelToken {
    flag: Arc<Flag>,
}

/// The state clones of a [`CancelToken`] share.
#[derive(Default)]
struct Flag {
    state: Mutex<Waiting>,
    cancelled: Condvar,
}

#[derive(Default)]
struct Waiting {
    cancelled: bool,
    /// Woken at cancellation: the executors driving `async` scripts.
    wakers: Vec<Waker>,
}

impl CancelToken {
    /// Cancels the run: every clone sees it, waits return, `async` scripts are woken to be
    /// dropped.
    ///
    /// ```
    /// let cancel = skills_embed::tools::CancelToken::default();
    /// cancel.clone().cancel();
    /// assert!(cancel.wait_timeout(std::time::Duration::ZERO));
    /// ```
    pub fn cancel(&self) {
        let wakers = {
            let mut state = self.state();
            state.cancelled = true;
            std::mem::take(&mut state.wakers)
        };
        self.flag.cancelled.notify_all();
        for waker in wakers {
            waker.wake();
        }
    }

    /// Whether the run was cancelled (what `wait_timeout(Duration::ZERO)` says, without the
    /// wait's lock on the condition variable).
    pub(crate) fn is_cancelled(&self) -> bool {
        self.state().cancelled
    }

    /// Blocks until the run is cancelled or `timeout` has passed (no time: only asks); returns
    /// whether it was
    /// cancelled.
    ///
    /// ```
    /// let cancel = skills_embed::tools::CancelToken::default();
    /// cancel.cancel();
    /// assert!(cancel.wait_timeout(std::time::Duration::from_secs(60)));
    /// ```
    pub fn wait_timeout(&self, timeout: Duration) -> bool {
        let state = self.state();
        let (state, _) = self
            .flag
            .cancelled
            .wait_timeout_while(state, timeout, |s| !s.cancelled)
            .unwrap_or_else(PoisonError::into_inner);
        state.cancelled
    }

    /// Wakes `waker` at cancellation (at once if cancelled already).
    fn wake_on_cancel(&self, waker: &Waker) {
        let mut state = self.state();
        if state.cancelled {
            drop(state);
            waker.wake_by_ref();
        } else if !state.wakers.iter().any(|w| w.will_wake(waker)) {
            state.wakers.push(waker.clone());
        }
    }

    /// No longer wakes `waker` (its run has ended): a token shared by many runs keeps no
    /// waker of a run that is over.
    fn forget(&self, waker: &Waker) {
        self.state().wakers.retain(|w| !w.will_wake(waker));
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Waiting> {
        // A panic elsewhere while holding it leaves a flag and wakers: still usable.
        self.flag
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelToken")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// Why a script gave no output: text for the model that says what was wrong and what to do.
///
/// ```
/// use serde_json::json;
/// use skills_embed::{Script, ScriptError};
/// use std::time::Duration;
/// # #[derive(serde::Deserialize, schemars::JsonSchema)]
/// # struct N { n: u64 }
/// fn halve(args: N) -> Result<u64, String> {
///     if args.n % 2 == 0 { Ok(args.n / 2) } else { Err(format!("{} is odd", args.n)) }
/// }
/// let script = Script::new("math", "halve", halve);
/// let run = |n| script.run(json!({"n": n}), Duration::from_secs(1), &Default::default());
/// assert_eq!(run(4), Ok("2".to_owned()));
/// let err = run(3).unwrap_err();
/// assert_eq!(err, ScriptError::Failed("3 is odd".into()));
/// assert_eq!(err.to_string(), "The script failed: 3 is odd");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScriptError {
    /// The arguments do not fit the script's argument type.
    #[error(
        "The arguments do not fit the script: {problem}. Send arguments matching this JSON Schema: {schema}"
    )]
    InvalidArgs {
        /// What serde found wrong.
        problem: String,
        /// The schema of the arguments, as compact JSON.
        schema: String,
    },
    /// The script ran and returned an error.
    #[error("The script failed: {0}")]
    Failed(String),
    /// The script panicked; the panic was caught.
    #[error(
        "The script stopped with an internal error (a panic: {0}). Do not retry with the same arguments; tell the user."
    )]
    Panicked(String),
    /// The run did not finish in time and was stopped (an `async` script, or a script file's
    /// process, killed by [`FileRun::wait`](crate::tools::FileRun::wait)).
    #[error("The script did not finish within {} ms and was stopped. Retry with less work, or tell the user.", .0.as_millis())]
    TimedOut(Duration),
    /// The call was cancelled (by the client, or because it went away) and the run stopped (a
    /// script file's process killed).
    #[error(
        "The script was stopped before it finished: its call was cancelled (the client cancelled it or disconnected). Run it again if the answer is still needed."
    )]
    Cancelled,
}

/// A Rust script of a skill: the skill's name, the script's name and its function.
///
/// ```
/// use skills_embed::Script;
/// use std::time::Duration;
///
/// /// Adds two numbers.
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Sum { a: i64, b: i64 }
///
/// fn sum(args: Sum) -> Result<i64, String> {
///     args.a.checked_add(args.b).ok_or_else(|| "the sum overflows".to_owned())
/// }
///
/// let script = Script::new("math", "sum", sum);
/// assert_eq!((script.skill(), script.name()), ("math", "sum"));
/// assert_eq!(script.schema()["description"], "Adds two numbers.");
/// let run = |args| script.run(args, Duration::from_secs(1), &Default::default());
/// assert_eq!(run(serde_json::json!({"a": 2, "b": 3})).unwrap(), "5");
/// let wrong = run(serde_json::json!({"a": 2})).unwrap_err().to_string();
/// assert!(wrong.starts_with("The arguments do not fit the script: missing field `b`"), "{wrong}");
/// ```
#[derive(Clone)]
pub struct Script {
    skill: Cow<'static, str>,
    name: Cow<'static, str>,
    function: Function,
}

#[derive(Clone)]
enum Function {
    Static(&'static dyn ScriptFn),
    Shared(Arc<dyn ScriptFn>),
}

impl Script {
    /// A script of `skill` named `name` that calls `f`: its arguments are `A` as JSON (with
    /// `A`'s JSON Schema shown to the model), its output `T` as text.
    ///
    /// ```
    /// use skills_embed::Script;
    /// /// Adds two numbers.
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Sum { a: i64, b: i64 }
    /// fn sum(args: Sum) -> Result<i64, String> {
    ///     args.a.checked_add(args.b).ok_or_else(|| "the sum overflows".to_owned())
    /// }
    /// let script = Script::new("math", "sum", sum);
    /// let args = serde_json::json!({"a": 2, "b": 3});
    /// let out = script.run(args, std::time::Duration::from_secs(1), &Default::default());
    /// assert_eq!(out.unwrap(), "5");
    /// ```
    pub fn new<A, T, E>(
        skill: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        f: fn(A) -> Result<T, E>,
    ) -> Script
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
        T: fmt::Display + 'static,
        E: fmt::Display + 'static,
    {
        Script::with_fn(skill, name, Arc::new(FnScript::new(f)))
    }

    /// A script of `skill` named `name` that awaits `f`, driven on the calling thread and given
    /// up after the run's timeout. Futures that need a runtime's reactor (tokio's I/O, timers)
    /// must be driven by that runtime: spawn them there and await the handle.
    ///
    /// ```
    /// use serde_json::json;
    /// use skills_embed::{Script, ScriptError};
    /// use std::time::Duration;
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct Text { text: String }
    /// async fn shout(args: Text) -> Result<String, String> {
    ///     if args.text.is_empty() {
    ///         std::future::pending::<()>().await; // waits for ever
    ///     }
    ///     Ok(args.text.to_uppercase())
    /// }
    /// let script = Script::new_async("notes", "shout", shout);
    /// let run = |text, timeout| script.run(json!({"text": text}), timeout, &Default::default());
    /// assert_eq!(run("hi", Duration::from_secs(1)), Ok("HI".to_owned()));
    /// let short = Duration::from_millis(10);
    /// assert_eq!(run("", short), Err(ScriptError::TimedOut(short)));
    /// ```
    pub fn new_async<A, F, T, E>(
        skill: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        f: fn(A) -> F,
    ) -> Script
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
        F: Future<Output = Result<T, E>> + 'static,
        T: fmt::Display + 'static,
        E: fmt::Display + 'static,
    {
        Script::with_fn(skill, name, Arc::new(AsyncScript::new(f)))
    }

    /// A script of `skill` named `name` that is not a Rust function known at build time (one a
    /// plug-in registers, a call into an interpreter): `schema` is the JSON Schema of its
    /// arguments as the model is shown it (its `description` describes the script), and `run`
    /// is called with the arguments the model sent, the run's timeout and its [`CancelToken`]
    /// (see [`Script::run`]).
    ///
    /// ```
    /// use skills_embed::{Script, ScriptError};
    /// use serde_json::json;
    /// use std::time::Duration;
    ///
    /// let script = Script::dynamic(
    ///     "notes",
    ///     "echo",
    ///     json!({"type": "object", "description": "Says the text back."}),
    ///     |args, _timeout, _cancel| Ok::<_, ScriptError>(args.to_string()),
    /// );
    /// assert_eq!(script.schema()["description"], "Says the text back.");
    /// let out = script.run(json!({"text": "hi"}), Duration::from_secs(1), &Default::default());
    /// assert_eq!(out.unwrap(), r#"{"text":"hi"}"#);
    /// ```
    pub fn dynamic<F>(
        skill: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        schema: Value,
        run: F,
    ) -> Script
    where
        F: Fn(Value, Duration, &CancelToken) -> Result<String, ScriptError> + Send + Sync + 'static,
    {
        Script::with_fn(skill, name, Arc::new(DynScript { schema, run }))
    }

    /// A script of `skill` named `name` run by any [`ScriptFn`].
    pub(crate) fn with_fn(
        skill: impl Into<Cow<'static, str>>,
        name: impl Into<Cow<'static, str>>,
        function: Arc<dyn ScriptFn>,
    ) -> Script {
        Script {
            skill: skill.into(),
            name: name.into(),
            function: Function::Shared(function),
        }
    }

    /// A script in a table `skills!` generates.
    pub(crate) const fn embedded(
        skill: &'static str,
        name: &'static str,
        function: &'static dyn ScriptFn,
    ) -> Script {
        Script {
            skill: Cow::Borrowed(skill),
            name: Cow::Borrowed(name),
            function: Function::Static(function),
        }
    }

    /// What scripts are sorted and found by: the skill's name, then the script's.
    pub(crate) fn key(&self) -> (&str, &str) {
        (&self.skill, &self.name)
    }

    /// The skill the script belongs to.
    ///
    /// ```
    /// use skills_embed::Script;
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct Sum { a: i64, b: i64 }
    /// # fn sum(args: Sum) -> Result<i64, String> { Ok(args.a + args.b) }
    /// let script = Script::new("math", "sum", sum);
    /// // The run tool names it `skill/name`.
    /// assert_eq!(format!("{}/{}", script.skill(), script.name()), "math/sum");
    /// ```
    pub fn skill(&self) -> &str {
        &self.skill
    }

    /// The script's name, unique within its skill.
    ///
    /// ```
    /// use skills_embed::Script;
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct Sum { a: i64, b: i64 }
    /// # fn sum(args: Sum) -> Result<i64, String> { Ok(args.a + args.b) }
    /// let script = Script::new("math", "sum", sum);
    /// // The run tool names it `skill/name`.
    /// assert_eq!(format!("{}/{}", script.skill(), script.name()), "math/sum");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs the script with `args`, the arguments the model sent (the run tool calls this). An
    /// `async` script gives up after `timeout` and is dropped at its next wake-up once `cancel`
    /// is cancelled (the call was cancelled or its client went away); a script file's process
    /// is killed (see [`FileRun::wait`](crate::tools::FileRun::wait)). A plain function cannot
    /// be stopped from outside: it is not started when `cancel` is already cancelled, and
    /// otherwise runs to its end.
    ///
    /// ```
    /// use skills_embed::{tools::CancelToken, Script, ScriptError};
    /// use std::time::Duration;
    ///
    /// /// Waits for ever.
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Nothing {}
    /// async fn forever(_: Nothing) -> Result<String, String> {
    ///     std::future::pending().await
    /// }
    /// let script = Script::new_async("demo", "forever", forever);
    /// let cancel = CancelToken::default();
    /// let later = cancel.clone();
    /// std::thread::spawn(move || later.cancel());
    /// let out = script.run(serde_json::json!({}), Duration::from_secs(600), &cancel);
    /// assert_eq!(out, Err(ScriptError::Cancelled));
    /// ```
    ///
    /// # Errors
    ///
    /// Arguments that do not fit the schema, the script's own error, a timeout, or
    /// [`ScriptError::Cancelled`]: a [`ScriptError`] whose text tells the model what to do.
    pub fn run(
        &self,
        args: Value,
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<String, ScriptError> {
        // Cancelled while waiting for its turn: nothing is started.
        if cancel.is_cancelled() {
            return Err(ScriptError::Cancelled);
        }
        self.function().run(args, timeout, cancel)
    }

    /// The function that runs it.
    pub(crate) fn function(&self) -> &dyn ScriptFn {
        match &self.function {
            Function::Static(f) => *f,
            Function::Shared(f) => f.as_ref(),
        }
    }

    /// The JSON Schema of its arguments, without the `$schema` and `title` keys a derived
    /// schema starts with. A schema that panics to make gives an open object schema
    /// saying so, so that one faulty script cannot take the tool definitions down.
    ///
    /// ```
    /// use skills_embed::Script;
    /// /// Adds two numbers.
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Sum { a: i64, b: i64 }
    /// # fn sum(args: Sum) -> Result<i64, String> { Ok(args.a + args.b) }
    /// let schema = Script::new("math", "sum", sum).schema();
    /// assert_eq!(schema["description"], "Adds two numbers.");
    /// assert_eq!(schema["required"], serde_json::json!(["a", "b"]));
    /// assert!(schema.get("$schema").is_none() && schema.get("title").is_none());
    /// ```
    pub fn schema(&self) -> Value {
        let made =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.function().schema()));
        shown(made.unwrap_or_else(|_| {
            serde_json::json!({
                "type": "object",
                "description": "This script's argument schema could not be made (its code panicked).",
            })
        }))
    }

    /// What the script does: its schema's `description` (the argument type's doc comment), or
    /// the empty string.
    pub(crate) fn description(&self) -> String {
        match self.schema().get("description") {
            Some(Value::String(d)) => d.trim().to_owned(),
            _ => String::new(),
        }
    }
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Script({}/{})", self.skill, self.name)
    }
}

/// A closure and its schema as a [`ScriptFn`] ([`Script::dynamic`]).
struct DynScript<F> {
    schema: Value,
    run: F,
}

impl<F> ScriptFn for DynScript<F>
where
    F: Fn(Value, Duration, &CancelToken) -> Result<String, ScriptError> + Send + Sync,
{
    fn schema(&self) -> Value {
        self.schema.clone()
    }

    fn run(
        &self,
        args: Value,
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<String, ScriptError> {
        (self.run)(args, timeout, cancel)
    }
}

/// A plain function as a [`ScriptFn`]. Built by [`FnScript::new`] (generated code calls it),
/// where the argument and result types are checked once; the impl itself has no bounds, so a
/// function whose types do not fit is one error at the function, not a second one where it
/// becomes a `dyn ScriptFn`.
pub struct FnScript<A, T, E> {
    f: fn(A) -> Result<T, E>,
    decode: fn(Value) -> Result<A, ScriptError>,
    schema: fn() -> Value,
    show: fn(Result<T, E>) -> Result<String, ScriptError>,
}

impl<A, T, E> FnScript<A, T, E> {
    /// `f` as a script: its arguments `A` as JSON, its output and error as text.
    pub const fn new(f: fn(A) -> Result<T, E>) -> Self
    where
        A: DeserializeOwned + schemars::JsonSchema,
        T: fmt::Display,
        E: fmt::Display,
    {
        FnScript {
            f,
            decode: args_of::<A>,
            schema: schema_of::<A>,
            show: output::<T, E>,
        }
    }
}

/// An `async` function as a [`ScriptFn`], built by [`AsyncScript::new`] (see [`FnScript`]).
pub struct AsyncScript<A, F> {
    f: fn(A) -> F,
    decode: fn(Value) -> Result<A, ScriptError>,
    schema: fn() -> Value,
    drive: fn(F, Duration, &CancelToken) -> Result<String, ScriptError>,
}

impl<A, F> AsyncScript<A, F> {
    /// `f` as a script, driven to its end or its timeout.
    pub const fn new<T, E>(f: fn(A) -> F) -> Self
    where
        A: DeserializeOwned + schemars::JsonSchema,
        F: Future<Output = Result<T, E>>,
        T: fmt::Display,
        E: fmt::Display,
    {
        AsyncScript {
            f,
            decode: args_of::<A>,
            schema: schema_of::<A>,
            drive: drive::<F, T, E>,
        }
    }
}

fn schema_of<A: schemars::JsonSchema>() -> Value {
    schemars::SchemaGenerator::default()
        .into_root_schema_for::<A>()
        .to_value()
}

/// A schema as the model is shown it: without the `$schema` and `title` keys a derived schema
/// starts with.
fn shown(mut schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
        map.remove("title");
    }
    schema
}

fn args_of<A: DeserializeOwned + schemars::JsonSchema>(args: Value) -> Result<A, ScriptError> {
    serde_json::from_value(args).map_err(|e| ScriptError::InvalidArgs {
        problem: e.to_string(),
        schema: shown(schema_of::<A>()).to_string(),
    })
}

fn output<T: fmt::Display, E: fmt::Display>(result: Result<T, E>) -> Result<String, ScriptError> {
    result
        .map(|t| t.to_string())
        .map_err(|e| ScriptError::Failed(e.to_string()))
}

fn drive<F, T, E>(future: F, timeout: Duration, cancel: &CancelToken) -> Result<String, ScriptError>
where
    F: Future<Output = Result<T, E>>,
    T: fmt::Display,
    E: fmt::Display,
{
    match block_on(future, timeout, cancel) {
        Driven::Done(result) => output(result),
        Driven::TimedOut => Err(ScriptError::TimedOut(timeout)),
        Driven::Cancelled => Err(ScriptError::Cancelled),
    }
}

impl<A, T, E> ScriptFn for FnScript<A, T, E> {
    fn schema(&self) -> Value {
        (self.schema)()
    }

    fn run(
        &self,
        args: Value,
        _timeout: Duration,
        _cancel: &CancelToken,
    ) -> Result<String, ScriptError> {
        (self.show)((self.f)((self.decode)(args)?))
    }
}

impl<A, F> ScriptFn for AsyncScript<A, F> {
    fn schema(&self) -> Value {
        (self.schema)()
    }

    fn run(
        &self,
        args: Value,
        timeout: Duration,
        cancel: &CancelToken,
    ) -> Result<String, ScriptError> {
        (self.drive)((self.f)((self.decode)(args)?), timeout, cancel)
    }
}

/// Wakes the thread that polls.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// How driving a future ended.
enum Driven<T> {
    Done(T),
    TimedOut,
    Cancelled,
}

/// Drives `future` on this thread until it is ready, or gives up (dropping it) after
/// `timeout` or at `cancel`. Spurious wake-ups only cost a poll.
fn block_on<F: Future>(future: F, timeout: Duration, cancel: &CancelToken) -> Driven<F::Output> {
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    cancel.wake_on_cancel(&waker);
    let driven = drive_until(future, timeout, cancel, &waker);
    cancel.forget(&waker);
    driven
}

/// The loop of [`block_on`], polling with `waker`.
fn drive_until<F: Future>(
    future: F,
    timeout: Duration,
    cancel: &CancelToken,
    waker: &Waker,
) -> Driven<F::Output> {
    let deadline = Instant::now().checked_add(timeout);
    let mut cx = Context::from_waker(waker);
    let mut future = std::pin::pin!(future);
    loop {
        if cancel.is_cancelled() {
            return Driven::Cancelled;
        }
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return Driven::Done(out);
        }
        match deadline {
            None => thread::park(),
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Driven::TimedOut;
                }
                thread::park_timeout(left);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Args {
        n: u32,
    }

    async fn later(args: Args) -> Result<u32, String> {
        // Finishes when another thread sends, as a future waiting on real work would.
        let (tx, rx) = mpsc::channel();
        let waker_slot = Arc::new(std::sync::Mutex::new(None::<Waker>));
        let slot = waker_slot.clone();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            tx.send(args.n * 2).unwrap();
            if let Some(w) = slot.lock().unwrap().take() {
                w.wake();
            }
        });
        std::future::poll_fn(|cx| match rx.try_recv() {
            Ok(v) => Poll::Ready(Ok(v)),
            Err(_) => {
                *waker_slot.lock().unwrap() = Some(cx.waker().clone());
                // The value may have arrived between the check and storing the waker.
                match rx.try_recv() {
                    Ok(v) => Poll::Ready(Ok(v)),
                    Err(_) => Poll::Pending,
                }
            }
        })
        .await
    }

    async fn never(_: Args) -> Result<u32, String> {
        std::future::pending().await
    }

    #[test]
    fn an_async_script_is_driven_to_its_end() {
        let script = Script::new_async("s", "later", later);
        let out = script.function().run(
            serde_json::json!({"n": 21}),
            Duration::from_secs(5),
            &CancelToken::default(),
        );
        assert_eq!(out, Ok("42".to_owned()));
    }

    #[test]
    fn a_token_shared_by_runs_keeps_no_waker_of_a_run_that_ended() {
        let script = Script::new_async("s", "later", later);
        let cancel = CancelToken::default();
        for _ in 0..3 {
            let out =
                script
                    .function()
                    .run(serde_json::json!({"n": 1}), Duration::from_secs(5), &cancel);
            assert_eq!(out, Ok("2".to_owned()));
        }
        assert!(cancel.state().wakers.is_empty());
    }

    #[test]
    fn an_async_script_is_stopped_at_its_timeout() {
        let script = Script::new_async("s", "never", never);
        let started = Instant::now();
        let out = script.function().run(
            serde_json::json!({"n": 1}),
            Duration::from_millis(50),
            &CancelToken::default(),
        );
        assert_eq!(out, Err(ScriptError::TimedOut(Duration::from_millis(50))));
        assert!(started.elapsed() >= Duration::from_millis(50));
        assert!(
            out.unwrap_err()
                .to_string()
                .contains("did not finish within 50 ms")
        );
    }

    #[test]
    fn a_cancelled_async_script_is_dropped_at_once() {
        // Pending for ever; says when it is first polled and when it is dropped.
        struct Waits {
            started: Option<mpsc::Sender<()>>,
            dropped: Arc<std::sync::atomic::AtomicBool>,
        }
        impl Future for Waits {
            type Output = Result<u32, String>;
            fn poll(mut self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
                if let Some(started) = self.started.take() {
                    started.send(()).unwrap();
                }
                Poll::Pending
            }
        }
        impl Drop for Waits {
            fn drop(&mut self) {
                self.dropped
                    .store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let (started, polled) = mpsc::channel();
        let dropped = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let waits = Waits {
            started: Some(started),
            dropped: Arc::clone(&dropped),
        };
        let cancel = CancelToken::default();
        let run = {
            let cancel = cancel.clone();
            // A timeout far past the test's bounded waits: only the cancellation can end it.
            thread::spawn(move || drive(waits, Duration::from_secs(600), &cancel))
        };
        polled.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(!dropped.load(std::sync::atomic::Ordering::SeqCst));
        cancel.cancel();
        let (done, finished) = mpsc::channel();
        thread::spawn(move || done.send(run.join().unwrap()).unwrap());
        let out = finished
            .recv_timeout(Duration::from_secs(10))
            .expect("the cancelled run returns");
        assert_eq!(out, Err(ScriptError::Cancelled));
        assert!(dropped.load(std::sync::atomic::Ordering::SeqCst));
        assert!(
            out.unwrap_err()
                .to_string()
                .contains("its call was cancelled")
        );

        // Cancelled before it starts: not called at all.
        let script = Script::new_async("s", "never", never);
        let out = script.function().run(
            serde_json::json!({"n": 1}),
            Duration::from_secs(600),
            &cancel,
        );
        assert_eq!(out, Err(ScriptError::Cancelled));
    }

    #[test]
    fn a_schema_that_panics_gives_a_schema_that_says_so() {
        struct Faulty;
        impl ScriptFn for Faulty {
            fn schema(&self) -> Value {
                panic!("no schema today")
            }
            fn run(&self, _: Value, _: Duration, _: &CancelToken) -> Result<String, ScriptError> {
                Ok("ran".into())
            }
        }
        let script = Script::with_fn("s", "faulty", Arc::new(Faulty));
        let schema = script.schema();
        assert_eq!(schema["type"], "object");
        assert!(script.description().contains("could not be made"));
        assert_eq!(
            script
                .function()
                .run(Value::Null, Duration::from_secs(1), &CancelToken::default())
                .unwrap(),
            "ran"
        );
    }

    #[test]
    fn a_run_cancelled_before_it_starts_never_calls_the_function() {
        use std::sync::atomic::{AtomicBool, Ordering};
        static CALLED: AtomicBool = AtomicBool::new(false);
        fn mark(a: Args) -> Result<u32, String> {
            CALLED.store(true, Ordering::SeqCst);
            Ok(a.n)
        }
        let cancel = CancelToken::default();
        cancel.cancel();
        let script = Script::new("s", "mark", mark);
        let out = script.run(serde_json::json!({"n": 1}), Duration::from_secs(1), &cancel);
        assert_eq!(out, Err(ScriptError::Cancelled));
        assert!(!CALLED.load(Ordering::SeqCst));
    }

    #[test]
    fn wrong_arguments_say_what_was_wrong_and_what_is_valid() {
        fn double(a: Args) -> Result<u32, String> {
            Ok(a.n * 2)
        }
        let script = Script::new("s", "double", double);
        let err = script
            .function()
            .run(
                serde_json::json!({"n": "x"}),
                Duration::from_secs(1),
                &CancelToken::default(),
            )
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("invalid type: string \"x\", expected u32"),
            "{err}"
        );
        assert!(err.contains(r#""required":["n"]"#), "{err}");
    }
}
