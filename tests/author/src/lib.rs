//! A skill author's crate: its skills embedded through the facade under the key `agent_kit`.
//!
//! `tests/renamed.rs` uses them; `tests/skills_ui.rs` pins the compile errors of a broken skill
//! with trybuild, as the guide's "Checking skills in CI" (`docs/src/validation.md`) shows.

agent_kit::skills!("skills");

/// The same skills, with the crate's path given by the `crate = path` option, as a crate that
/// re-exports the facade would pass it.
pub mod reexported {
    /// The facade, re-exported under a path of this crate.
    pub mod kit {
        pub use agent_kit as facade;
    }
    agent_kit::skills!(
        "skills",
        crate = crate::reexported::kit::facade,
        enum_name = Reexported,
        static_name = REEXPORTED,
    );
}
