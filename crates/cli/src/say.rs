//! Status lines on standard output ("valid signature", "FILE: signed, …",
//! fingerprints), which `-q/--quiet` silences. Errors and data (signatures,
//! keys written to standard output) are not status lines.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::CliError;
use crate::files::write::write_stdout;

static QUIET: AtomicBool = AtomicBool::new(false);

/// Set once, from `-q/--quiet`, before the command runs.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `-q/--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Prints status text unless quiet.
pub fn status(text: &str) -> Result<(), CliError> {
    if quiet() {
        return Ok(());
    }
    write_stdout(text.as_bytes(), false)
}
