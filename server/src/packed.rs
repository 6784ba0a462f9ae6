//! `PackedBytes`: output a pane is done writing, deflated, for the windows that keep it after
//! the pane goes quiet (the flight recorder's ring, the output log). Terminal output deflates
//! about tenfold, and a quiet pane is read rarely, so it pays to hold it small (issue 41).

use std::borrow::Cow;
use std::sync::Arc;

/// Fast level: packing runs on the pane's thread when it goes quiet.
const LEVEL: u8 = 1;

#[derive(Debug, Clone)]
pub struct PackedBytes {
    deflated: Box<[u8]>,
    len: usize,
}

impl PackedBytes {
    pub fn pack(bytes: &[u8]) -> Self {
        Self {
            deflated: miniz_oxide::deflate::compress_to_vec(bytes, LEVEL).into_boxed_slice(),
            len: bytes.len(),
        }
    }

    /// The bytes packed (empty only if the deflated copy were damaged, which nothing does).
    pub fn unpack(&self) -> Vec<u8> {
        miniz_oxide::inflate::decompress_to_vec_with_limit(&self.deflated, self.len)
            .unwrap_or_default()
    }

    /// Length unpacked.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Heap bytes held.
    pub fn held(&self) -> usize {
        self.deflated.len()
    }
}

/// Output kept either as the reader's chunk (shared) or packed once the pane went quiet.
#[derive(Debug, Clone)]
pub enum KeptBytes {
    Read(Arc<[u8]>),
    Packed(PackedBytes),
}

impl KeptBytes {
    pub fn len(&self) -> usize {
        match self {
            KeptBytes::Read(bytes) => bytes.len(),
            KeptBytes::Packed(packed) => packed.len(),
        }
    }

    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match self {
            KeptBytes::Read(bytes) => Cow::Borrowed(bytes),
            KeptBytes::Packed(packed) => Cow::Owned(packed.unpack()),
        }
    }

    /// Packs each run of consecutive reads in `kept` into one entry.
    pub fn pack_reads(kept: &mut std::collections::VecDeque<KeptBytes>) {
        let mut out = std::collections::VecDeque::with_capacity(kept.len());
        let mut run: Vec<u8> = Vec::new();
        for entry in kept.drain(..) {
            match entry {
                KeptBytes::Read(bytes) => run.extend_from_slice(&bytes),
                packed @ KeptBytes::Packed(_) => {
                    if !run.is_empty() {
                        out.push_back(KeptBytes::Packed(PackedBytes::pack(&run)));
                        run.clear();
                    }
                    out.push_back(packed);
                }
            }
        }
        if !run.is_empty() {
            out.push_back(KeptBytes::Packed(PackedBytes::pack(&run)));
        }
        out.shrink_to_fit();
        *kept = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_every_byte_in_order() {
        let mut kept: std::collections::VecDeque<KeptBytes> = [
            KeptBytes::Read(Arc::from(&b"one "[..])),
            KeptBytes::Read(Arc::from(&b"two "[..])),
        ]
        .into_iter()
        .collect();
        KeptBytes::pack_reads(&mut kept);
        kept.push_back(KeptBytes::Read(Arc::from(&b"three"[..])));
        KeptBytes::pack_reads(&mut kept);
        let all: Vec<u8> = kept.iter().flat_map(|k| k.bytes().into_owned()).collect();
        assert_eq!(all, b"one two three");
        assert_eq!(kept.len(), 2);
    }
}
