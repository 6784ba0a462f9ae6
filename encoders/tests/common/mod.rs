//! Shared helpers for the encoder tests: screens to encode and decoders that composite frames.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use phux_encoders::{
    AnimationEncoder, Animator, CellColor, EncodeOptions, EncodeSummary, RenderCell, RenderScreen,
    Rgb,
};

pub const RED: Rgb = Rgb(255, 0, 0);
pub const BLUE: Rgb = Rgb(0, 0, 255);

/// One decoded frame: its rectangle, delay in ms, and the whole image after compositing it.
pub struct Decoded {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub delay_ms: u64,
    pub image: Vec<Rgb>,
}

/// A whole decoded animation.
pub struct Animation {
    pub width: u32,
    pub height: u32,
    pub frames: Vec<Decoded>,
    /// GIF only: entries in the global colour table.
    pub global_palette_len: Option<usize>,
}

impl Animation {
    pub fn total_ms(&self) -> u64 {
        self.frames.iter().map(|f| f.delay_ms).sum()
    }

    pub fn last_image(&self) -> &[Rgb] {
        &self.frames.last().unwrap().image
    }

    pub fn pixel(&self, image: &[Rgb], x: u32, y: u32) -> Rgb {
        image[(y * self.width + x) as usize]
    }
}

/// Decodes a GIF with the `gif` crate and composites every frame (disposal: keep).
pub fn decode_gif(path: &Path) -> Animation {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(File::open(path).unwrap()).unwrap();
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let global_palette_len = decoder.global_palette().map(|p| p.len() / 3);
    let mut canvas = vec![Rgb(0, 0, 0); (width * height) as usize];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let (fx, fy) = (u32::from(frame.left), u32::from(frame.top));
        let (fw, fh) = (u32::from(frame.width), u32::from(frame.height));
        blit(&mut canvas, width, (fx, fy, fw, fh), &frame.buffer, 4);
        frames.push(Decoded {
            x: fx,
            y: fy,
            width: fw,
            height: fh,
            delay_ms: u64::from(frame.delay) * 10,
            image: canvas.clone(),
        });
    }
    Animation {
        width,
        height,
        frames,
        global_palette_len,
    }
}

/// Decodes an APNG with the `png` crate and composites every frame (blend: source).
pub fn decode_apng(path: &Path) -> Animation {
    let decoder = png::Decoder::new(BufReader::new(File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let (width, height) = (reader.info().width, reader.info().height);
    let count = reader.info().animation_control().unwrap().num_frames;
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let mut canvas = vec![Rgb(0, 0, 0); (width * height) as usize];
    let mut frames = Vec::new();
    for _ in 0..count {
        let out = reader.next_frame(&mut buf).unwrap();
        let bpp = match out.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => panic!("unexpected colour type {other:?}"),
        };
        let fc = *reader.info().frame_control().unwrap();
        assert_eq!(fc.dispose_op, png::DisposeOp::None);
        let data = &buf[..out.buffer_size()];
        if fc.blend_op == png::BlendOp::Source {
            // Source replaces every pixel; phux writes only alpha 255 with it.
            assert!(bpp == 3 || data.chunks(4).all(|p| p[3] == 255));
        } else {
            // Over: phux writes alpha 0 (keep what is there) or 255 (replace) only.
            assert!(data.chunks(4).all(|p| p[3] == 0 || p[3] == 255));
        }
        let rect = (fc.x_offset, fc.y_offset, fc.width, fc.height);
        blit(&mut canvas, width, rect, data, bpp);
        let delay_ms = u64::from(fc.delay_num) * 1000 / u64::from(fc.delay_den.max(1));
        frames.push(Decoded {
            x: fc.x_offset,
            y: fc.y_offset,
            width: fc.width,
            height: fc.height,
            delay_ms,
            image: canvas.clone(),
        });
    }
    Animation {
        width,
        height,
        frames,
        global_palette_len: None,
    }
}

fn blit(canvas: &mut [Rgb], width: u32, rect: (u32, u32, u32, u32), data: &[u8], bpp: usize) {
    let (x0, y0, w, h) = rect;
    for y in 0..h {
        for x in 0..w {
            let i = ((y * w + x) as usize) * bpp;
            // An alpha of 0 (GIF's transparent index, APNG blended over) keeps the pixel below.
            if bpp == 4 && data[i + 3] == 0 {
                continue;
            }
            let px = Rgb(data[i], data[i + 1], data[i + 2]);
            canvas[((y0 + y) * width + x0 + x) as usize] = px;
        }
    }
}

/// The chunk types of a PNG file in order, after checking every chunk's CRC.
pub fn png_chunks(path: &Path) -> Vec<([u8; 4], Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let mut at = 8;
    let mut chunks = Vec::new();
    while at < bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind: [u8; 4] = bytes[at + 4..at + 8].try_into().unwrap();
        let data = bytes[at + 8..at + 8 + len].to_vec();
        let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(
            crc,
            crc32fast::hash(&bytes[at + 4..at + 8 + len]),
            "CRC of {kind:?}"
        );
        chunks.push((kind, data));
        at += 12 + len;
    }
    chunks
}

/// A screen with a red 'A' on blue at (`x`, `y`) and default cells elsewhere.
pub fn red_a_on_blue(cols: u16, rows: u16, x: u16, y: u16) -> RenderScreen {
    let mut s = RenderScreen::blank(cols, rows);
    *s.cell_mut(x, y).unwrap() = RenderCell {
        fg: CellColor::Rgb(255, 0, 0),
        bg: CellColor::Rgb(0, 0, 255),
        ..RenderCell::with_text('A')
    };
    s
}

/// Encodes `screens` (time in seconds, screen) to `path` at `fps`, holding the last frame `hold`.
pub fn encode(
    path: &Path,
    screens: &[(f64, RenderScreen)],
    options: &EncodeOptions,
    fps: u32,
    hold: f64,
) -> EncodeSummary {
    let (cols, rows) = (screens[0].1.cols, screens[0].1.rows);
    let encoder = AnimationEncoder::create(path, cols, rows, options).unwrap();
    let mut animator = Animator::new(encoder, fps);
    for (t, s) in screens {
        animator.push(*t, s).unwrap();
    }
    animator.finish(hold).unwrap()
}

/// A typing session: `n` screens, one character more each, `dt` seconds apart; each line is
/// a different colour so the palette is not trivial.
pub fn typing(cols: u16, rows: u16, n: usize, dt: f64) -> Vec<(f64, RenderScreen)> {
    let mut s = RenderScreen::blank(cols, rows);
    let mut out = vec![(0.0, s.clone())];
    for i in 0..n {
        let (x, y) = (
            (i % usize::from(cols)) as u16,
            ((i / usize::from(cols)) % usize::from(rows)) as u16,
        );
        let ch = char::from(b'!' + (i % 90) as u8);
        *s.cell_mut(x, y).unwrap() = RenderCell {
            fg: CellColor::Palette((y % 8) as u8 + 1),
            ..RenderCell::with_text(ch)
        };
        out.push(((i + 1) as f64 * dt, s.clone()));
    }
    out
}
