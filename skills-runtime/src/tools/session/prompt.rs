//! The system prompt a [`Session`] writes for a disclosure mode: the eager bodies, the listing,
//! and the chunks it carries.

use std::fmt::Write;

use super::{Content, Event, Session, touch};
use crate::listing::ListingOptions;
use crate::model::skill::Skill;
use crate::policy::Access;
use crate::tools::{Disclosure, MatchConfig, match_skills};

/// The text of [`Session::system_prompt`].
pub(super) fn system_prompt(
    session: &mut Session,
    disclosure: &Disclosure,
    user_input: &str,
) -> String {
    let eager: Vec<String> = match disclosure {
        Disclosure::Progressive => Vec::new(),
        &Disclosure::Eager {
            max_skills,
            min_score,
        } => {
            let visible = session.tools.visible().map(|s| (s.name(), s.description()));
            let config = MatchConfig {
                max_skills,
                min_score,
            };
            match_skills(user_input, visible, &config)
                .into_iter()
                .map(|m| m.name)
                .collect()
        }
        Disclosure::Hybrid { eager } => eager.clone(),
    };
    let mut out = String::new();
    for name in &eager {
        let Ok(skill) = session.tools.lookup(name) else {
            continue;
        };
        if session.tools.access(skill) != Access::Allow {
            continue;
        }
        let body: String = skill.core_body().collect();
        let _ = write!(out, "<skill name=\"{}\">\n{body}", attribute(name));
        if !body.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("</skill>\n\n");
        let before = session.active_tools_owned();
        let entry = touch(
            &mut session.state.active,
            &mut session.state.seq,
            session.state.turn,
            name,
        );
        if !entry.body_loaded {
            entry.body_loaded = true;
            entry.content = Content::System;
            session.state.events.push(Event::Loaded {
                skill: name.clone(),
            });
        }
        session.push_tool_changes(&before);
    }
    if !matches!(disclosure, Disclosure::Eager { .. }) {
        let rest: Vec<&Skill> = session
            .tools
            .visible()
            .filter(|s| !eager.iter().any(|e| e == s.name()))
            .collect();
        if !rest.is_empty() {
            let entries: Vec<_> = rest.iter().map(|s| s.listing_entry()).collect();
            let listing = crate::listing::render(&entries, &ListingOptions::default());
            let _ = write!(
                out,
                "Skills are instructions for specific tasks. Before a task one of these covers, load \
                 it with the {} tool and follow it:\n{listing}",
                session.tools.settings().name
            );
        }
    }
    let chunks = carried_chunks(session);
    if !chunks.is_empty() {
        out.push('\n');
        out.push_str(&chunks);
    }
    out
}

/// The loaded chunks' text, to carry into the next system prompt (empty when none).
fn carried_chunks(session: &Session) -> String {
    let mut out = String::new();
    for (name, active) in &session.state.active {
        let Ok(skill) = session.tools.set().get(name) else {
            continue;
        };
        for id in &active.chunks {
            if let Ok(text) = skill.chunk(id) {
                let _ = write!(
                    out,
                    "<skill_chunk skill=\"{}\" id=\"{}\">\n{text}",
                    attribute(name),
                    attribute(id)
                );
                if !text.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("</skill_chunk>\n");
            }
        }
    }
    out
}

/// A name as an XML attribute value: written as listings write names, then XML-escaped.
pub(super) fn attribute(name: &str) -> String {
    let mut out = String::new();
    crate::listing::push_escaped(&mut out, &crate::text::quote_name(name));
    out
}
