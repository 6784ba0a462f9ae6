//! Recording and playback: `rec`, `play`, `tape`, fonts and windows of time.

mod play;
mod rec;
mod rec_contract;
mod rec_decoded;
mod rec_font;
mod rec_svg;
mod rec_window;
mod tape;
mod tape_record;
