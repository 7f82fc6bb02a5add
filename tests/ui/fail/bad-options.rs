mod unknown {
    skills_embed::skills!("fixtures/basic", flavour = sweet);
}
mod wrong_value {
    skills_embed::skills!("fixtures/basic", profile = relaxed, summary = html);
}
mod wrong_kind {
    skills_embed::skills!("fixtures/basic", include = "*.md", dotfiles = yes);
}
mod twice {
    skills_embed::skills!("fixtures/basic", profile = strict, profile = lenient);
}
mod not_a_string {
    skills_embed::skills!(fixtures);
}

fn main() {}
mod limits {
    skills_embed::skills!("fixtures/basic", body_limit = trim, max_body_lines = 0, max_body_chars = "many", max_resource_bytes = lots);
}
mod dialects {
    skills_embed::skills!("fixtures/basic", dialects = [claude, codex]);
}
mod dialects_kind {
    skills_embed::skills!("fixtures/basic", dialects = claude_code);
}
