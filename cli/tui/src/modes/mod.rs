//! The modes that take the keyboard from the pane, each a small component that handles its
//! keys and draws itself as a layer over the composed window.

pub mod copy;
pub mod help;
pub mod picker;
pub mod prompt;

pub use copy::{CopyMode, CopyOutcome};
pub use help::HelpOverlay;
pub use picker::{PickTarget, Picker, PickerItem, PickerOutcome};
pub use prompt::{Prompt, PromptOutcome, PromptPurpose};

/// Which mode has the keyboard.
pub enum Mode {
    /// Keys go to the focused pane; the prefix starts a binding.
    Normal,
    Help(HelpOverlay),
    Prompt(Prompt),
    Copy(Box<CopyMode>),
    Picker(Box<Picker>),
}
