//! One APNG frame, compressed on any thread and written in order: its pixels filtered and
//! deflated as a PNG image of its own (the `png` crate's filters and compression, so the bytes
//! are those its animated writer makes), then framed as `fcTL` and `IDAT` or `fdAT` chunks once
//! the frame's sequence numbers are known.

use crate::error::EncodeError;
use crate::raster::Rect;
use crate::theme::Rgb;

use crate::pipeline::FramePatch;

/// The largest chunk the `png` crate writes; a frame's data past it goes on in another chunk.
const MAX_CHUNK_DATA: usize = (i32::MAX as usize) - 4;

/// A frame's one image, ready to compress: where it goes, how long it shows, and its pixels.
pub(crate) struct ApngImage {
    pub(crate) rect: Rect,
    pub(crate) delay_ms: u64,
    /// Drawn over the frame before (some pixels are see-through) rather than replacing it.
    pub(crate) blend_over: bool,
    /// Rows of RGB, or RGBA when the output keeps unchanged pixels see-through.
    pub(crate) pixels: Vec<u8>,
}

impl ApngImage {
    /// `patch`'s pixels as the output stores them: RGBA with unchanged ones at alpha 0 when
    /// `alpha`, else RGB.
    pub(crate) fn new(patch: &FramePatch, delay_ms: u64, alpha: bool) -> ApngImage {
        let mut pixels = Vec::with_capacity(patch.pixels.len() * if alpha { 4 } else { 3 });
        let mut blend_over = false;
        if alpha {
            pixels.extend(patch.pixels.iter().enumerate().flat_map(|(i, p)| {
                if patch.unchanged(i) {
                    blend_over = true;
                    return [0, 0, 0, 0];
                }
                let Rgb(r, g, b) = Rgb::from_packed(*p);
                [r, g, b, 255]
            }));
        } else {
            pixels.extend(patch.pixels.iter().flat_map(|p| {
                let Rgb(r, g, b) = Rgb::from_packed(*p);
                [r, g, b]
            }));
        }
        ApngImage {
            rect: patch.rect,
            delay_ms,
            blend_over,
            pixels,
        }
    }
}

/// A compressed image: its place and timing, and its zlib stream.
pub(crate) struct CompressedImage {
    pub(crate) rect: Rect,
    pub(crate) delay_ms: u64,
    pub(crate) blend_over: bool,
    pub(crate) zlib: Vec<u8>,
}

/// The `png` crate's encoder of a `width`×`height` image as the animation's frames are
/// written: RGBA when `alpha`, else RGB, 8 bits. The file's header and every frame are made with
/// it, so a frame's deflated data is what the crate's own animated writer would make.
pub(crate) fn png_encoder<W: std::io::Write>(
    out: W,
    width: u32,
    height: u32,
    alpha: bool,
) -> png::Encoder<'static, W> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(if alpha {
        png::ColorType::Rgba
    } else {
        png::ColorType::Rgb
    });
    encoder.set_depth(png::BitDepth::Eight);
    // Balanced: ~3x smaller than Fast on terminal frames for ~1 ms/frame.
    encoder.set_compression(png::Compression::Balanced);
    encoder
}

/// `image`'s pixels filtered and deflated, as the `png` crate does for an image of that size.
pub(crate) fn compress(image: ApngImage, alpha: bool) -> Result<CompressedImage, EncodeError> {
    let mut png = Vec::new();
    let encoder = png_encoder(&mut png, image.rect.width, image.rect.height, alpha);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&image.pixels)?;
    writer.finish()?;
    Ok(CompressedImage {
        rect: image.rect,
        delay_ms: image.delay_ms,
        blend_over: image.blend_over,
        zlib: image_data(&png),
    })
}

/// The concatenated `IDAT` data of a PNG byte stream.
fn image_data(png: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut at = 8; // the signature
    while let Some(header) = png.get(at..at + 8) {
        let len = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        if &header[4..8] == b"IDAT" {
            data.extend_from_slice(png.get(at + 8..at + 8 + len).unwrap_or_default());
        }
        at += 12 + len;
    }
    data
}

/// Appends `image` as the animation's frame with sequence number `*sequence` (advanced past
/// the numbers it takes): its `fcTL`, then its data, as `IDAT` when it is the image every
/// viewer shows (`first`), as `fdAT` otherwise.
pub(crate) fn append_chunks(
    out: &mut Vec<u8>,
    image: &CompressedImage,
    first: bool,
    sequence: &mut u32,
) {
    let (num, den) = delay_fraction(image.delay_ms);
    let r = image.rect;
    let mut control = Vec::with_capacity(26);
    for field in [*sequence, r.width, r.height, r.x, r.y] {
        control.extend_from_slice(&field.to_be_bytes());
    }
    control.extend_from_slice(&num.to_be_bytes());
    control.extend_from_slice(&den.to_be_bytes());
    // Dispose: none (the next frame draws over this one). Blend: source, or over.
    control.extend_from_slice(&[0, u8::from(image.blend_over)]);
    append_chunk(out, b"fcTL", &control);
    *sequence = sequence.wrapping_add(1);
    for part in image.zlib.chunks(MAX_CHUNK_DATA) {
        if first {
            append_chunk(out, b"IDAT", part);
        } else {
            let mut data = Vec::with_capacity(4 + part.len());
            data.extend_from_slice(&sequence.to_be_bytes());
            data.extend_from_slice(part);
            append_chunk(out, b"fdAT", &data);
            *sequence = sequence.wrapping_add(1);
        }
    }
}

/// Appends a PNG chunk: length, type, data, CRC of type and data.
pub(crate) fn append_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// A delay in ms as `fcTL`'s 16-bit fraction: ms/1000 when it fits, coarser units beyond 65 s.
pub(crate) fn delay_fraction(ms: u64) -> (u16, u16) {
    for (den, per) in [(1000u16, 1u64), (100, 10), (10, 100), (1, 1000)] {
        let v = (ms + per / 2) / per;
        if let Ok(num) = u16::try_from(v) {
            return (num, den);
        }
    }
    (u16::MAX, 1)
}

/// The delay actually encoded for `ms`, in ms (differs from `ms` only past 65.5 s).
pub(crate) fn delay_fraction_ms(ms: u64) -> u64 {
    let (num, den) = delay_fraction(ms);
    u64::from(num) * 1000 / u64::from(den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_use_milliseconds_until_they_do_not_fit() {
        assert_eq!(delay_fraction(33), (33, 1000));
        assert_eq!(delay_fraction(65_535), (65_535, 1000));
        assert_eq!(delay_fraction(70_000), (7_000, 100));
        assert_eq!(delay_fraction_ms(70_004), 70_000);
    }
}
