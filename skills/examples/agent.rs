//! One scripted agent session over embedded skills: what the model sees, turn by turn.
//!
//! `skills!` embeds the five sample skills of `examples/skills/` into this binary, checked when
//! it compiles. The host then serves them by progressive disclosure with the crate's own
//! runtime, [`skills_embed::tools::Tools`] inside a [`skills_embed::tools::Session`], under two permission rules:
//! `brand-guidelines` (internal to its company) is denied, and `release-notes` (it runs git and
//! writes files) needs the user's approval. A scripted "model" sends the tool calls a real one
//! would, and the example prints what comes back:
//!
//! 1. the system prompt (progressive mode) and the `load_skill` tool as OpenAI strict JSON,
//!    both without the denied skill;
//! 2. **turn 1**: a skill's body, with its load report, its optional chunks and its files;
//! 3. **turn 2**: a chunk by id, and the body asked for again ("already loaded");
//! 4. **turns 3 and 4**: a wrong path answered with the skill's files and "did you mean", then a
//!    long reference cut at a line boundary and continued with `offset`;
//! 5. **turn 5**: one Markdown section, and a binary asset and a script described, not dumped;
//! 6. **turn 6**: the approval flow of an `ask` skill, and a denied skill that answers exactly
//!    like one that does not exist;
//! 7. after each turn, what the host sees (events, the tools that loaded skills allow), and at
//!    the end idle skills unloading and their tools deactivating;
//! 8. with the `fs` feature, skills on disk beside the embedded ones: a [`skills_embed::disk::Overlay`]
//!    over a temporary folder the example writes, one disk skill shadowing an embedded one, and
//!    a reload after the folder changes (an edit, a new skill, a broken one).
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run --example agent --features fs
//! ```
//!
//! Without `--features fs` it runs every scene but the last.

use skills_embed::policy::{Access, Answer, Permissions, Subject};
use skills_embed::tools::Disclosure;
use skills_embed::tools::{Event, Session};
use skills_embed::tools::{Settings, ToolOutput, Tools};

// Generates `pub enum SkillId` and `pub static SKILLS` from the folder next to this file.
// The path is relative to the crate's `Cargo.toml`.
skills_embed::skills!("examples/skills");

/// The user's request that starts the session.
const USER: &str = "Fill in onboarding.pdf with my details from profile.json, draft the release \
                    notes for v2.3.0, and make the cover email follow the Harbor brand guidelines.";

/// The one tool of the default (unified) style.
const TOOL: &str = "load_skill";

/// A reference of pdf-forms longer than the 12,000 characters one answer holds.
const LONG: &str = "references/acroform.md";

fn main() {
    let permissions = host_permissions();

    heading("Setup: the embedded skills and the host's permission rules");
    for id in SkillId::ALL {
        println!(
            "{:<18} {}",
            id.name(),
            access_note(permissions.check(&Subject::load(id.name())))
        );
    }

    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions,
            ..Settings::default()
        },
    );
    // A skill unused for 2 turns is unloaded, and the tools it allowed go with it.
    let mut session = Session::new(tools).unload_after(2);

    heading("The system prompt (progressive disclosure)");
    println!("user: {USER}\n");
    let prompt = session.system_prompt(&Disclosure::Progressive, USER);
    show(&prompt, 20, 0);
    println!(
        "\nbrand-guidelines in the system prompt: {}",
        yes_no(prompt.contains("brand-guidelines"))
    );

    heading("The tool definition, as an OpenAI strict-mode function tool");
    for definition in session.tools().definitions() {
        let openai = definition.to_openai();
        match serde_json::to_string_pretty(&openai) {
            Ok(json) => println!("{json}"),
            Err(e) => println!("cannot serialise the tool: {e}"),
        }
        let names = &openai["function"]["parameters"]["properties"]["skill"]["enum"];
        let denied_listed = names
            .as_array()
            .is_some_and(|names| names.iter().any(|n| n == "brand-guidelines"));
        println!(
            "\nbrand-guidelines in the `skill` enum: {}",
            yes_no(denied_listed)
        );
        println!(
            "Anthropic (`to_anthropic()`) and MCP (`to_mcp()`) get the plain schema, where only \
             {} is required.",
            definition.json_schema()["required"]
        );
    }

    // The host starts each model turn with `next_turn()`, so idle skills are unloaded.
    session.next_turn();
    heading("Turn 1: the model loads the skill that fits the task");
    call(&mut session, r#"{"skill": "pdf-forms"}"#, 14, 16);
    host(&mut session, None);

    session.next_turn();
    heading("Turn 2: an optional chunk, and the same body again");
    call(
        &mut session,
        r#"{"skill": "pdf-forms", "chunk": "troubleshooting"}"#,
        8,
        4,
    );
    call(&mut session, r#"{"skill": "pdf-forms"}"#, 4, 0);
    host(&mut session, None);
    // The chunk's text is also carried in every later system prompt, after the listing, so it
    // survives when the host trims old tool results from the context.
    let prompt = session.system_prompt(&Disclosure::Progressive, USER);
    if let Some(at) = prompt.find("<skill_chunk") {
        println!("\nThe next system prompt ends with the loaded chunk:");
        show(&prompt[at..], 3, 2);
    }

    session.next_turn();
    heading("Turn 3: a wrong path, then a reference longer than one answer");
    call(
        &mut session,
        r#"{"skill": "pdf-forms", "path": "acroform.md"}"#,
        6,
        0,
    );
    let first = call(
        &mut session,
        &format!(r#"{{"skill": "pdf-forms", "path": "{LONG}"}}"#),
        5,
        5,
    );
    host(&mut session, None);

    session.next_turn();
    heading("Turn 4: the model continues where the answer said");
    // The model copies the offset from the hint at the end of the answer; the host reads the
    // same number from the load report.
    let mut next = next_offset(&first);
    if let Some(offset) = next {
        let part = call(
            &mut session,
            &format!(r#"{{"skill": "pdf-forms", "path": "{LONG}", "offset": {offset}}}"#),
            7,
            5,
        );
        next = next_offset(&part);
    }
    if let Some(offset) = next {
        println!(
            "\n(The file goes on from byte {offset}. Rather than read on, the model asks for the \
             one section it needs.)"
        );
    }
    host(&mut session, None);

    session.next_turn();
    heading("Turn 5: one section; a binary asset and a script");
    call(
        &mut session,
        &format!(r#"{{"skill": "pdf-forms", "path": "{LONG}", "section": "Quick diagnosis"}}"#),
        10,
        2,
    );
    call(
        &mut session,
        r#"{"skill": "pdf-forms", "path": "assets/sample-form.pdf"}"#,
        6,
        0,
    );
    call(
        &mut session,
        r#"{"skill": "pdf-forms", "path": "scripts/fill_form.py"}"#,
        6,
        0,
    );
    host(&mut session, None);

    session.next_turn();
    heading("Turn 6: a skill that needs approval, and a denied one");
    let asked = call(&mut session, r#"{"skill": "release-notes"}"#, 4, 0);
    let denied = call(&mut session, r#"{"skill": "brand-guidelines"}"#, 4, 0);
    println!("\nFor comparison, a name that exists nowhere:");
    let unknown = call(&mut session, r#"{"skill": "brand-kit"}"#, 4, 0);
    let same = denied.text.replace("brand-guidelines", "NAME")
        == unknown.text.replace("brand-kit", "NAME");
    println!(
        "\nThe denied skill's answer is the unknown one's, name aside: {}",
        yes_no(same && denied.is_error && unknown.is_error)
    );
    host(&mut session, None);

    if let Some(skill) = asked.approval {
        println!("\nhost → user: allow loading \"{skill}\"? The user answers: once.");
        // `Once` performs the waiting load; `Always` would also skip the question for the rest
        // of the session, and `Reject` answers with an error. The model already has the "needs
        // approval" answer for its call, so the host sends this as a new message.
        match session.answer(&skill, Answer::Once) {
            Some(out) => {
                println!("host → model (the load that waited):");
                print_output(&out, 6, 10);
            }
            None => println!("(nothing was waiting for {skill})"),
        }
        host(&mut session, Some("after the user's answer"));
    }

    heading("After the task: idle skills unload (unload_after(2))");
    for _ in 0..3 {
        session.next_turn();
        host(&mut session, Some("no skill calls"));
    }
    let prompt = session.system_prompt(&Disclosure::Progressive, USER);
    println!(
        "\nThe system prompt still carries a chunk: {}",
        yes_no(prompt.contains("<skill_chunk"))
    );

    #[cfg(feature = "fs")]
    on_disk::scene();
    #[cfg(not(feature = "fs"))]
    println!(
        "\n(One more scene, skills on disk beside the embedded ones, needs the `fs` feature: \
         cargo run --example agent --features fs)"
    );
}

/// The host's rules, by name pattern, so they hold for skills found on disk as well.
fn host_permissions() -> Permissions {
    Permissions::new().deny("brand-*").ask("release-notes")
}

/// Sends one `load_skill` call through the session, as the model wrote it, and prints the
/// answer: the first `head` and the last `tail` lines.
fn call(session: &mut Session, arguments: &str, head: usize, tail: usize) -> ToolOutput {
    println!("\nmodel → {TOOL} {arguments}");
    let out = session.handle(TOOL, arguments);
    print_output(&out, head, tail);
    out
}

fn print_output(out: &ToolOutput, head: usize, tail: usize) {
    let status = if out.is_error { "error" } else { "ok" };
    let mut facts = vec![
        status.to_owned(),
        format!("{} chars", out.text.chars().count()),
    ];
    if let Some(next) = next_offset(out) {
        facts.push(format!("cut, continues at byte {next}"));
    }
    if let Some(skill) = &out.approval {
        facts.push(format!("waits for approval of {skill}"));
    }
    println!("tool result ({}):", facts.join(", "));
    show(&out.text, head, tail);
}

/// What the host learns after a turn: the session's events, what is loaded, and the tools the
/// loaded skills allow (from their `allowed-tools`).
fn host(session: &mut Session, note: Option<&str>) {
    let events: Vec<String> = session.drain_events().iter().map(describe).collect();
    let loaded: Vec<&str> = session.active_skills().collect();
    match note {
        Some(note) => println!("\n  host, {note}:"),
        None => println!("\n  host, after the turn:"),
    }
    println!("    events:        {}", list_or_none(&events));
    println!("    loaded skills: {}", list_or_none(&loaded));
    println!(
        "    active tools:  {}",
        list_or_none(&session.active_tools())
    );
}

fn describe(event: &Event) -> String {
    match event {
        Event::Loaded { skill } => format!("Loaded({skill})"),
        Event::ChunkLoaded { skill, chunk } => format!("ChunkLoaded({skill}#{chunk})"),
        Event::Idle { skill } => format!("Unloaded({skill}, idle)"),
        Event::Unloaded { skill } => format!("Unloaded({skill}, host)"),
        Event::ToolActivated(tool) => format!("ToolActivated({tool})"),
        Event::ToolDeactivated(tool) => format!("ToolDeactivated({tool})"),
        Event::ApprovalRequested(skill) => format!("ApprovalRequested({skill})"),
        other => format!("{other:?}"),
    }
}

fn next_offset(out: &ToolOutput) -> Option<usize> {
    out.report.as_ref().and_then(|r| r.next_offset)
}

fn access_note(access: Access) -> &'static str {
    match access {
        Access::Allow => "allow: listed, loaded on request",
        Access::Ask => "ask: listed, loaded once the user approves",
        Access::Deny => "deny: hidden from the prompt and the schema, refused by name",
    }
}

/// Prints the first `head` and the last `tail` lines of `text`, and how many were left out.
fn show(text: &str, head: usize, tail: usize) {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= head + tail + 1 {
        for line in &lines {
            println!("│ {line}");
        }
        return;
    }
    for line in &lines[..head] {
        println!("│ {line}");
    }
    println!("│ … ({} more lines)", lines.len() - head - tail);
    for line in &lines[lines.len() - tail..] {
        println!("│ {line}");
    }
}

fn list_or_none<T: AsRef<str>>(items: &[T]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn heading(title: &str) {
    println!("\n== {title} ==");
}

/// The last scene: skills read from disk at run time, merged with the embedded ones.
#[cfg(feature = "fs")]
mod on_disk {
    use std::fs;
    use std::io;
    use std::path::{MAIN_SEPARATOR, Path, PathBuf};

    use skills_embed::disk::{Discovery, Overlay, SourceKind};
    use skills_embed::tools::Tools;

    use super::{SKILLS, SkillId, TOOL, heading, host_permissions, list_or_none, print_output};

    /// A skill the binary does not have.
    const MEETING_NOTES: &str = "---
name: meeting-notes
description: Turns a meeting transcript or rough notes into minutes with decisions, owners and due dates. Use when the user shares a transcript or asks for minutes.
---

# Meeting notes

1. The decisions first, one line each.
2. Then the action items: owner, task, due date.
";

    /// The same skill after the team's edit.
    const MEETING_NOTES_EDITED: &str = "---
name: meeting-notes
description: Turns a meeting transcript or rough notes into minutes with decisions, owners and due dates. Use when the user shares a transcript or asks for minutes.
---

# Meeting notes

1. The decisions first, one line each.
2. Then the action items: owner, task, due date.
3. Last, the open questions, each with who will answer it.
";

    /// The team's own version of an embedded skill.
    const TEAM_REVIEW: &str = "---
name: code-review
description: Reviews a change the Harbor way, with every comment tagged blocking, suggestion or nit. Use when the user asks for a code review.
---

# Code review at Harbor

Run `make check` first: a red build is the first comment.
";

    /// The team's version with a typo in its front matter.
    const TEAM_REVIEW_BROKEN: &str = "---
name: code-review
description: [unclosed
---

# Code review at Harbor

Run `make check` first: a red build is the first comment.
";

    /// A skill added while the agent runs.
    const INCIDENT_REPORT: &str = "---
name: incident-report
description: Writes a blameless incident report (timeline, impact, root cause, follow-ups). Use after an outage.
---

# Incident report
";

    pub fn scene() {
        heading("Skills on disk beside the embedded ones");
        if let Err(e) = run() {
            println!("cannot write the example's skills, scene skipped: {e}");
        }
    }

    /// The example's temporary folder, removed however the scene ends.
    struct TempFolder(PathBuf);

    impl Drop for TempFolder {
        fn drop(&mut self) {
            if let Err(e) = fs::remove_dir_all(&self.0) {
                eprintln!("cannot remove {}: {e}", self.0.display());
            }
        }
    }

    fn run() -> io::Result<()> {
        let path =
            std::env::temp_dir().join(format!("skills-agent-example-{}", std::process::id()));
        // Only a run killed before its clean-up, with the same process id, leaves one behind.
        if path.exists() {
            fs::remove_dir_all(&path)?;
        }
        fs::create_dir_all(&path)?;
        let folder = TempFolder(path);
        // Discovery reports canonical paths (on macOS `/tmp` is `/private/tmp`), so that is the
        // prefix to strip from them.
        let base = fs::canonicalize(&folder.0)?;
        let root = base.join("skills");
        write_skill(&root, "meeting-notes", MEETING_NOTES)?;
        write_skill(&root, "code-review", TEAM_REVIEW)?;
        println!(
            "A temporary folder (paths below are relative to it) with a skills/ folder the host \
             names in code: a new skill, meeting-notes, and the team's own code-review."
        );

        // No project, user or SKILLS_PATH roots: what this machine has installed stays out.
        let discovery = Discovery {
            project: false,
            user: false,
            env_var: None,
            home: None,
            code_roots: vec![root.clone()],
            ..Discovery::default()
        };
        let overlay = Overlay::new(&SKILLS, discovery);
        let set = overlay.snapshot();

        println!(
            "\nThe merged listing (snapshot().summary()), {} skills:",
            set.len()
        );
        for line in set.summary().lines() {
            println!("│ {}", clip(line, 96));
        }

        println!("\nWhere each comes from (sources()):");
        let sources = overlay.sources();
        for (name, (kind, manifest)) in &sources {
            println!("  {name:<18} {kind:<9} {}", relative(manifest, &base));
        }
        println!("\ndiagnostics():");
        for diagnostic in overlay.diagnostics() {
            println!("  {}", relative_text(&diagnostic.to_string(), &base));
        }
        if sources.get("code-review").map(|s| s.0) == Some(SourceKind::Code) {
            println!(
                "The disk code-review wins: in the default precedence (Discovery::precedence) a \
                 code root beats the embedded copy, which stays in the binary, unlisted."
            );
        }

        println!("\nThe SkillId enum still works (snapshot().get(id.name())):");
        for id in [SkillId::PdfForms, SkillId::CodeReview] {
            match set.get(id.name()).ok() {
                Some(skill) => println!(
                    "  {:<14} source={:<8} {}",
                    id.name(),
                    if skill.is_embedded() {
                        "embedded"
                    } else {
                        "disk"
                    },
                    clip(skill.description(), 60)
                ),
                None => println!("  {:<14} not in the merged set", id.name()),
            }
        }

        // The tools borrow the snapshot, so a reload cannot change a set under a running call.
        let tools = Tools::new(
            std::sync::Arc::clone(&set),
            skills_embed::tools::Settings {
                permissions: host_permissions(),
                ..skills_embed::tools::Settings::default()
            },
        );
        for definition in tools.definitions() {
            println!(
                "\nThe `skill` enum of {TOOL} over the snapshot (same permissions as above):\n  {}",
                definition.json_schema()["properties"]["skill"]["enum"]
            );
        }
        let arguments = r#"{"skill": "meeting-notes"}"#;
        println!("\nmodel → {TOOL} {arguments}");
        print_output(&tools.handle(TOOL, arguments), 8, 0);

        println!(
            "\nMeanwhile the team edits meeting-notes, adds incident-report, and breaks the YAML \
             of code-review (`description: [unclosed`). The host calls reload():"
        );
        // The edit adds a line on purpose: reload() spots changes by size and modification time
        // without reading, so a same-size edit within the clock's resolution would go unseen.
        write_skill(&root, "meeting-notes", MEETING_NOTES_EDITED)?;
        write_skill(&root, "incident-report", INCIDENT_REPORT)?;
        write_skill(&root, "code-review", TEAM_REVIEW_BROKEN)?;
        let report = overlay.reload();
        println!("  added:     {}", list_or_none(&report.added));
        println!("  removed:   {}", list_or_none(&report.removed));
        println!("  changed:   {}", list_or_none(&report.changed));
        for (name, why) in &report.kept {
            println!("  kept:      {name}, because {}", relative_text(why, &base));
        }
        let rescanned: Vec<String> = report
            .rescanned
            .iter()
            .map(|path| relative(path, &base))
            .collect();
        println!("  rescanned: {}", list_or_none(&rescanned));

        let next = overlay.snapshot();
        println!(
            "\nThe snapshot the tools above hold still has {} skills; a new one has {}, and the \
             broken code-review in it is its last good version until the file is fixed:",
            set.len(),
            next.len()
        );
        let tools = Tools::new(
            std::sync::Arc::clone(&next),
            skills_embed::tools::Settings {
                permissions: host_permissions(),
                ..skills_embed::tools::Settings::default()
            },
        );
        let arguments = r#"{"skill": "code-review"}"#;
        println!("\nmodel → {TOOL} {arguments}");
        print_output(&tools.handle(TOOL, arguments), 6, 0);
        Ok(())
    }

    fn write_skill(root: &Path, name: &str, text: &str) -> io::Result<()> {
        let dir = root.join(name);
        fs::create_dir_all(&dir)?;
        fs::write(dir.join("SKILL.md"), text)
    }

    /// A path relative to the example's folder, so the output is the same on every machine.
    fn relative(path: &Path, base: &Path) -> String {
        path.strip_prefix(base)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// The same, for the paths inside a message.
    fn relative_text(text: &str, base: &Path) -> String {
        text.replace(&format!("{}{MAIN_SEPARATOR}", base.display()), "")
    }

    /// The first `max` characters of `text`, and `…` when there were more.
    fn clip(text: &str, max: usize) -> String {
        match text.char_indices().nth(max) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text.to_owned(),
        }
    }
}
