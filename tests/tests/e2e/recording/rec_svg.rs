//! `rec -o demo.svg` read back: every sample cast rendered with `rec --from` is well-formed XML
//! (Python's parser), and at times inside each of its frames the text of every row — found the
//! way a browser finds it: the keyframe in force for each row's strip, the look at that place,
//! its runs placed by column — is the engine's screen of that frame. Then the same in headless
//! chromium, with the animations paused at those times, and a byte limit honoured.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use phux_encoders::{
    render_cast_into, CellWidth, EncodeError, EncodeOptions, EncodeSummary, FrameSink,
    OutputFormat, RenderScreen, RenderSettings, SinkStatus,
};
use phux_tests::{json, missing, phux, run, run_with_deadline, stderr, stdout, TestServer};

/// Reads an SVG of `rec` with Python's XML parser and prints, for each time (ms) given, the
/// text of every row: per animated row, the last keyframe at or before the time (`step-end`)
/// gives the strip's shift, and the look placed there shows.
const READ_SVG: &str = r#"
import json, re, sys
import xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
times = json.loads(sys.argv[2])
style = root.find(NS + 'style').text
duration = re.search(r'g\[style\]\{animation:([0-9.]+)s step-end infinite\}', style)
duration = float(duration.group(1)) * 1000 if duration else 0
frames = {}
for name, body in re.findall(r'@keyframes (\w+)\{((?:[^{}]*\{[^}]*\})*)\}', style):
    steps = []
    for offsets, value in re.findall(r'([0-9.,%]+)\{translate:([^}]*)\}', body):
        for offset in offsets.split(','):
            steps.append((float(offset.rstrip('%')), value))
    frames[name] = sorted(steps)
defs = {g.get('id'): g for g in root.find(NS + 'defs')}
grid = [e for e in root if e.tag == NS + 'svg'][0]
cols, rows = int(grid.get('data-cols')), int(grid.get('data-rows'))
cw = float(grid.get('width')) / cols
ch = float(grid.get('height')) / rows
def text(look, cells):
    for element in look:
        if element.tag == NS + 'use':
            text(defs[element.get('href')[1:]], cells)
        if element.tag != NS + 'text':
            continue
        # One run is the <text> itself; more are its <tspan>s.
        for span in (list(element) or [element]):
            col = round(float(span.get('x')) / cw)
            chars = list(span.text or '')
            length = span.get('textLength')
            n = len(chars) if length is None else round(float(length) / cw)
            if n == len(chars):
                for k, c in enumerate(chars):
                    cells[col + k] = c
            else:
                cells[col] = span.text
                for k in range(1, n):
                    cells[col + k] = ''
def shift(name, ms):
    at = ms * 100.0 / duration if duration else 0
    value = '0'
    for offset, v in frames.get(name, []):
        if offset <= at + 1e-9:
            value = v
    return -float(value.replace('px', ''))
out = []
for ms in times:
    screen = [[' '] * cols for _ in range(rows)]
    for child in grid:
        if child.find(NS + 'svg') is not None:
            continue  # the cursor
        if child.tag == NS + 'use':
            text(defs[child.get('href')[1:]], screen[round(float(child.get('y', '0')) / ch)])
            continue
        place = re.search(r'translate\(0,(\d+)\)', child.get('transform') or '')
        y = round(float(place.group(1)) / ch) if place else 0
        strip = child.find(NS + 'g')
        name = re.search(r'animation-name:(\w+)', strip.get('style')).group(1)
        x = shift(name, ms)
        for use in strip:
            if abs(float(use.get('x', '0')) - x) < 0.5:
                text(defs[use.get('href')[1:]], screen[y])
    out.append([''.join(r).rstrip() for r in screen])
print(json.dumps(out))
"#;

/// Every sample cast: the shell, vim, top, emoji, box drawing, bars, and the corpus.
fn casts() -> Vec<PathBuf> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut casts: Vec<PathBuf> = ["", "corpus"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(samples.join(dir)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    assert!(casts.len() >= 13, "{casts:?}");
    casts
}

/// The frames an animation of the cast shows, with `rec`'s defaults: what the SVG must show.
#[derive(Default)]
struct Frames {
    shown: Vec<(f64, RenderScreen)>,
    end: f64,
}

impl FrameSink for &mut Frames {
    fn max_fps(&self) -> u32 {
        50
    }
    fn ticks_per_second(&self) -> u32 {
        100
    }
    fn add_frame(&mut self, start: f64, screen: &RenderScreen) -> Result<SinkStatus, EncodeError> {
        self.shown.push((start, screen.clone()));
        Ok(SinkStatus::Accepting)
    }
    fn finish(self, end: f64) -> Result<EncodeSummary, EncodeError> {
        self.end = end;
        Ok(EncodeSummary {
            path: PathBuf::new(),
            format: OutputFormat::Svg,
            bytes: 0,
            frames: 0,
            duration_ms: 0,
            width_px: 0,
            height_px: 0,
            truncated: false,
        })
    }
}

/// Up to 14 frames spread over the recording, and the last: (a time inside it in ms, its
/// rows as text). Box drawing and blocks are drawn as shapes, not text: blank here.
fn expected(cast_path: &Path) -> Vec<(u64, Vec<String>)> {
    let cast = phux_recorder::read_cast(cast_path).unwrap();
    let settings = RenderSettings {
        options: EncodeOptions::default(),
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit: cast.header.idle_time_limit.or(Some(2.0)),
        last_frame_hold: 3.0,
    };
    let mut frames = Frames::default();
    render_cast_into(&cast, &mut frames, &settings, &mut |_, _| {}).unwrap();
    let n = frames.shown.len();
    let step = (n / 14).max(1);
    let mut picked: Vec<usize> = (0..n).step_by(step).collect();
    picked.push(n - 1);
    picked.dedup();
    picked
        .into_iter()
        .map(|i| {
            let start = frames.shown[i].0;
            let end = frames.shown.get(i + 1).map_or(frames.end, |f| f.0);
            let ms = ((start + end) / 2.0 * 1000.0).round() as u64;
            (ms, rows_text(&frames.shown[i].1))
        })
        .collect()
}

fn rows_text(screen: &RenderScreen) -> Vec<String> {
    (0..screen.rows)
        .map(|y| {
            let mut row = String::new();
            for x in 0..screen.cols {
                let cell = screen.cell(x, y).unwrap();
                if cell.wide == CellWidth::SpacerTail && x > 0 {
                    continue;
                }
                let drawn = phux_encoders::font::procedural::draw(cell.text).is_some();
                match screen.grapheme(cell) {
                    Some(text) => row.push_str(text),
                    None if drawn || cell.text == '\0' || cell.wide == CellWidth::SpacerTail => {
                        row.push(' ')
                    }
                    None => row.push(cell.text),
                }
            }
            row.trim_end().to_owned()
        })
        .collect()
}

/// `rec --from cast -o out.svg --json`, with no config file's defaults.
fn rec_svg(cast: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let mut command = phux(&args);
    command.env("PHUX_CONFIG", out.with_extension("no-config.toml"));
    let output = run(&mut command);
    assert!(output.status.success(), "{}", stderr(&output));
    json(&output)
}

/// What Python reads in `svg` at each time.
fn python_reads(svg: &Path, times: &[u64]) -> Vec<Vec<String>> {
    let output = Command::new("python3")
        .args(["-c", READ_SVG])
        .arg(svg)
        .arg(serde_json::to_string(times).unwrap())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}: {}",
        svg.display(),
        stderr(&output)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn every_sample_cast_as_svg_parses_and_shows_the_engines_screen_on_every_row() {
    let dir = tempfile::tempdir().unwrap();
    for cast in casts() {
        let name = cast.file_stem().unwrap().to_str().unwrap();
        let svg = dir.path().join(format!("{name}.svg"));
        let doc = rec_svg(&cast, &svg, &[]);
        assert_eq!(doc["format"], "svg", "{doc}");
        assert_eq!(doc["truncated"], false, "{doc}");
        assert_eq!(
            doc["bytes"],
            std::fs::metadata(&svg).unwrap().len(),
            "{doc}"
        );
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(!text.contains("<script"), "no script in {name}");
        let expected = expected(&cast);
        let times: Vec<u64> = expected.iter().map(|(ms, _)| *ms).collect();
        let read = python_reads(&svg, &times);
        for ((ms, rows), seen) in expected.iter().zip(&read) {
            assert_eq!(seen, rows, "{name} at {ms} ms");
        }
    }
}

/// `--still` writes the last screen with no animation at all.
#[test]
fn a_still_svg_is_the_last_screen_without_animation() {
    let dir = tempfile::tempdir().unwrap();
    let cast = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/vim.cast");
    let svg = dir.path().join("vim.svg");
    let doc = rec_svg(&cast, &svg, &["--still"]);
    assert_eq!(
        (doc["format"].as_str(), doc["frames"].as_u64()),
        (Some("svg"), Some(1))
    );
    assert!(
        doc.get("played_ms").is_none_or(serde_json::Value::is_null),
        "{doc}"
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        !text.contains("@keyframes") && !text.contains("animation"),
        "{text}"
    );
    let last = expected(&cast).pop().unwrap().1;
    assert_eq!(python_reads(&svg, &[0])[0], last);
}

/// `--max-bytes` cuts an SVG as it cuts a GIF: a smaller file that still parses, says it was
/// cut, and plays what it holds.
#[test]
fn max_bytes_cuts_the_svg_short_and_it_still_plays() {
    let dir = tempfile::tempdir().unwrap();
    let cast = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/corpus/logflood.cast");
    let whole = rec_svg(&cast, &dir.path().join("whole.svg"), &[]);
    let limit = whole["bytes"].as_u64().unwrap() / 3;
    let svg = dir.path().join("cut.svg");
    let mut command = phux(&[
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
        "--max-bytes",
        &limit.to_string(),
    ]);
    command.env("PHUX_CONFIG", dir.path().join("none.toml"));
    let output = run(&mut command);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--max-bytes cut the recording short"),
        "{}",
        stderr(&output)
    );
    let bytes = std::fs::metadata(&svg).unwrap().len();
    assert!(bytes <= limit && bytes > limit / 2, "{bytes} of {limit}");
    let expected = expected(&cast);
    let first = &expected[0];
    assert_eq!(python_reads(&svg, &[first.0])[0], first.1);
}

/// In chromium, with every animation paused at a time inside a frame, each row's look that
/// the browser placed inside the grid reads as the engine's screen of that frame.
#[test]
fn chromium_paused_at_each_frame_shows_the_engines_screen() {
    if let Err(what) = phux_tests::browser::ready() {
        missing(&what);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    for name in ["shell", "vim", "emoji", "glyphs", "corpus/cjk-80x24"] {
        let cast = samples.join(format!("{name}.cast"));
        let svg = dir.path().join(format!("{}.svg", name.replace('/', "-")));
        rec_svg(&cast, &svg, &[]);
        let expected = expected(&cast);
        let plan = serde_json::json!({
            "svg": svg,
            "times_ms": expected.iter().map(|(ms, _)| *ms).collect::<Vec<_>>(),
        });
        let mut node = phux_tests::browser::script("svg.mjs", &plan);
        let output = run_with_deadline(&mut node, Duration::from_secs(120));
        let printed = stdout(&output);
        assert!(output.status.success(), "{printed}{}", stderr(&output));
        let seen: serde_json::Value = serde_json::from_str(printed.trim()).unwrap();
        assert_eq!(seen["errors"], serde_json::json!([]), "{name}: {seen}");
        for ((ms, rows), frame) in expected.iter().zip(seen["frames"].as_array().unwrap()) {
            let shown: Vec<String> = serde_json::from_value(frame["rows"].clone()).unwrap();
            assert_eq!(&shown, rows, "{name} at {ms} ms in chromium");
        }
    }
}

/// A tape's `Output demo.svg` is the tape's recording: it ends on the screen `Output demo.txt`
/// writes.
#[test]
fn a_tapes_output_svg_ends_on_the_tapes_last_screen() {
    let server = TestServer::start();
    let dir = server.dir.path().join("svg-tape");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("demo.tape"),
        "Output demo.svg\nOutput demo.txt\nType \"echo svg-$((6*7))\"\nEnter\nSleep 500ms\n",
    )
    .unwrap();
    let mut tape = server.phux(&["tape", "demo.tape", "--json"]);
    tape.current_dir(&dir);
    let output = run_with_deadline(&mut tape, Duration::from_secs(90));
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let svg = (doc["outputs"].as_array().unwrap().iter())
        .find(|o| o["format"] == "svg")
        .unwrap_or_else(|| panic!("no svg output: {doc}"));
    let end = svg["duration_ms"].as_u64().unwrap();
    let rows = python_reads(&dir.join("demo.svg"), &[end.saturating_sub(50)]).remove(0);
    let mut shown = rows.join("\n").trim_end().to_owned();
    shown.push('\n');
    let expected = std::fs::read_to_string(dir.join("demo.txt")).unwrap();
    assert_eq!(shown, expected);
    assert!(shown.contains("svg-42"), "{shown}");
}
