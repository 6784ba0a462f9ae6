//! Reads one file out of a wheel (a zip archive): just enough of the zip format to find an
//! entry in the central directory and inflate it. Lengths from the archive are bounded before
//! they drive any allocation.

const END_OF_CENTRAL_DIRECTORY: u32 = 0x0605_4b50;
const CENTRAL_ENTRY: u32 = 0x0201_4b50;
const LOCAL_HEADER: u32 = 0x0403_4b50;
/// The library is about 6 MB; nothing in the wheel we want is larger than this.
const MAX_ENTRY_BYTES: usize = 64 * 1024 * 1024;

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    bytes
        .get(at..at + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

struct Entry {
    method: u16,
    compressed: usize,
    uncompressed: usize,
    local_offset: usize,
}

/// Extracts `name` from the zip archive `archive`.
pub fn extract(archive: &[u8], name: &str) -> Result<Vec<u8>, String> {
    let entry = find_entry(archive, name)?;
    if entry.uncompressed > MAX_ENTRY_BYTES || entry.compressed > MAX_ENTRY_BYTES {
        return Err(format!(
            "{name} claims {} bytes, more than any engine library",
            entry.uncompressed
        ));
    }
    let at = entry.local_offset;
    if u32_at(archive, at) != Some(LOCAL_HEADER) {
        return Err(format!("no local header for {name}"));
    }
    let name_len = usize::from(u16_at(archive, at + 26).ok_or("truncated local header")?);
    let extra_len = usize::from(u16_at(archive, at + 28).ok_or("truncated local header")?);
    let start = at + 30 + name_len + extra_len;
    let data = archive
        .get(start..start + entry.compressed)
        .ok_or("entry data runs past the end of the archive")?;
    let bytes = match entry.method {
        0 => data.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, MAX_ENTRY_BYTES)
            .map_err(|e| format!("cannot inflate {name}: {e:?}"))?,
        other => {
            return Err(format!(
                "{name} uses zip compression method {other}, which phux does not read"
            ))
        }
    };
    if bytes.len() != entry.uncompressed {
        return Err(format!(
            "{name} inflated to {} bytes, the archive says {}",
            bytes.len(),
            entry.uncompressed
        ));
    }
    Ok(bytes)
}

fn find_entry(archive: &[u8], name: &str) -> Result<Entry, String> {
    let end = find_end_record(archive).ok_or("no end-of-central-directory record")?;
    let count = usize::from(u16_at(archive, end + 10).ok_or("truncated end record")?);
    let mut at = u32_at(archive, end + 16).ok_or("truncated end record")? as usize;
    for _ in 0..count {
        if u32_at(archive, at) != Some(CENTRAL_ENTRY) {
            return Err("corrupt central directory".into());
        }
        let field = |offset: usize| {
            u32_at(archive, at + offset)
                .map(|v| v as usize)
                .ok_or("truncated entry")
        };
        let name_len = usize::from(u16_at(archive, at + 28).ok_or("truncated entry")?);
        let extra_len = usize::from(u16_at(archive, at + 30).ok_or("truncated entry")?);
        let comment_len = usize::from(u16_at(archive, at + 32).ok_or("truncated entry")?);
        let entry_name = archive
            .get(at + 46..at + 46 + name_len)
            .ok_or("truncated entry name")?;
        if entry_name == name.as_bytes() {
            return Ok(Entry {
                method: u16_at(archive, at + 10).ok_or("truncated entry")?,
                compressed: field(20)?,
                uncompressed: field(24)?,
                local_offset: field(42)?,
            });
        }
        at += 46 + name_len + extra_len + comment_len;
    }
    Err(format!("the archive has no {name}"))
}

fn find_end_record(archive: &[u8]) -> Option<usize> {
    let earliest = archive.len().saturating_sub(22 + 65_535);
    (earliest..=archive.len().checked_sub(22)?)
        .rev()
        .find(|&at| u32_at(archive, at) == Some(END_OF_CENTRAL_DIRECTORY))
}
