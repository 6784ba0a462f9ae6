//! phux-player: paced playback of a cast into a pane.
