//! The CLI's ACVP prompt reader (`sphincs acvp`) on arbitrary bytes: JSON
//! parsing, then `acvp::respond`, which walks the prompt and runs keyGen,
//! sigGen or sigVer. It must never panic: bad prompts are errors.
//!
//! The `acvp` module lives in the CLI binary crate, which has no library
//! target; rather than restructure the CLI, this target compiles the CLI's own
//! source files as modules (`#[path]`), with the same module names, so
//! `crate::hex`, `crate::files::…` and `crate::error` resolve as they do in
//! the CLI.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../crates/cli/src/error.rs"]
mod error;
#[allow(dead_code)]
#[path = "../../crates/cli/src/hex.rs"]
mod hex;
#[allow(dead_code)]
#[path = "../../crates/cli/src/say.rs"]
mod say;
/// The CLI's files/ and vectors/ folders, as far as `acvp` needs them.
#[allow(dead_code)]
#[path = "../../crates/cli/src/files"]
mod files {
    pub mod quote;
    pub mod read;
    pub mod write;
}
#[allow(dead_code)]
#[path = "../../crates/cli/src/vectors"]
mod vectors {
    pub mod acvp;
}
use vectors::acvp;

fuzz_target!(|data: &[u8]| {
    // `sphincs acvp` reads the whole file and parses it the same way.
    if let Ok(json) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = acvp::respond(&json);
    }
});
