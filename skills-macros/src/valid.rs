//! Checks that belong to the macro alone: every skill name must give a distinct enum variant.

use std::collections::BTreeMap;

use heck::ToUpperCamelCase;

/// The enum variant for a skill name.
///
/// ASCII names use heck's UpperCamelCase (`pdf-tools` → `PdfTools`). Non-ASCII characters, which
/// would make identifiers that lints flag and that some editors cannot type, become `U` and
/// their code point in hex (`技能` → `U6280U80fd`). A leading digit gets a `Skill` prefix
/// (`3d-print` → `Skill3dPrint`) and `self` becomes `SelfSkill`, since `Self` is a keyword.
pub(crate) fn variant_name(skill: &str) -> String {
    let camel = if skill.is_ascii() {
        skill.to_upper_camel_case()
    } else {
        let mut out = String::new();
        for word in skill.split('-').filter(|w| !w.is_empty()) {
            let mut first = true;
            for c in word.chars() {
                if c.is_ascii_alphanumeric() {
                    out.push(if first { c.to_ascii_uppercase() } else { c });
                } else if c.is_alphanumeric() {
                    out.push_str(&format!("U{:04x}", u32::from(c)));
                }
                first = false;
            }
        }
        out
    };
    let camel: String = camel.chars().filter(char::is_ascii_alphanumeric).collect();
    match camel.as_str() {
        "" => "Skill".to_owned(),
        "Self" => "SelfSkill".to_owned(),
        c if c.starts_with(|c: char| c.is_ascii_digit()) => format!("Skill{c}"),
        _ => camel,
    }
}

/// Two skill names that give one variant: the first keeps it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Collision {
    pub(crate) kept: String,
    pub(crate) dropped: String,
    pub(crate) variant: String,
}

/// Assigns variants to names (sorted), reporting pairs of names that would share one.
///
/// Returns the variant of each name (`None` for a name that lost a collision) and the collisions.
pub(crate) fn assign_variants<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> (Vec<Option<String>>, Vec<Collision>) {
    let mut taken: BTreeMap<String, &'a str> = BTreeMap::new();
    let mut variants = Vec::new();
    let mut collisions = Vec::new();
    for name in names {
        let variant = variant_name(name);
        match taken.get(&variant) {
            // Two skills with one name are a `duplicate-name` error already.
            Some(first) if *first == name => variants.push(None),
            Some(first) => {
                collisions.push(Collision {
                    kept: (*first).to_owned(),
                    dropped: name.to_owned(),
                    variant,
                });
                variants.push(None);
            }
            None => {
                taken.insert(variant.clone(), name);
                variants.push(Some(variant));
            }
        }
    }
    (variants, collisions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        for (name, variant) in [
            ("pdf", "Pdf"),
            ("pdf-tools", "PdfTools"),
            ("code-review-2", "CodeReview2"),
            ("3d-print", "Skill3dPrint"),
            ("self", "SelfSkill"),
            ("技能", "U6280U80fd"),
            ("мой-навык", "U043cU043eU0439U043dU0430U0432U044bU043a"),
            ("café", "CafU00e9"),
        ] {
            assert_eq!(variant_name(name), variant, "{name}");
        }
    }

    #[test]
    fn collisions_are_reported_with_both_names() {
        let (variants, collisions) = assign_variants(["a-1", "a1", "b", "b"]);
        assert_eq!(
            variants,
            [Some("A1".to_owned()), None, Some("B".to_owned()), None]
        );
        let expected = Collision {
            kept: "a-1".to_owned(),
            dropped: "a1".to_owned(),
            variant: "A1".to_owned(),
        };
        assert_eq!(collisions, [expected]);
    }
}
