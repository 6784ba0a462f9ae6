//! Throughput benchmark (not a test): 300 frames of a 100×30 terminal session through the GIF
//! and APNG encoders, against a reference GIF made of full frames on one thread.
//!
//! Run with `cargo run --release -p phux-encoders --example encode_bench [frames]`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use phux_encoders::{
    AnimationEncoder, Animator, CellColor, EncodeError, EncodeOptions, EncodeSummary, Rasterizer,
    RenderCell, RenderCursor, RenderScreen,
};

const COLS: u16 = 100;
const ROWS: u16 = 30;
const FPS: f64 = 30.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let frames: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let screens = session(frames);
    let dir = tempfile::tempdir()?;
    let options = EncodeOptions {
        max_bytes: u64::MAX,
        ..EncodeOptions::default()
    };
    println!("{frames} screens of {COLS}x{ROWS} cells (800x480 px), one change per 1/30 s");
    let gif = run(&dir.path().join("bench.gif"), &screens, &options)?;
    let apng = run(&dir.path().join("bench.png"), &screens, &options)?;
    let reference = reference_gif(&dir.path().join("reference.gif"), &screens, &options)?;
    report("gif", &gif);
    report("apng", &apng);
    report("reference gif (full frames, 1 thread)", &reference);
    println!(
        "gif vs reference: {:.1}x faster, {:.1}x smaller",
        reference.1 / gif.1,
        reference.0.bytes as f64 / gif.0.bytes as f64
    );
    Ok(())
}

/// A shell-like session: a prompt, typed commands, coloured output scrolling, a clock line.
fn session(n: usize) -> Vec<(f64, RenderScreen)> {
    let mut s = RenderScreen::blank(COLS, ROWS);
    let mut lines: Vec<Vec<RenderCell>> = Vec::new();
    let mut current: Vec<RenderCell> = Vec::new();
    let words = [
        "cargo",
        "build",
        "--release",
        "ls",
        "-la",
        "src/",
        "git",
        "status",
        "│",
        "▒▒",
    ];
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let word = words[i % words.len()];
        let fg = CellColor::Palette((i % 7 + 1) as u8);
        current.extend(word.chars().chain([' ']).map(|c| RenderCell {
            fg,
            ..RenderCell::with_text(c)
        }));
        if current.len() > usize::from(COLS) - 10 || i % 9 == 8 {
            lines.push(std::mem::take(&mut current));
        }
        let visible = usize::from(ROWS) - 1;
        let first = lines.len().saturating_sub(visible - 1);
        s.cells.fill(RenderCell::blank());
        for (y, line) in lines[first..].iter().chain([&current]).enumerate() {
            for (x, cell) in line.iter().take(usize::from(COLS)).enumerate() {
                s.cells[y * usize::from(COLS) + x] = *cell;
            }
        }
        let clock = format!(" {:>6.2}s  frame {i:>5}  ", i as f64 / FPS);
        s.put_str(
            0,
            ROWS - 1,
            &format!("{clock:█<100}"),
            CellColor::Palette(0),
            CellColor::Palette(6),
        );
        let y = (lines.len() - first).min(visible - 1) as u16;
        s.cursor = Some(RenderCursor {
            x: current.len().min(99) as u16,
            y,
            visible: true,
        });
        out.push((i as f64 / FPS, s.clone()));
    }
    out
}

fn run(
    path: &Path,
    screens: &[(f64, RenderScreen)],
    options: &EncodeOptions,
) -> Result<(EncodeSummary, f64), EncodeError> {
    let start = Instant::now();
    let encoder = AnimationEncoder::create(path, COLS, ROWS, options)?;
    let mut animator = Animator::new(encoder, 30);
    for (t, screen) in screens {
        animator.push(*t, screen)?;
    }
    let summary = animator.finish(1.0)?;
    Ok((summary, start.elapsed().as_secs_f64() * 1000.0))
}

/// Every frame whole, indexed and LZW-compressed on this thread: what a simple encoder does.
fn reference_gif(
    path: &Path,
    screens: &[(f64, RenderScreen)],
    options: &EncodeOptions,
) -> Result<(EncodeSummary, f64), Box<dyn std::error::Error>> {
    let start = Instant::now();
    let mut raster = Rasterizer::new(COLS, ROWS, options.theme, options.scale)?;
    let (w, h) = (raster.canvas().width, raster.canvas().height);
    let mut colors: HashMap<u32, u8> = HashMap::new();
    let mut frames = Vec::new();
    for (_, screen) in screens {
        raster.draw(screen);
        let indices: Vec<u8> = raster
            .canvas()
            .pixels
            .iter()
            .map(|p| {
                let next = colors.len() as u8;
                *colors.entry(*p).or_insert(next)
            })
            .collect();
        let mut frame = gif::Frame {
            width: w as u16,
            height: h as u16,
            delay: 3,
            buffer: Cow::Owned(indices),
            ..gif::Frame::default()
        };
        frame.make_lzw_pre_encoded();
        frames.push(frame);
    }
    let mut palette = vec![0u8; 3 * colors.len()];
    for (color, i) in &colors {
        let i = usize::from(*i) * 3;
        palette[i..i + 3].copy_from_slice(&[(color >> 16) as u8, (color >> 8) as u8, *color as u8]);
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = gif::Encoder::new(file, w as u16, h as u16, &palette)?;
    for frame in &frames {
        encoder.write_lzw_pre_encoded_frame(frame)?;
    }
    drop(encoder.into_inner()?);
    let bytes = std::fs::metadata(path)?.len();
    let summary = EncodeSummary {
        path: path.to_path_buf(),
        format: phux_encoders::OutputFormat::Gif,
        bytes,
        frames: frames.len() as u32,
        duration_ms: 0,
        width_px: w,
        height_px: h,
        truncated: false,
    };
    Ok((summary, start.elapsed().as_secs_f64() * 1000.0))
}

fn report(name: &str, (summary, ms): &(EncodeSummary, f64)) {
    let frames = f64::from(summary.frames.max(1));
    let megapixels = frames * f64::from(summary.width_px) * f64::from(summary.height_px) / 1e6;
    println!(
        "{name:<40} {:>5} frames  {:>8.1} ms total  {:>6.3} ms/frame  {:>8.0} B/frame  {:>8.0} B/Mpx  {:>9} B",
        summary.frames,
        ms,
        ms / frames,
        summary.bytes as f64 / frames,
        summary.bytes as f64 / megapixels,
        summary.bytes,
    );
}
