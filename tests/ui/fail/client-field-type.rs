// With the Claude Code dialect opted in, its fields are known fields whose types are checked:
// `disable-model-invocation` must be a boolean, and a string is an error at its line.
skills_embed::skills!("fixtures/fail/client-field-type", dialects = [claude_code]);

fn main() {}
