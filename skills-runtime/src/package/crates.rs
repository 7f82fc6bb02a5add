//! Skills shipped in crates: a project's `cargo metadata`, the dependencies it resolves, and the
//! skills each of them ships, read with the validator's rules and named `<crate>-<skill>`.
//!
//! Where a crate keeps its skills follows Symposium's convention for crates
//! (symposium.dev, "Supporting your crate"): the `skills/` folder at the crate's root, or the
//! folders named by `[[package.metadata.symposium.skills]] path = "..."` entries; `skills = []`
//! there means none. Its `crate = {...}` redirects (skills hosted by another crate) are reported,
//! not followed: following one would fetch a crate the project does not depend on.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::{Component, Path, PathBuf};

use cargo_metadata::{Metadata, MetadataCommand, Package, PackageId};

use crate::listing::ListingFormat;
use crate::load;
use crate::model::set::SkillSet;
use crate::parse::{Diagnostic, ScanOptions, name_problems, suggest_name};

/// The folder a crate keeps its skills in when its manifest says nothing.
const DEFAULT_FOLDER: &str = "skills";

/// The skills a project's dependencies ship, found by [`dependency_skills`]: one set per crate,
/// under the names they are installed as, and what was left out.
///
/// See [`dependency_skills`] for an example; this one shows a skill left out.
///
/// ```
/// use skills_embed::package::dependency_skills;
/// use skills_embed::parse::ScanOptions;
/// let dir = tempfile::tempdir()?;
/// # let write = |path: &str, text: &str| -> std::io::Result<()> {
/// #     let path = dir.path().join(path);
/// #     std::fs::create_dir_all(path.parent().unwrap())?;
/// #     std::fs::write(path, text)
/// # };
/// # let package = |name: &str| {
/// #     format!("[package]\nname = \"{name}\"\nversion = \"1.0.0\"\nedition = \"2021\"\n")
/// # };
/// let depends = "[dependencies]\nkit = { path = \"../kit\" }\n[workspace]\n";
/// write("app/Cargo.toml", &(package("app") + depends))?;
/// write("app/src/main.rs", "fn main() {}\n")?;
/// write("kit/Cargo.toml", &package("kit"))?;
/// write("kit/src/lib.rs", "")?;
/// write("kit/skills/forms/SKILL.md", "---\nname: forms\ndescription: Fill forms.\n---\n")?;
/// write("kit/skills/broken/SKILL.md", "---\nname: broken\n---\n")?; // no description
///
/// let manifest = dir.path().join("app/Cargo.toml");
/// let found = dependency_skills(Some(&manifest), true, &ScanOptions::default())?;
/// assert!(found.workspace_root.ends_with("app"));
/// assert_eq!(found.crates[0].2.names().collect::<Vec<_>>(), ["kit-forms"]);
/// assert!(found.problems[0].starts_with("crate kit 1.0.0: "), "{:?}", found.problems);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CrateSkills {
    /// The project's workspace root (`cargo metadata`'s `workspace_root`): where the skills are
    /// installed for its agents.
    pub workspace_root: PathBuf,
    /// Each crate that ships skills, sorted by name: its name, its version, and its valid skills
    /// named `<crate>-<skill>` (the crate's name with `_` as `-`), each SKILL.md's `name` the
    /// same. Install each set with the crate's name and version as the installer
    /// ([`disk::Install::new`](crate::disk::Install::new)), so a status says which crate a skill
    /// came from and one crate's update never takes another's skills for orphans.
    pub crates: Vec<(String, String, SkillSet)>,
    /// What was left out, one line each, starting with the crate and its version: a skill that
    /// fails the rules (the validator's message), a name that the prefix makes invalid, two
    /// crates giving one installed name, an older version of a crate that ships skills too, a
    /// skills path that leaves its crate or does not exist, a redirect to another crate.
    pub problems: Vec<String>,
}

/// Why the dependencies could not be read: `cargo metadata` failed or gave no dependency graph.
///
/// ```
/// use skills_embed::package::{CratesError, dependency_skills};
/// use skills_embed::parse::ScanOptions;
/// let dir = tempfile::tempdir()?;
/// let missing = dir.path().join("Cargo.toml");
/// let err = dependency_skills(Some(&missing), true, &ScanOptions::default()).unwrap_err();
/// assert!(matches!(err, CratesError::Metadata { .. }));
/// assert!(err.to_string().contains("--manifest-path"), "{err}");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CratesError {
    /// `cargo metadata` could not be run, or failed.
    #[error(
        "Could not read the dependencies of {}: `cargo metadata` failed: {message}. Run `cargo metadata --format-version 1{}` there to see why; name the project's Cargo.toml with --manifest-path, or, offline, fetch the dependencies first (`cargo fetch`).",
        manifest.as_ref().map_or_else(|| "the project in the working folder".to_owned(), |m| format!("\"{}\"", m.display())),
        if *offline { " --offline" } else { "" }
    )]
    Metadata {
        /// The manifest given, if any (else the working folder's project).
        manifest: Option<PathBuf>,
        /// Whether `--offline` was passed.
        offline: bool,
        /// What `cargo metadata` (or starting it) said.
        message: String,
    },
}

/// The skills shipped by the dependencies of the project at `manifest_path` (a `Cargo.toml`;
/// `None`: the project around the working folder), read as `options` say (pass the strict
/// profile to check them as `skills validate` does).
///
/// Runs `cargo metadata --format-version 1` (with `--offline` when `offline`, so a project whose
/// dependencies are fetched needs no network), then walks the resolved graph from the manifest's
/// package (or from every workspace member, for a virtual manifest) through every dependency,
/// direct and transitive, of every kind. A workspace member counts as a dependency when another
/// member depends on it; the package the manifest names does not (its skills are the project's
/// own, already in its folders). Each crate's skills folder is found from its `manifest_path`
/// (the module's docs say where); a skill with an error is left out and named in
/// [`CrateSkills::problems`], and so is every name that could clash.
///
/// ```
/// use skills_embed::package::dependency_skills;
/// use skills_embed::parse::{Profile, ScanOptions};
/// let dir = tempfile::tempdir()?;
/// let write = |path: &str, text: &str| -> std::io::Result<()> {
///     let path = dir.path().join(path);
///     std::fs::create_dir_all(path.parent().unwrap())?;
///     std::fs::write(path, text)
/// };
/// write("app/Cargo.toml", "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\npdf_kit = { path = \"../pdf_kit\" }\n\n[workspace]\n")?;
/// write("app/src/main.rs", "fn main() {}\n")?;
/// write("pdf_kit/Cargo.toml", "[package]\nname = \"pdf_kit\"\nversion = \"1.2.0\"\nedition = \"2021\"\n")?;
/// write("pdf_kit/src/lib.rs", "")?;
/// write("pdf_kit/skills/forms/SKILL.md", "---\nname: forms\ndescription: Fill PDF forms with pdf_kit.\n---\nUse `Form::fill`.\n")?;
///
/// let strict = ScanOptions { profile: Profile::Strict, ..ScanOptions::default() };
/// let found = dependency_skills(Some(&dir.path().join("app/Cargo.toml")), true, &strict)?;
/// let (name, version, set) = &found.crates[0];
/// assert_eq!((name.as_str(), version.as_str()), ("pdf_kit", "1.2.0"));
/// assert_eq!(set.names().collect::<Vec<_>>(), ["pdf-kit-forms"]);
/// assert!(found.problems.is_empty(), "{:?}", found.problems);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn dependency_skills(
    manifest_path: Option<&Path>,
    offline: bool,
    options: &ScanOptions,
) -> Result<CrateSkills, CratesError> {
    let failed = |message: String| CratesError::Metadata {
        manifest: manifest_path.map(Path::to_owned),
        offline,
        message,
    };
    let mut command = MetadataCommand::new();
    if let Some(path) = manifest_path {
        command.manifest_path(path);
    }
    if offline {
        command.other_options(vec!["--offline".to_owned()]);
    }
    let metadata = command.exec().map_err(|e| failed(e.to_string()))?;
    let dependencies = dependencies(&metadata)
        .ok_or_else(|| failed("its output has no resolved dependency graph".into()))?;

    let mut found = CrateSkills {
        workspace_root: metadata.workspace_root.clone().into_std_path_buf(),
        crates: Vec::new(),
        problems: Vec::new(),
    };
    // Sorted by name, then newest first: of two versions of a crate, the newest's skills go in.
    let mut packages: Vec<&Package> = dependencies.into_iter().collect();
    packages.sort_by(|a, b| (&*a.name, &b.version).cmp(&(&*b.name, &a.version)));
    // Each installed name and the crate (and its skill) that gave it first.
    let mut taken: BTreeMap<String, (String, String)> = BTreeMap::new();
    for package in packages {
        let label = format!("crate {} {}", package.name, package.version);
        let skills = read_crate(package, options, &label, &mut found.problems);
        if skills.is_empty() {
            continue;
        }
        if let Some((_, newer, _)) = found.crates.iter().find(|(n, _, _)| *n == *package.name) {
            found.problems.push(format!(
                "{label}: left out, since {} {newer} ships skills too and one installer name (the crate's) holds one version's skills; depend on one version of it to install these",
                package.name
            ));
            continue;
        }
        let prefix = package.name.replace('_', "-");
        let mut renamed = Vec::new();
        for skill in skills.skills() {
            let name = format!("{prefix}-{}", skill.name());
            if let Some((_, reason)) = name_problems(&name).into_iter().next() {
                let hint = suggest_name(&name)
                    .map(|s| format!(" (a valid name near it: {s:?}; a shorter skill name in the crate avoids it)"))
                    .unwrap_or_default();
                found.problems.push(format!(
                    "{label}: skill {:?} left out: its installed name {name:?} breaks the name rules: {reason}{hint}",
                    skill.name()
                ));
                continue;
            }
            if let Some((other, other_skill)) = taken.get(&name) {
                found.problems.push(format!(
                    "{label}: skill {:?} left out: its installed name {name:?} is already that of skill {other_skill:?} of {other}; two crates cannot install one name, so the first (by crate name) is kept",
                    skill.name()
                ));
                continue;
            }
            let Some(copy) = skill.renamed(&name) else {
                continue;
            };
            taken.insert(name, (label.clone(), skill.name().to_owned()));
            renamed.push(copy);
        }
        if renamed.is_empty() {
            continue;
        }
        found.crates.push((
            package.name.to_string(),
            package.version.to_string(),
            SkillSet::from_skills(renamed, &ListingFormat::Markdown),
        ));
    }
    Ok(found)
}

/// Every package the graph reaches from the manifest's package (or every workspace member),
/// without the starting packages unless another one depends on them. `None` without a graph.
fn dependencies(metadata: &Metadata) -> Option<Vec<&Package>> {
    let resolve = metadata.resolve.as_ref()?;
    let nodes: BTreeMap<&PackageId, &cargo_metadata::Node> =
        resolve.nodes.iter().map(|n| (&n.id, n)).collect();
    let roots: Vec<&PackageId> = match &resolve.root {
        Some(root) => vec![root],
        None => metadata.workspace_members.iter().collect(),
    };
    let mut seen: HashSet<&PackageId> = roots.iter().copied().collect();
    let mut depended: HashSet<&PackageId> = HashSet::new();
    let mut queue: VecDeque<&PackageId> = roots.iter().copied().collect();
    // Each package is queued once (`seen`), so the walk ends after the graph's size.
    while let Some(id) = queue.pop_front() {
        let Some(node) = nodes.get(id) else {
            continue;
        };
        for dep in &node.deps {
            depended.insert(&dep.pkg);
            if seen.insert(&dep.pkg) {
                queue.push_back(&dep.pkg);
            }
        }
    }
    let roots: HashSet<&PackageId> = roots.into_iter().collect();
    Some(
        metadata
            .packages
            .iter()
            .filter(|p| {
                seen.contains(&p.id) && (!roots.contains(&p.id) || depended.contains(&p.id))
            })
            .collect(),
    )
}

/// The valid skills of one crate, under their own names; what is left out goes to `problems`.
fn read_crate(
    package: &Package,
    options: &ScanOptions,
    label: &str,
    problems: &mut Vec<String>,
) -> SkillSet {
    let Some(root) = package.manifest_path.parent().map(|p| p.as_std_path()) else {
        return SkillSet::empty();
    };
    let mut skills = Vec::new();
    for (folder, declared) in folders(package, label, problems) {
        let Some(path) = inside(root, &folder) else {
            problems.push(format!(
                "{label}: skills path {folder:?} left out: it must be a relative path inside the crate's folder, with no `..`"
            ));
            continue;
        };
        if !path.is_dir() {
            if declared {
                problems.push(format!(
                    "{label}: skills path {folder:?} left out: there is no folder \"{}\"; fix `path` in [[package.metadata.symposium.skills]], or check that the folder is packaged (`cargo package --list`)",
                    path.display()
                ));
            }
            continue;
        }
        let (set, diagnostics) = load::set(&path, options, &ListingFormat::Markdown);
        problems.extend(
            diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d: &Diagnostic| format!("{label}: {d}")),
        );
        skills.extend(set.skills().iter().cloned());
    }
    SkillSet::from_skills(skills, &ListingFormat::Markdown)
}

/// The skills folders the crate's manifest names, each with whether it was declared (a missing
/// default folder is no problem), as Symposium reads `[package.metadata.symposium]`.
fn folders(package: &Package, label: &str, problems: &mut Vec<String>) -> Vec<(String, bool)> {
    let Some(entries) = package
        .metadata
        .get("symposium")
        .and_then(|s| s.get("skills"))
    else {
        return vec![(DEFAULT_FOLDER.to_owned(), false)];
    };
    let Some(entries) = entries.as_array() else {
        problems.push(format!(
            "{label}: `package.metadata.symposium.skills` is not an array of tables; its skills are left out (write `[[package.metadata.symposium.skills]]` with `path = \"...\"`)"
        ));
        return Vec::new();
    };
    let mut folders = Vec::new();
    for entry in entries {
        match (entry.get("path").and_then(|p| p.as_str()), entry.get("crate")) {
            (Some(path), None) => folders.push((path.to_owned(), true)),
            (None, Some(target)) => problems.push(format!(
                "{label}: its skills are hosted by another crate ({target}), a redirect this installer does not follow; depend on that crate, whose own skills folder is then read"
            )),
            _ => problems.push(format!(
                "{label}: an entry of [[package.metadata.symposium.skills]] has neither a `path` string nor a `crate` (it has {entry}); it is left out"
            )),
        }
    }
    folders
}

/// `root/folder` when `folder` is a relative path of plain names that stays inside `root` once
/// links are resolved.
fn inside(root: &Path, folder: &str) -> Option<PathBuf> {
    let relative = Path::new(folder);
    if folder.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return None;
    }
    let path = root.join(relative);
    match (std::fs::canonicalize(&path), std::fs::canonicalize(root)) {
        (Ok(real), Ok(real_root)) if real.starts_with(&real_root) => Some(path),
        (Err(_), _) => Some(path), // missing: reported by the caller as such
        _ => None,
    }
}
