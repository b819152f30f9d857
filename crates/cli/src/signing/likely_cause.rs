//! What an invalid signature most likely means, where that can be told. One
//! signature alone cannot show whether the key or the data is not the one
//! signed (either makes the check fail the same way), but the other files
//! checked with the same key can, and for a single file so can the times
//! the file and its signature were last written.

use std::path::Path;
use std::time::SystemTime;

use crate::files::quote;

/// The likely cause of `mismatched` signatures that did not verify among
/// `checked` files whose signatures were all checked with one key (the rest
/// verified). `one` is the file and its signature when a single file was
/// checked. `None` where nothing can be told: in particular one file not
/// changed since its signature was written may still be the wrong file.
pub fn likely_cause(
    mismatched: usize,
    checked: usize,
    one: Option<(&Path, &Path)>,
) -> Option<String> {
    if mismatched == 0 {
        return None;
    }
    if mismatched < checked {
        let verified = checked - mismatched;
        return Some(format!(
            "{verified} of {checked} verify with this key, so the data (or the signature file) of the rest, not the key, is the likely cause"
        ));
    }
    if checked > 1 {
        return Some(ANOTHER_KEY.to_string());
    }
    // One file: only a file written after its signature tells something (a
    // file older than the signature may still not be the one signed).
    let (file, sig) = one?;
    (modified(file)? > modified(sig)?).then(|| {
        format!(
            "{} was changed after {} was written, so a change to the data is the likely cause",
            quote::name(&file),
            quote::name(&sig)
        )
    })
}

const ANOTHER_KEY: &str =
    "none verifies with this key, so a key other than the signing one (one from before a key rotation, say) is the likely cause";

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tell_before_times() {
        assert_eq!(likely_cause(0, 3, None), None);
        let some = likely_cause(1, 3, None).unwrap();
        assert!(some.starts_with("2 of 3 verify with this key"), "{some}");
        let all = likely_cause(3, 3, None).unwrap();
        assert!(all.starts_with("none verifies with this key"), "{all}");
        // One file and no times to read: nothing can be told.
        let missing = Path::new("/nonexistent/sphincs-likely-cause");
        assert_eq!(likely_cause(1, 1, Some((missing, missing))), None);
    }
}
