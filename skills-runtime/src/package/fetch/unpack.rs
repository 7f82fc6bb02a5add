//! Archives unpacked in memory, as the reader checks them: a zip or a gzipped tar, every name a
//! path the RFC allows, no link, entries and sizes bounded as read ([`unpack`]). The errors
//! finish the reader's sentence "its archive ...".

use std::collections::BTreeMap;
use std::io::Read;

use super::document::MAX_FILES;
use crate::package::index::valid_index_path;

/// An archive's files by path, told apart by their first bytes (a URL need not end in
/// `.zip` or `.tar.gz`): a zip, or a gzipped tar. At most [`MAX_FILES`] entries,
/// `file_cap` bytes each and `total_cap` together (read, not as the archive claims), each name
/// a path the RFC allows, no link; the top-level folder `name/` taken off when every entry is
/// under it. The error says what is wrong, after "its archive ...".
pub(super) fn unpack(
    bytes: &[u8],
    name: &str,
    file_cap: u64,
    total_cap: u64,
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let files = if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        unzip(bytes, file_cap, total_cap)?
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        untar(bytes, file_cap, total_cap)?
    } else {
        return Err("is neither a zip nor a gzipped tar (.tar.gz)".into());
    };
    let prefix = format!("{name}/");
    let nested = !files.is_empty() && files.iter().all(|(p, _)| p.starts_with(&prefix));
    let mut unpacked = BTreeMap::new();
    for (path, content) in files {
        let path = match nested {
            true => path[prefix.len()..].to_owned(),
            false => path,
        };
        if unpacked.insert(path.clone(), content).is_some() {
            return Err(format!("holds {path:?} twice"));
        }
    }
    Ok(unpacked)
}

/// An archive entry's name as a skill path: `./` and a trailing `/` taken off; `None` for the
/// archive's root itself; an error when it is not a path the RFC allows.
fn entry_path(raw: &str) -> Result<Option<String>, String> {
    let trimmed = raw.trim_end_matches('/');
    let trimmed = trimmed.strip_prefix("./").unwrap_or(trimmed);
    if trimmed.is_empty() || trimmed == "." {
        return Ok(None);
    }
    if !valid_index_path(trimmed) {
        return Err(format!(
            "holds {raw:?}, not a relative path inside the skill (no `..`, no absolute path; RFC \"Archive Distribution\")"
        ));
    }
    Ok(Some(trimmed.to_owned()))
}

/// One entry's content, read up to `file_cap` and counted against `total_cap`.
fn read_entry(
    reader: impl Read,
    path: &str,
    file_cap: u64,
    total: &mut u64,
    total_cap: u64,
) -> Result<Vec<u8>, String> {
    let mut content = Vec::new();
    reader
        .take(file_cap.saturating_add(1))
        .read_to_end(&mut content)
        .map_err(|e| format!("cannot be unpacked at {path:?} ({e})"))?;
    if content.len() as u64 > file_cap {
        return Err(format!(
            "holds {path:?} over the cap on one file ({file_cap} bytes)"
        ));
    }
    *total += content.len() as u64;
    if *total > total_cap {
        return Err(format!("unpacks to more than {total_cap} bytes"));
    }
    Ok(content)
}

/// A zip's plain files (see [`unpack`]).
fn unzip(bytes: &[u8], file_cap: u64, total_cap: u64) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("is not a zip archive ({e})"))?;
    if archive.len() > MAX_FILES * 2 {
        return Err(format!(
            "holds {} entries, over the cap of {}",
            archive.len(),
            MAX_FILES * 2
        ));
    }
    let mut files = Vec::new();
    let mut total = 0u64;
    for i in 0..archive.len() {
        let file = archive
            .by_index(i)
            .map_err(|e| format!("has an entry that cannot be read ({e})"))?;
        let raw = file.name().to_owned();
        if file.enclosed_name().is_none() {
            return Err(format!(
                "holds {raw:?}, not a relative path inside the skill (no `..`, no absolute path; RFC \"Archive Distribution\")"
            ));
        }
        let Some(path) = entry_path(&raw)? else {
            continue;
        };
        if file.is_symlink() {
            return Err(format!("holds {path:?} as a link"));
        }
        if file.is_dir() {
            continue;
        }
        let content = read_entry(file, &path, file_cap, &mut total, total_cap)?;
        files.push((path, content));
    }
    Ok(files)
}

/// A gzipped tar's plain files (see [`unpack`]): links, hard links and special files refused.
/// The decompressed stream is bounded as a whole (headers and skipped data count too), so a
/// small archive cannot make the reader inflate gigabytes.
fn untar(bytes: &[u8], file_cap: u64, total_cap: u64) -> Result<Vec<(String, Vec<u8>)>, String> {
    // Each entry's header (and a long name's) is at most a few KiB; 4 KiB an entry covers them.
    let stream_cap = total_cap.saturating_add((MAX_FILES as u64 * 2 + 2) * 4096);
    let inflated = flate2::read::GzDecoder::new(bytes).take(stream_cap);
    let mut archive = tar::Archive::new(inflated);
    let entries = archive
        .entries()
        .map_err(|e| format!("is not a tar archive ({e})"))?;
    let mut files = Vec::new();
    let mut total = 0u64;
    for (i, entry) in entries.enumerate() {
        if i >= MAX_FILES * 2 {
            return Err(format!("holds over {} entries", MAX_FILES * 2));
        }
        let entry = entry.map_err(|e| format!("has an entry that cannot be read ({e})"))?;
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        if kind.is_symlink() || kind.is_hard_link() {
            return Err(format!("holds {raw:?} as a link"));
        }
        let Some(path) = entry_path(&raw)? else {
            continue;
        };
        if kind.is_dir() {
            continue;
        }
        if !kind.is_file() && kind != tar::EntryType::Continuous {
            return Err(format!("holds {path:?}, not a plain file or folder"));
        }
        let content = read_entry(entry, &path, file_cap, &mut total, total_cap)?;
        files.push((path, content));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tar_gz_bomb_stops_at_the_cap() {
        let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::best(),
        ));
        let mut header = tar::Header::new_gnu();
        let zeros = vec![0u8; 4 << 20];
        header.set_size(zeros.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, "SKILL.md", &zeros[..])
            .unwrap();
        let bytes = builder.into_inner().unwrap().finish().unwrap();
        assert!(bytes.len() < 64 << 10, "{}", bytes.len());
        let err = unpack(&bytes, "pdf", 1 << 20, 2 << 20).unwrap_err();
        assert!(err.contains("over the cap on one file"), "{err}");
        assert!(unpack(b"not an archive", "pdf", 10, 10).is_err());
    }
}
