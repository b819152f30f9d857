//! The last error message of each thread: what `sphincs_strerror` cannot say
//! (which length was wrong, which name is unknown, why a PEM was refused).
//!
//! A status code alone is all a caller needs to branch on; a person reading
//! a log needs the core's sentence, as the CLI prints it and Python raises
//! it. The sentence is kept per thread (a C `errno`-style contract, with no
//! lock and no state shared between threads): every status-returning entry
//! point resets it on entry and sets it when it fails.
//!
//! This module knows no status codes (they are plain `c_int`s here), so the
//! status module can note the core's text without an import circle.

use core::ffi::{c_char, c_int};
use std::cell::RefCell;
use std::ffi::CString;

/// A status code with the core's text of the error behind it.
pub(crate) type Noted = Option<(c_int, String)>;

struct State {
    /// The core's text for the error most recently turned into a status
    /// during the current call, with that status: the call's failure uses it
    /// only if it fails with the same status (an error the call recovered
    /// from must not describe a later, different failure).
    noted: Noted,
    /// What `sphincs_last_error_message` returns: empty after a success.
    message: CString,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State { noted: None, message: CString::default() });
}

/// Runs `f` on this thread's state; a thread being torn down (its
/// thread-local already destroyed) has no message to keep.
fn with<T>(f: impl FnOnce(&mut State) -> T) -> Option<T> {
    STATE.try_with(|s| f(&mut s.borrow_mut())).ok()
}

/// Notes the core's description of an error that becomes status `code`.
pub(crate) fn note(code: c_int, text: String) {
    with(|s| s.noted = Some((code, text)));
}

/// What a worker thread noted (a stream's core runs on one), to hand to the
/// caller's thread with [`renote`].
pub(crate) fn take_noted() -> Noted {
    with(|s| s.noted.take()).flatten()
}

/// Notes on this thread what another thread noted.
pub(crate) fn renote(noted: Noted) {
    if let Some((code, text)) = noted {
        note(code, text);
    }
}

/// A status-returning entry point starts: nothing noted yet. (An entry
/// point called by another keeps the outer call's notes: it starts from
/// the same empty slate and only adds to it.)
pub(crate) fn begin() {
    with(|s| s.noted = None);
}

/// A status-returning entry point ends with `code` (0 = success): the
/// message becomes empty on success, else the noted text of this status,
/// else `generic` (the status's own sentence, for failures the library
/// finds itself: a NULL pointer, a short buffer).
pub(crate) fn finish(code: c_int, generic: &str) {
    with(|s| {
        let text = match &s.noted {
            _ if code == 0 => String::new(),
            Some((noted, text)) if *noted == code => text.clone(),
            _ => generic.trim_end_matches('\0').to_owned(),
        };
        // A NUL inside the text (from bytes of the caller's input) would cut
        // the C string short: shown as '?' instead.
        s.message = CString::new(text.replace('\0', "?")).unwrap_or_default();
    });
}

/// The message of the last call on this thread that returned a
/// `sphincs_status` (or, for the NIST-API functions, -1 or 0), in English:
/// for a failure the library's description of what went wrong, with the
/// details the status code cannot carry (the wrong length and the one
/// needed, the name that is no parameter set, why a PEM key was refused),
/// as the `sphincs` CLI and the Python package report it; for a failure
/// the library finds before the core is called (a NULL pointer, a short
/// buffer) the status's `sphincs_strerror` line; an empty string after a
/// success or before any call.
///
/// Each thread has its own message: a call on one thread never changes
/// another thread's. The string belongs to the library and stays valid,
/// unchanged, until the next such call on the same thread (or the
/// thread's end); copy it to keep it longer. Calls that return no status
/// (`sphincs_strerror`, `sphincs_version`, `sphincs_alg_count`,
/// `sphincs_alg_name` and the other size and name accessors, the `_free`
/// functions, this one) leave it as it is. Never NULL; do not free.
#[no_mangle]
pub extern "C" fn sphincs_last_error_message() -> *const c_char {
    // This thread's CString lives in its thread-local until the next
    // `finish` on this thread replaces it: that is the documented lifetime.
    crate::panic_guard::guard_value(c"".as_ptr(), || {
        with(|s| s.message.as_ptr()).unwrap_or(c"".as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn current() -> String {
        // SAFETY: the library's own NUL-terminated string, read before any other call.
        unsafe { core::ffi::CStr::from_ptr(sphincs_last_error_message()) }
            .to_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn a_failure_shows_the_text_noted_for_its_own_status() {
        begin();
        note(9, "malformed key: why".into());
        finish(9, "generic line\0");
        assert_eq!(current(), "malformed key: why");
        // Noted for another status (an error the call recovered from): the generic line.
        begin();
        note(9, "malformed key: earlier".into());
        finish(2, "a required pointer argument is NULL\0");
        assert_eq!(current(), "a required pointer argument is NULL");
        // A NUL in the text cannot cut the message short.
        begin();
        note(4, "unknown algorithm \"a\0b\"".into());
        finish(4, "");
        assert_eq!(current(), "unknown algorithm \"a?b\"");
        begin();
        finish(0, "success\0");
        assert_eq!(current(), "");
    }

    #[test]
    fn a_worker_threads_note_reaches_the_caller() {
        let noted = std::thread::spawn(|| {
            note(1, "signature is 5 bytes".into());
            take_noted()
        })
        .join()
        .unwrap();
        begin();
        renote(noted);
        finish(1, "invalid signature\0");
        assert_eq!(current(), "signature is 5 bytes");
    }
}
