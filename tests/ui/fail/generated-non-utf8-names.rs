// Fixtures made by tests/ui.rs: a resource whose file name is not UTF-8 cannot be served by a
// text path, so it is an error (a warning and a skip under the lenient profile).
skills_embed::skills!("generated/non-utf8-names");

fn main() {}
