//! File names quoted for status and error lines. A leaf: the error type,
//! the file reader and the status lines all quote through it.

/// A file name as it goes into a status or error line: as it is when it is
/// plain text, else in double quotes with C-style escapes (`\n`, `\t`,
/// `\x1b`, `\"`, `\\`, bytes that are not UTF-8 as `\xNN`, and the Unicode
/// controls that reorder text as `\u{202e}`), as `git` quotes paths. A name
/// can then neither start a line of its own nor drive the terminal.
pub fn name(path: &(impl AsRef<std::path::Path> + ?Sized)) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_ref().as_os_str().as_bytes();
    let reorders = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    let plain = std::str::from_utf8(bytes).is_ok_and(|s| {
        !s.chars()
            .any(|c| c.is_control() || c == '"' || c == '\\' || reorders(c))
    });
    if plain {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() && (c as u32) < 0x100 => {
                    out.push_str(&format!("\\x{:02x}", c as u32))
                }
                c if c.is_control() || reorders(c) => {
                    out.push_str(&format!("\\u{{{:x}}}", c as u32))
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// Signer-chosen text (a pin as typed, a value from a file) as it goes into
/// a line: as it is when plain, else quoted and escaped as [`name`] does.
pub fn text(s: &str) -> String {
    name(s)
}

/// A User ID (signer-chosen text) as `verify` and `key show` print it:
/// always in double quotes, with the escapes of [`name`] inside, so a
/// newline cannot forge a line, ESC cannot reach the terminal, and no
/// control reorders what is shown.
pub fn user_id(uid: &str) -> String {
    let q = name(uid);
    if q.starts_with('"') {
        q
    } else {
        format!("\"{q}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::name;

    #[test]
    fn names_are_quoted_when_not_plain() {
        assert_eq!(name("release-1.0.tar.gz"), "release-1.0.tar.gz");
        assert_eq!(name("a b/ü.txt"), "a b/ü.txt");
        assert_eq!(
            name("evil\ngood: valid signature"),
            "\"evil\\ngood: valid signature\""
        );
        assert_eq!(name("\x1b[2Jx"), "\"\\x1b[2Jx\"");
        assert_eq!(name("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(name("x\u{202e}txt.exe"), "\"x\\u{202e}txt.exe\"");
        use std::os::unix::ffi::OsStrExt;
        let raw = std::ffi::OsStr::from_bytes(b"bad\xffname");
        assert_eq!(name(raw), "\"bad\\xffname\"");
    }

    #[test]
    fn user_ids_are_always_quoted_and_escaped() {
        use super::user_id;
        assert_eq!(
            user_id("Alice <a@example.org>"),
            "\"Alice <a@example.org>\""
        );
        assert_eq!(
            user_id("Eve\nsig.tar: valid signature by \"Alice\""),
            "\"Eve\\nsig.tar: valid signature by \\\"Alice\\\"\""
        );
        assert_eq!(user_id("\x1b]0;x\x07"), "\"\\x1b]0;x\\x07\"");
        assert_eq!(user_id("a\u{202e}b"), "\"a\\u{202e}b\"");
    }
}
