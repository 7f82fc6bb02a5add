//! The one bridge from the validator's results to the model: a folder's valid skills read into
//! [`Skill`]s and a [`SkillSet`] ([`set`]). The macro embeds instead; the command-line tool and
//! the disk loader come through here.

use std::fs;
use std::io;
use std::path::Path;

use crate::listing::ListingFormat;
use crate::model::chunk::Chunk;
use crate::model::file::File;
use crate::model::set::SkillSet;
use crate::model::skill::Skill;
use crate::parse::scan::scan;
use crate::parse::tree::Resource;
use crate::parse::{Diagnostic, Rule, ScanOptions, SkillSource, Tree};

/// Builds the runtime [`Skill`], reading each resource with `read`.
pub(crate) fn skill_with(
    source: &mut SkillSource,
    mut read: impl FnMut(&Resource) -> io::Result<Vec<u8>>,
) -> io::Result<Skill> {
    // The validator's fields are the skill's: only a missing name falls back to the folder's.
    let mut fields = source
        .manifest
        .as_ref()
        .map(|manifest| manifest.fields.clone())
        .unwrap_or_default();
    fields.name = source.name();
    let files = source
        .resources
        .iter_mut()
        .map(|r| {
            // The bytes the scan kept, read through the same checked handle; else read now.
            let bytes = match r.bytes.take() {
                Some(bytes) => bytes,
                None => read(r)?,
            };
            Ok(File::owned(r.path.clone(), bytes, r.executable))
        })
        .collect::<io::Result<Vec<_>>>()?;
    // The validator found the chunks already: they are not parsed a second time.
    let chunks = source
        .chunks
        .iter()
        .cloned()
        .filter_map(Chunk::from_span)
        .collect();
    Ok(Skill::with_chunks(
        fields,
        source.body().to_owned(),
        files,
        chunks,
    ))
}

/// Reads the skills under `root` (a folder holding skills, a skill folder or a SKILL.md) as
/// `skills!` would embed them under `options`, into a [`SkillSet`] listed in `format`, with
/// every problem found: those [`parse::validate`](crate::parse::validate()) reports, then a
/// `read-error` for a skill whose files cannot be read. A skill with an error is left out; the
/// others load.
///
/// ```
/// use skills_embed::listing::ListingFormat;
/// use skills_embed::parse::ScanOptions;
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir(dir.path().join("pdf"))?;
/// std::fs::write(dir.path().join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Read PDFs.\n---\nUse pdftotext.\n")?;
/// let (set, problems) =
///     skills_embed::load::set(dir.path(), &ScanOptions::default(), &ListingFormat::Markdown);
/// assert!(problems.is_empty());
/// assert_eq!(set.summary(), "- pdf: Read PDFs.\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn set(
    root: &Path,
    options: &ScanOptions,
    format: &ListingFormat,
) -> (SkillSet, Vec<Diagnostic>) {
    let mut tree = scan(root, options);
    let (set, read) = set_of(&mut tree, format);
    let mut diagnostics = tree.diagnostics;
    diagnostics.extend(read);
    (set, diagnostics)
}

/// A scanned tree's valid skills as a [`SkillSet`], with the `read-error`s of those whose files
/// cannot be read (the tree's own diagnostics are not repeated).
#[doc(hidden)]
pub fn set_of(tree: &mut Tree, format: &ListingFormat) -> (SkillSet, Vec<Diagnostic>) {
    let (loaded, diagnostics) = skills(tree, None);
    let skills = loaded.into_iter().map(|(skill, _)| skill).collect();
    (SkillSet::from_skills(skills, format), diagnostics)
}

/// Reads the valid skills, each with the index of its source in `Tree::skills`.
///
/// Every file is read through a handle checked to lie inside its skill's folder (no symbolic
/// link out of it, no swap between check and read) and, with `cap`, to be at most that many bytes.
/// A skill with a file that cannot be read is left out, with a `read-error` diagnostic.
#[doc(hidden)]
pub fn skills(tree: &mut Tree, cap: Option<u64>) -> (Vec<(Skill, usize)>, Vec<Diagnostic>) {
    let mut skills = Vec::new();
    let mut diagnostics = Vec::new();
    let Ok(root) = fs::canonicalize(&tree.root) else {
        return (skills, diagnostics);
    };
    // A SKILL.md given as the root: its folder is the root.
    let root = if root.is_file() {
        root.parent().map(Path::to_owned).unwrap_or(root)
    } else {
        root
    };
    for (i, source) in tree.skills.iter_mut().enumerate().filter(|(_, s)| s.valid) {
        // The scan kept every file's bytes, read through this folder's checked handle: nothing
        // is read again, so the folder is neither resolved nor opened a second time.
        let loaded = if source.resources.iter().all(|r| r.bytes.is_some()) {
            skill_with(source, |r| {
                Err(io::Error::other(format!("{}: not kept", r.path)))
            })
        } else {
            // Each skill reads inside its own folder, as the walk allows its links: a file
            // swapped for a link to another skill's since the scan is refused, not served.
            let home = match crate::parse::read::Home::inside(&source.dir, Some(&root)) {
                Ok(home) => home,
                Err(why) => {
                    let message = format!("cannot read the skill's files: {why}");
                    diagnostics.push(Diagnostic::path_error(
                        Rule::ReadError,
                        &source.dir,
                        message,
                    ));
                    continue;
                }
            };
            let read = |r: &Resource| {
                home.read(&r.file, cap)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", r.path)))
            };
            skill_with(source, read)
        };
        match loaded {
            Ok(skill) => skills.push((skill, i)),
            Err(e) => diagnostics.push(Diagnostic::path_error(
                Rule::ReadError,
                &source.dir,
                format!("cannot read the skill's files: {e}"),
            )),
        }
    }
    (skills, diagnostics)
}
