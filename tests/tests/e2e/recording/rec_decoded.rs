//! What another decoder sees in `rec`'s GIFs and APNGs: Pillow, decoding sample casts
//! rendered with `rec --from`, counts as many frames as `rec --json` reports, and plays them
//! for the recording's duration plus the last frame's hold (issue 51: a frame written as
//! several images showed screens that never were, and Pillow counted 76 where `rec` said 12).

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};
use std::process::Command;

use phux_tests::python_venv::python_with;
use phux_tests::{json, phux, run, stderr};

/// Prints a file's frame count as Pillow decodes it, and the sum of its frames' durations (ms).
const PILLOW_FRAMES: &str = r#"
import sys
from PIL import Image
image = Image.open(sys.argv[1])
frames = getattr(image, "n_frames", 1)
total = 0.0
for i in range(frames):
    image.seek(i)
    total += image.info.get("duration", 0) or 0
print(frames, round(total))
"#;

/// The held last frame asked for, in ms.
const HOLD_MS: u64 = 1000;

/// Sample casts of every shape: typed shell, a bar redrawn in place, `top` and a dashboard
/// redrawing numbers all over the screen (the torn frames of issue 51), vim, emoji.
fn casts() -> Vec<PathBuf> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    [
        "shell",
        "progress",
        "top",
        "vim",
        "emoji",
        "corpus/dashboard",
    ]
    .iter()
    .map(|name| samples.join(format!("{name}.cast")))
    .collect()
}

/// Pillow's frame count and summed duration of the animation at `path`.
fn pillow_frames(python: &Path, path: &Path) -> (u64, u64) {
    let output = Command::new(python)
        .args(["-c", PILLOW_FRAMES])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().unwrap());
    (fields.next().unwrap(), fields.next().unwrap())
}

#[test]
fn pillow_decodes_the_frames_rec_reports_for_the_duration_rec_reports() {
    let python = match python_with("PIL", "pillow", "pillow-venv") {
        Ok(python) => python,
        Err(why) => {
            phux_tests::missing(&format!("Pillow ({why})"));
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    for cast in casts() {
        let name = cast.file_stem().unwrap().to_str().unwrap();
        for ext in ["gif", "png"] {
            let out = dir.path().join(format!("{name}.{ext}"));
            let output = run(&mut phux(&[
                "rec",
                "--from",
                cast.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--last-frame",
                "1",
                "--json",
            ]));
            assert!(output.status.success(), "{}", stderr(&output));
            let doc = json(&output);
            let what = format!("{} as {ext}", cast.display());
            let (frames, played_ms) = pillow_frames(&python, &out);
            assert_eq!(Some(frames), doc["frames"].as_u64(), "{what}: frames");
            let expected = doc["duration_ms"].as_u64().unwrap() + HOLD_MS;
            assert!(
                played_ms.abs_diff(expected) <= 10,
                "{what}: Pillow plays {played_ms} ms, rec says {expected} ms with the hold"
            );
            let reported = doc["played_ms"]
                .as_u64()
                .expect("played_ms for an animation");
            assert!(
                played_ms.abs_diff(reported) <= 10,
                "{what}: Pillow plays {played_ms} ms, rec's played_ms says {reported}"
            );
        }
    }
}
