mod unknown {
    skills::skills!("fixtures/basic", flavour = sweet);
}
mod wrong_value {
    skills::skills!("fixtures/basic", profile = relaxed, summary = html);
}
mod wrong_kind {
    skills::skills!("fixtures/basic", include = "*.md", dotfiles = yes);
}
mod twice {
    skills::skills!("fixtures/basic", profile = strict, profile = lenient);
}
mod not_a_string {
    skills::skills!(fixtures);
}

fn main() {}
mod limits {
    skills::skills!("fixtures/basic", body_limit = trim, max_body_lines = 0, max_body_chars = "many", max_resource_bytes = lots);
}
