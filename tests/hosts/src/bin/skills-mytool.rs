//! A binary without clap that ships skills: `skills-mytool skill install|status|uninstall`
//! through `SkillCommand::main` (`CARGO_BIN_EXE_skills-mytool` in `tests/hosts/install_cli.rs`).

skills_embed::skills!("../fixtures/basic");

fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == "skill") {
        return skills_embed::SkillCommand::main(&SKILLS, "mytool", "2.0.0", args);
    }
    eprintln!("usage: skills-mytool skill <install|status|uninstall> [OPTIONS]");
    std::process::ExitCode::from(2)
}
