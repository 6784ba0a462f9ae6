//! Renders one screen of a cast to a PNG, as `phux rec --still` does, for looking at a frame.
//!
//! Run with `cargo run -p phux-encoders --example cast_still -- IN.cast OUT.png [FONT [EVENT]]`:
//! FONT is `smooth` (the default, the bundled font at 14 px) or `unifont`; EVENT the screen
//! after the first N screen events (the last screen when left out).

use phux_encoders::{
    render_still, EncodeOptions, FontOptions, FrameChrome, StillFrame, DEFAULT_PADDING,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(input), Some(output)) = (args.next(), args.next()) else {
        return Err("usage: cast_still IN.cast OUT.png [smooth|unifont [EVENT]]".into());
    };
    let font = match args.next().as_deref() {
        Some("unifont") => FontOptions {
            fonts: vec!["unifont".into()],
            ..FontOptions::default()
        },
        _ => FontOptions::smooth(),
    };
    let frame = match args.next() {
        Some(n) => StillFrame::Event(n.parse()?),
        None => StillFrame::Last,
    };
    let cast = phux_recorder::read_cast(&input)?;
    let options = EncodeOptions {
        font,
        overwrite: true,
        chrome: FrameChrome {
            padding: DEFAULT_PADDING,
            ..FrameChrome::default()
        },
        ..EncodeOptions::default()
    };
    let summary = render_still(&cast, output.as_ref(), &options, true, frame)?;
    eprintln!("{} ({} bytes)", summary.path.display(), summary.bytes);
    Ok(())
}
