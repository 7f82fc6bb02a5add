//! The `skills` command-line tool; `skills --help` lists its commands.

fn main() -> std::process::ExitCode {
    skills_embed::__cli_main()
}
