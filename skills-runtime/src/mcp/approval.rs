//! `ask` over MCP: how a server with no approval hook of its own gets the user's answer about a
//! [`Subject`], from the client. A 2025-11-25 session that declared elicitation is sent
//! `elicitation/create` during the call; a 2026-07-28 request that declares it gets an
//! `input_required` result (SEP-2322) whose `requestState` is sealed (HMAC-SHA256, rmcp's
//! [`RequestStateCodec`]), expires after [`STATE_TTL`] and is bound to the caller (its bearer
//! token), so the retry may reach any replica that holds the same key. The "always" answers
//! belong to the caller: shared by its sessions and requests, and through
//! [`Options::grants_file`](super::Options::grants_file) by every replica.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use rmcp::ErrorData;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema,
    InputRequest, InputRequiredResult, InputResponses, RequestStateCodec, RequestStateError,
    SealOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::Options;
use crate::host::lock;
use crate::model::file::hex;
use crate::policy::{Answer, Grants, Subject};

/// The key of the one input request an approval makes.
pub(super) const APPROVAL: &str = "approval";

/// How long a `requestState` holds: time for a person to read the question and answer.
pub(super) const STATE_TTL: Duration = Duration::from_secs(600);

/// How long a session's `elicitation/create` waits for the person.
pub(super) const ELICIT_TIMEOUT: Duration = Duration::from_secs(600);

/// The largest grants file read or appended to (some 100,000 answers).
const MAX_GRANTS_FILE: u64 = 16 << 20;

/// Who calls: a digest of the bearer token the request came with (never the token), or anyone
/// (stdio, HTTP without tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Caller([u8; 32]);

impl Caller {
    /// Every caller of a server without tokens.
    pub(crate) const ANYONE: Caller = Caller([0; 32]);

    /// The caller holding `token`.
    #[cfg(feature = "mcp-http")]
    pub(crate) fn of_token(token: &str) -> Self {
        let digest = Sha256::new()
            .chain_update(b"skills-embed/mcp/caller\0")
            .chain_update(token.as_bytes())
            .finalize();
        Caller(digest.into())
    }

    fn hex(self) -> String {
        hex(&self.0)
    }
}

/// What a server shares across its sessions: the key its `requestState`s are sealed with, and
/// each caller's "always" answers (read from and appended to the grants file, when there is one).
#[derive(Debug)]
pub(super) struct Approvals {
    codec: RequestStateCodec,
    file: Option<GrantsFile>,
    grants: Mutex<HashMap<Caller, Arc<Mutex<Grants>>>>,
}

impl Approvals {
    /// With `options`' key (a key made for this process without one) and grants file.
    pub(super) fn new(options: &Options) -> Self {
        Approvals {
            codec: options
                .state_key
                .clone()
                .unwrap_or_else(|| process_codec().clone()),
            file: options.grants_file.clone().map(GrantsFile::new),
            grants: Mutex::default(),
        }
    }

    /// `caller`'s "always" answers, the one value its sessions share.
    pub(super) fn grants(&self, caller: Caller) -> Arc<Mutex<Grants>> {
        Arc::clone(lock(&self.grants).entry(caller).or_default())
    }

    /// Brings `caller`'s answers up to date with the grants file, when another replica (or
    /// session) wrote to it since it was last read.
    pub(super) fn refresh(&self, caller: Caller) {
        if let Some(file) = &self.file
            && let Some(read) = file.changed()
        {
            *lock(&self.grants(caller)) = read.of(caller);
            // Other callers' answers are read again at their next request.
            let mut all = lock(&self.grants);
            for (other, grants) in all.iter_mut() {
                if *other != caller {
                    *lock(grants) = read.of(*other);
                }
            }
        }
    }

    /// Writes down for the other replicas that `caller` answered `answer` about `subject` of
    /// the skill whose content digest is `content` (only `Always` and `Reject` outlast the call).
    pub(super) fn recorded(
        &self,
        caller: Caller,
        subject: &Subject,
        content: &[u8; 32],
        answer: Answer,
    ) {
        let digest = match answer {
            Answer::Once => return,
            Answer::Always => Some(hex(content)),
            Answer::Reject => None,
        };
        if let Some(file) = &self.file {
            file.append(&Line {
                caller: caller.hex(),
                subject: subject.to_string(),
                digest,
            });
        }
    }

    /// The `input_required` answer asking `caller` about `subject` of the skill as it is now
    /// (`content`, its digest).
    pub(super) fn input_required(
        &self,
        caller: Caller,
        subject: &Subject,
        content: &[u8; 32],
    ) -> InputRequiredResult {
        let state = Pending {
            subject: subject.to_string(),
            digest: hex(content),
        };
        let sealed = self
            .codec
            .seal_json_with(
                &state,
                &SealOptions::new().associated_data(&caller.0).ttl(STATE_TTL),
            )
            // Two strings always serialise.
            .unwrap_or_default();
        let mut requests = BTreeMap::new();
        requests.insert(
            APPROVAL.to_owned(),
            InputRequest::Elicitation(ElicitRequest::new(form(subject))),
        );
        InputRequiredResult::new(Some(requests), Some(sealed))
    }

    /// The answer a retried request carries about `subject` of the skill whose content digest
    /// is `content`: `Ok(None)` when it
    /// carries none that applies (no state, an expired one, or one for the skill's earlier
    /// content: the person is asked again), an error for a state this server did not issue to
    /// this caller for this subject.
    pub(super) fn answered(
        &self,
        caller: Caller,
        subject: &Subject,
        content: &[u8; 32],
        state: Option<&str>,
        responses: Option<&InputResponses>,
    ) -> Result<Option<Answer>, ErrorData> {
        let Some(state) = state else {
            return Ok(None);
        };
        let pending: Pending = match self.codec.open_json_with(state, &caller.0) {
            Ok(pending) => pending,
            Err(RequestStateError::Expired) => return Ok(None),
            Err(error) => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "The requestState was not issued by this server to this caller ({error}): \
                         call the tool again without requestState and inputResponses to be asked \
                         anew; replicas must share --state-key-file."
                    ),
                    None,
                ));
            }
        };
        if pending.subject != subject.to_string() {
            return Err(ErrorData::invalid_params(
                format!(
                    "The requestState is the approval of {}, not of {subject}: send it back with the \
                     call it was answered for.",
                    pending.subject
                ),
                None,
            ));
        }
        if pending.digest != hex(content) {
            // The person approved what they were shown; the skill has changed since.
            return Ok(None);
        }
        let Some(response) = responses.and_then(|responses| responses.get(APPROVAL)) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "inputResponses has no \"{APPROVAL}\": answer the elicitation the server sent \
                     under that key, or call again without requestState."
                ),
                None,
            ));
        };
        let result: ElicitResult = serde_json::from_value(response.clone()).map_err(|error| {
            ErrorData::invalid_params(
                format!("inputResponses.{APPROVAL} is not an elicitation result: {error}"),
                None,
            )
        })?;
        Ok(Some(answer_of(&result)))
    }
}

/// What a `requestState` holds: the subject asked about and the content shown.
#[derive(Serialize, Deserialize)]
struct Pending {
    #[serde(rename = "s")]
    subject: String,
    #[serde(rename = "d")]
    digest: String,
}

/// The form that asks about `subject`: one choice, `once`, `always` or `reject`.
pub(super) fn form(subject: &Subject) -> ElicitRequestParams {
    let what = match &subject.script {
        Some(script) => format!(
            "Allow the skills server to run the script \"{script}\" of the skill \"{}\"?",
            subject.skill
        ),
        None => format!(
            "Allow the skills server to load the skill \"{}\" (its rule is ask)?",
            subject.skill
        ),
    };
    let form = json!({
        "mode": "form",
        "message": what,
        "requestedSchema": {
            "type": "object",
            "properties": {
                "answer": {
                    "type": "string",
                    "title": "Answer",
                    "description": "once: this time; always: until the skill changes; reject: not now",
                    "enum": ["once", "always", "reject"],
                    "default": "once"
                }
            },
            "required": ["answer"]
        }
    });
    // The form above is a valid one; rmcp's types check it once here.
    serde_json::from_value(form).unwrap_or_else(|_| ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: String::new(),
        requested_schema: ElicitationSchema::new(BTreeMap::new()),
    })
}

/// The person's answer in an elicitation result: accepted with `once` or `always`; anything
/// else (declined, cancelled, no answer) is a refusal for this call.
pub(super) fn answer_of(result: &ElicitResult) -> Answer {
    if result.action != ElicitationAction::Accept {
        return Answer::Reject;
    }
    result
        .content
        .as_ref()
        .and_then(|content| content.get("answer"))
        .and_then(|answer| serde_json::from_value(answer.clone()).ok())
        .unwrap_or(Answer::Reject)
}

/// The key of a server given none: made once per process, so an approval completes on the
/// replica that asked and nowhere else.
fn process_codec() -> &'static RequestStateCodec {
    static CODEC: OnceLock<RequestStateCodec> = OnceLock::new();
    CODEC.get_or_init(|| {
        let mut key = [0u8; 32];
        // Without the system's randomness there is no secret to seal with: a key nobody else
        // holds is the next best, and states still cannot be forged by a client that does not
        // know the process's address space.
        if getrandom::fill(&mut key).is_err() {
            let nanos = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos();
            key = Sha256::new()
                .chain_update(nanos.to_le_bytes())
                .chain_update(std::process::id().to_le_bytes())
                .chain_update((&raw const key as usize).to_le_bytes())
                .finalize()
                .into();
        }
        // 32 bytes, the codec's minimum.
        RequestStateCodec::new_unchecked(key.to_vec())
    })
}

/// One answer as the grants file holds it: JSON on one line, appended.
#[derive(Serialize, Deserialize)]
struct Line {
    caller: String,
    subject: String,
    /// The content approved "always"; `null` for a `reject` that forgets it.
    digest: Option<String>,
}

/// The answers read from a grants file: per caller, per subject, the last line's digest.
struct Answers(HashMap<String, BTreeMap<String, Option<String>>>);

impl Answers {
    fn of(&self, caller: Caller) -> Grants {
        let Some(answers) = self.0.get(&caller.hex()) else {
            return Grants::default();
        };
        let map: BTreeMap<&String, &String> = answers
            .iter()
            .filter_map(|(subject, digest)| Some((subject, digest.as_ref()?)))
            .collect();
        serde_json::to_value(map)
            .and_then(serde_json::from_value)
            .unwrap_or_default()
    }
}

/// The file replicas keep their callers' "always" answers in: one JSON line per answer, appended
/// in one write (`O_APPEND`), never followed through a link, read again when its size or time
/// changes.
#[derive(Debug)]
struct GrantsFile {
    path: PathBuf,
    /// The size and time it had when read last.
    seen: Mutex<Option<(u64, SystemTime)>>,
}

impl GrantsFile {
    fn new(path: PathBuf) -> Self {
        GrantsFile {
            path,
            seen: Mutex::new(None),
        }
    }

    /// What the file says now, if it changed since it was last read.
    fn changed(&self) -> Option<Answers> {
        let meta = std::fs::symlink_metadata(&self.path).ok()?;
        let stamp = (meta.len(), meta.modified().ok()?);
        let mut seen = lock(&self.seen);
        if *seen == Some(stamp) || !meta.is_file() {
            return None;
        }
        let text = read_bounded(&self.path)?;
        *seen = Some(stamp);
        let mut answers: HashMap<String, BTreeMap<String, Option<String>>> = HashMap::new();
        for line in text.lines() {
            // A line another replica is still writing, or one not ours, is passed over.
            if let Ok(line) = serde_json::from_str::<Line>(line) {
                answers
                    .entry(line.caller)
                    .or_default()
                    .insert(line.subject, line.digest);
            }
        }
        Some(Answers(answers))
    }

    fn append(&self, line: &Line) {
        let Ok(mut text) = serde_json::to_string(line) else {
            return;
        };
        text.push('\n');
        let Ok(mut file) = open_append(&self.path) else {
            return;
        };
        if file
            .metadata()
            .is_ok_and(|meta| meta.len() < MAX_GRANTS_FILE)
        {
            // One write: appends of a line this short are not interleaved with another's.
            let _ = file.write_all(text.as_bytes());
        }
    }
}

fn read_bounded(path: &Path) -> Option<String> {
    let file = open_read(path).ok()?;
    let mut text = String::new();
    Read::take(file, MAX_GRANTS_FILE)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

#[cfg(unix)]
fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc_o_nofollow()).mode(0o600)
}

#[cfg(not(unix))]
fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// `O_NOFOLLOW`, which std names nowhere: a link put in the file's place is refused.
#[cfg(unix)]
fn libc_o_nofollow() -> i32 {
    i32::try_from(rustix::fs::OFlags::NOFOLLOW.bits()).unwrap_or(0)
}

fn open_append(path: &Path) -> std::io::Result<File> {
    no_follow(OpenOptions::new().append(true).create(true)).open(path)
}

fn open_read(path: &Path) -> std::io::Result<File> {
    no_follow(OpenOptions::new().read(true)).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fields::Fields;
    use crate::model::skill::Skill;

    fn skill(body: &str) -> Skill {
        let fields = Fields {
            name: "deploy".into(),
            description: "Deploy.".into(),
            ..Fields::default()
        };
        Skill::owned(fields, body.into(), Vec::new())
    }

    fn accept(answer: &str) -> InputResponses {
        let mut responses = InputResponses::new();
        responses.insert(
            APPROVAL.into(),
            json!({"action": "accept", "content": {"answer": answer}}),
        );
        responses
    }

    fn state(result: &InputRequiredResult) -> &str {
        result.request_state.as_deref().unwrap()
    }

    #[test]
    fn a_state_opens_for_its_caller_subject_and_content_only() {
        let approvals = Approvals::new(&Options::default());
        let alice = Caller::of_token("alice");
        let subject = Subject::load("deploy");
        let shown = skill("Run make deploy.\n");
        let asked = approvals.input_required(alice, &subject, &shown.content_digest());
        let responses = accept("always");
        let answered = |caller, subject: &Subject, skill: &Skill, state: &str| {
            let content = skill.content_digest();
            approvals.answered(caller, subject, &content, Some(state), Some(&responses))
        };
        assert_eq!(
            answered(alice, &subject, &shown, state(&asked)).unwrap(),
            Some(Answer::Always)
        );
        // Another token, another subject, a forged state: refused with what to do.
        let bob = answered(Caller::of_token("bob"), &subject, &shown, state(&asked));
        assert!(
            bob.unwrap_err()
                .message
                .contains("not issued by this server to this caller")
        );
        let other = answered(alice, &Subject::run("deploy", "x"), &shown, state(&asked));
        assert!(other.unwrap_err().message.contains("not of deploy/x"));
        let mut forged = state(&asked).to_owned();
        forged.push('A');
        assert!(answered(alice, &subject, &shown, &forged).is_err());
        // Changed content: asked again.
        let changed = skill("Run make deploy; rm -rf backups.\n");
        assert_eq!(
            answered(alice, &subject, &changed, state(&asked)).unwrap(),
            None
        );
    }

    #[test]
    fn replicas_sharing_a_key_open_each_others_states() {
        let key = b"0123456789abcdef0123456789abcdef".to_vec();
        let options = Options {
            state_key: Some(RequestStateCodec::try_new(key).unwrap()),
            ..Options::default()
        };
        let (one, two) = (Approvals::new(&options), Approvals::new(&options));
        let subject = Subject::load("deploy");
        let shown = skill("Body.\n");
        let content = shown.content_digest();
        let asked = one.input_required(Caller::ANYONE, &subject, &content);
        let responses = accept("once");
        let on_two = two.answered(
            Caller::ANYONE,
            &subject,
            &content,
            Some(state(&asked)),
            Some(&responses),
        );
        assert_eq!(on_two.unwrap(), Some(Answer::Once));
        // A replica with its own key cannot.
        let alone = Approvals::new(&Options::default());
        assert!(
            alone
                .answered(
                    Caller::ANYONE,
                    &subject,
                    &content,
                    Some(state(&asked)),
                    Some(&responses)
                )
                .is_err()
        );
    }

    #[test]
    fn declined_cancelled_and_odd_answers_refuse() {
        for result in [
            json!({"action": "decline"}),
            json!({"action": "cancel"}),
            json!({"action": "accept"}),
            json!({"action": "accept", "content": {"answer": "sometimes"}}),
        ] {
            let result: ElicitResult = serde_json::from_value(result).unwrap();
            assert_eq!(answer_of(&result), Answer::Reject);
        }
    }

    #[test]
    fn the_grants_file_carries_always_answers_between_replicas() {
        let dir = tempfile::tempdir().unwrap();
        let options = Options {
            grants_file: Some(dir.path().join("grants.jsonl")),
            ..Options::default()
        };
        let (one, two) = (Approvals::new(&options), Approvals::new(&options));
        let alice = Caller::of_token("alice");
        let subject = Subject::load("deploy");
        let shown = skill("Body.\n");
        one.recorded(alice, &subject, &shown.content_digest(), Answer::Always);
        two.refresh(alice);
        let permissions = crate::policy::Permissions::new().ask("deploy");
        let granted = lock(&two.grants(alice)).access(&permissions, &subject, &shown);
        assert_eq!(granted, crate::policy::Access::Allow);
        // Not for another caller; and a reject forgets it everywhere.
        let bob = lock(&two.grants(Caller::of_token("bob"))).access(&permissions, &subject, &shown);
        assert_eq!(bob, crate::policy::Access::Ask);
        one.recorded(alice, &subject, &shown.content_digest(), Answer::Reject);
        two.refresh(alice);
        let after = lock(&two.grants(alice)).access(&permissions, &subject, &shown);
        assert_eq!(after, crate::policy::Access::Ask);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_the_grants_file_place_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "").unwrap();
        let link = dir.path().join("grants.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let approvals = Approvals::new(&Options {
            grants_file: Some(link),
            ..Options::default()
        });
        let content = skill("B.\n").content_digest();
        approvals.recorded(
            Caller::ANYONE,
            &Subject::load("deploy"),
            &content,
            Answer::Always,
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
    }
}
