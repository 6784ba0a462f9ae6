//! Renders one screen exercising every glyph source and attribute to a PNG, for eyeballing.
//!
//! Run with `cargo run -p phux-encoders --example render_sample -- out.png [scale] [theme]
//! [font-size]`; a font size draws with the bundled TrueType font instead of the bitmap one.

use phux_encoders::{
    AnimationEncoder, Animator, CellAttrs, CellColor, CellWidth, EncodeOptions, RenderCell,
    RenderCursor, RenderScreen, Theme,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "sample.png".into());
    let scale = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let theme = Theme::builtin(&args.next().unwrap_or_else(|| "asciinema".into()))?;
    let font = phux_encoders::FontOptions {
        size_px: args.next().and_then(|s| s.parse().ok()),
        ..phux_encoders::FontOptions::default()
    };
    let s = sample();
    let options = EncodeOptions {
        theme,
        scale,
        font,
        ..EncodeOptions::default()
    };
    let encoder = AnimationEncoder::create(path.as_ref(), s.cols, s.rows, &options)?;
    let mut animator = Animator::new(encoder, 30);
    animator.push(0.0, &s)?;
    let summary = animator.finish(1.0)?;
    eprintln!("{} ({} bytes)", summary.path.display(), summary.bytes);
    Ok(())
}

fn sample() -> RenderScreen {
    let d = CellColor::Default;
    let mut s = RenderScreen::blank(40, 14);
    s.put_str(0, 0, "┌─┬─┐ ┏━┳━┓ ╔═╦═╗ ╭──╮ ┄┅┈┉╌╍ ╱╲╳", d, d);
    s.put_str(0, 1, "│ │ │ ┃ ┃ ┃ ║ ║ ║ │  │ ┆┇┊┋╎╏ ╲╱ ", d, d);
    s.put_str(0, 2, "├─┼─┤ ┣━╋━┫ ╠═╬═╣ ╰──╯ ╒╤╕╓╥╖ ┍┯┑", d, d);
    s.put_str(0, 3, "└─┴─┘ ┗━┻━┛ ╚═╩═╝ ╴╵╶╷ ╘╧╛╙╨╜ ┕┷┙", d, d);
    s.put_str(0, 4, "▀▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐░▒▓▔▕▖▗▘▙▚▛▜▝▞▟", d, d);
    s.put_str(0, 5, "⠁⠃⠇⡇⣇⣧⣷⣿ 🬀🬁🬂🬃🬄🬅🬆🬇🬈🬉🬊🬋", d, d);
    let pl = |bg: u8, fg: u8| (CellColor::Palette(fg), CellColor::Palette(bg));
    let (f, b) = pl(4, 0);
    s.put_str(0, 6, " main ", f, b);
    s.put_str(
        6,
        6,
        "\u{E0B0}",
        CellColor::Palette(4),
        CellColor::Palette(2),
    );
    s.put_str(7, 6, " ok ", f, CellColor::Palette(2));
    s.put_str(
        11,
        6,
        "\u{E0B0}\u{E0B1} \u{E0B3}\u{E0B2}\u{E0B4}\u{E0B6}",
        CellColor::Palette(2),
        d,
    );
    put_wide(&mut s, 0, 7, "Hello ");
    put_wide(&mut s, 6, 7, "中文字");
    put_wide(&mut s, 13, 7, " ＡＢ 😀 \u{10FFFD}");
    let styles = [
        ("bold", CellAttrs::BOLD),
        ("faint", CellAttrs::FAINT),
        ("italic", CellAttrs::ITALIC),
        ("under", CellAttrs::UNDERLINE),
        ("strike", CellAttrs::STRIKETHROUGH),
        ("over", CellAttrs::OVERLINE),
        ("inv", CellAttrs::INVERSE),
        ("hid", CellAttrs::INVISIBLE),
    ];
    let mut x = 0;
    for (name, attrs) in styles {
        for ch in name.chars() {
            if let Some(cell) = s.cell_mut(x, 8) {
                *cell = RenderCell {
                    attrs,
                    fg: CellColor::Palette(3),
                    ..RenderCell::with_text(ch)
                };
            }
            x += 1;
        }
        x += 1;
    }
    for i in 0..16u8 {
        s.put_str(u16::from(i) * 2, 9, "██", CellColor::Palette(i), d);
        s.put_str(
            u16::from(i) * 2,
            10,
            "  ",
            d,
            CellColor::Palette(16 + i * 13),
        );
    }
    s.put_str(
        0,
        11,
        "truecolor",
        CellColor::Rgb(255, 128, 0),
        CellColor::Rgb(20, 40, 80),
    );
    s.put_str(0, 12, "$ cursor here:", d, d);
    s.cursor = Some(RenderCursor {
        x: 15,
        y: 12,
        visible: true,
    });
    s
}

/// Writes text, giving CJK/fullwidth/emoji characters a wide cell plus a spacer tail.
fn put_wide(s: &mut RenderScreen, mut x: u16, y: u16, text: &str) {
    for ch in text.chars() {
        let wide = matches!(u32::from(ch), 0x3000..=0x9FFF | 0xFF01..=0xFF60 | 0x1F300..=0x1FAFF);
        if let Some(cell) = s.cell_mut(x, y) {
            *cell = RenderCell {
                wide: if wide {
                    CellWidth::Wide
                } else {
                    CellWidth::Narrow
                },
                ..RenderCell::with_text(ch)
            };
        }
        if wide {
            if let Some(cell) = s.cell_mut(x + 1, y) {
                *cell = RenderCell {
                    wide: CellWidth::SpacerTail,
                    ..RenderCell::blank()
                };
            }
            x += 1;
        }
        x += 1;
    }
}
