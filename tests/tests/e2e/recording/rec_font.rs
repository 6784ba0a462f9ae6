//! `phux rec --from` with the font flags, as a user runs it: the smooth mode renders at the size
//! asked for with the bundled font on a machine without fonts, every frame decodes, and a font
//! that does not exist or a size out of range is refused before anything is written.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use phux_tests::{run, stderr, stdout};

fn glyphs_cast() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/glyphs.cast")
}

/// `phux rec --from samples/glyphs.cast -o OUT --json ARGS...` with no installed fonts.
fn render(out: &Path, args: &[&str]) -> std::process::Output {
    run(&mut rec_command(out, args))
}

/// The `phux rec --from samples/glyphs.cast` command `render` runs, to add to.
fn rec_command(out: &Path, args: &[&str]) -> std::process::Command {
    let cast = glyphs_cast();
    let mut words = vec![
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ];
    words.extend_from_slice(args);
    let mut command = phux_tests::phux(&words);
    command.env("PHUX_FONT_DIRS", "");
    command
}

/// Frame count, size, and the colours of every frame, decoded by the `gif` crate.
fn decode(path: &Path) -> (u64, (u16, u16), HashSet<[u8; 3]>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let size = (decoder.width(), decoder.height());
    let mut frames = 0;
    let mut colours = HashSet::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames += 1;
        for px in frame.buffer.chunks(4) {
            if px[3] != 0 {
                colours.insert([px[0], px[1], px[2]]);
            }
        }
    }
    (frames, size, colours)
}

#[test]
fn font_size_renders_smooth_frames_at_the_size_asked_for_with_the_bundled_font() {
    let dir = tempfile::tempdir().unwrap();
    let bitmap = dir.path().join("bitmap.gif");
    let output = render(&bitmap, &["--font", "unifont"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, bitmap_size, bitmap_colours) = decode(&bitmap);
    // glyphs.cast is 60x14: 8x16 cells, inside rec's default padding of 8 px.
    const PAD: u16 = 2 * 8;
    assert_eq!(bitmap_size, (480 + PAD, 224 + PAD));

    for (size, cell) in [("14", (8u16, 20u16)), ("20", (12, 28))] {
        let smooth = dir.path().join(format!("smooth{size}.gif"));
        let output = render(&smooth, &["--font-size", size]);
        assert!(output.status.success(), "{}", stderr(&output));
        let doc: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let (frames, px, colours) = decode(&smooth);
        assert_eq!(doc["frames"].as_u64(), Some(frames));
        assert_eq!(
            px,
            (60 * cell.0 + PAD, 14 * cell.1 + PAD),
            "--font-size {size}"
        );
        // Antialiasing blends each cell's colours: more colours than the bitmap's, all exact.
        assert!(colours.len() > bitmap_colours.len(), "--font-size {size}");
    }
    // The bundled font by name, and the bitmap font by name, are the same as the defaults.
    let named = dir.path().join("named.gif");
    assert!(render(&named, &["--font", "JetBrains Mono"])
        .status
        .success());
    assert_eq!(decode(&named).1, (480 + PAD, 280 + PAD));
    let unifont = dir.path().join("unifont.gif");
    assert!(render(&unifont, &["--font", "unifont"]).status.success());
    assert_eq!(
        std::fs::read(&unifont).unwrap(),
        std::fs::read(&bitmap).unwrap()
    );
}

#[test]
fn a_missing_font_or_a_bad_size_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.gif");
    let output = render(&out, &["--font", "No Such Family"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let line: serde_json::Value =
        serde_json::from_str(stderr(&output).lines().last().unwrap()).unwrap();
    assert_eq!(line["error"]["code"], "invalid_argument");
    let message = line["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("No Such Family") && message.contains("PHUX_FONT_DIRS is empty"),
        "{line}"
    );
    assert!(!out.exists());

    let missing_file = dir.path().join("nope.ttf");
    let output = render(&out, &["--font", missing_file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("nope.ttf"), "{}", stderr(&output));

    for (flag, value) in [
        ("--font-size", "0"),
        ("--font-size", "500"),
        ("--line-height", "-1"),
        ("--letter-spacing", "100"),
    ] {
        let output = render(&out, &[flag, value]);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}");
        assert!(stderr(&output).contains(flag), "{}", stderr(&output));
        assert!(!out.exists());
    }
}

/// `[defaults]` font keys: used when no font flag is given; any font flag sets the whole font.
#[test]
fn the_config_files_font_keys_apply_unless_a_font_flag_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let with_config = |out: &Path, text: &str, args: &[&str]| {
        std::fs::write(&config, text).unwrap();
        let output = run(rec_command(out, args).env("PHUX_CONFIG", &config));
        assert!(output.status.success(), "{}", stderr(&output));
        decode(out).1
    };
    const PAD: u16 = 2 * 8;
    let bitmap = dir.path().join("bitmap.gif");
    assert_eq!(
        with_config(&bitmap, "[defaults]\nfont = \"unifont\"\n", &[]),
        (480 + PAD, 224 + PAD)
    );
    let big = dir.path().join("big.gif");
    assert_eq!(
        with_config(&big, "[defaults]\nfont-size = 20\n", &[]),
        (60 * 12 + PAD, 14 * 28 + PAD)
    );
    let flagged = dir.path().join("flagged.gif");
    assert_eq!(
        with_config(
            &flagged,
            "[defaults]\nfont-size = 20\n",
            &["--font-size", "14"]
        ),
        (60 * 8 + PAD, 14 * 20 + PAD)
    );
}

/// Issue 51: emoji rendered without a colour emoji font come out as outlines; `rec` says so
/// once, naming the package, and `doctor` checks for the font. A cast without emoji, or a
/// machine with the font, hears nothing.
#[test]
fn rec_says_once_when_emoji_have_no_colour_font() {
    let dir = tempfile::tempdir().unwrap();
    let emoji = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/emoji.cast");
    let rec = |cast: &Path, out: &str, font_dirs: &str| {
        let out = dir.path().join(out);
        let mut command = phux_tests::phux(&[
            "rec",
            "--from",
            cast.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--json",
        ]);
        command.env("PHUX_FONT_DIRS", font_dirs);
        let output = run(&mut command);
        assert!(output.status.success(), "{}", stderr(&output));
        stderr(&output)
    };
    let said = rec(&emoji, "bare.gif", "");
    assert_eq!(
        said.matches("no colour emoji font").count(),
        1,
        "said once: {said}"
    );
    assert!(said.contains("fonts-noto-color-emoji"), "{said}");
    let plain = rec(&glyphs_cast(), "glyphs.gif", "");
    assert!(!plain.contains("emoji"), "a cast without emoji: {plain}");
    if Path::new("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf").exists() {
        let with_font = rec(&emoji, "colour.gif", "/usr/share/fonts");
        assert!(!with_font.contains("emoji font"), "{with_font}");
    }
    let mut doctor = phux_tests::phux(&["doctor", "--json"]);
    doctor.env("PHUX_FONT_DIRS", "");
    let doc: serde_json::Value = serde_json::from_str(&stdout(&run(&mut doctor))).unwrap();
    let check = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "emoji font")
        .cloned()
        .expect("a fonts check");
    assert_eq!(check["status"], "warn", "{check}");
    assert!(
        check["hint"]
            .as_str()
            .unwrap()
            .contains("fonts-noto-color-emoji"),
        "{check}"
    );
}
