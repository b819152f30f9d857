//! RFC 9580 §6: ASCII armor. Written as §6.2 recommends for v6 (64-column
//! Base64, no CRC24 line, no headers); read leniently but within bounds: the
//! CRC24 line and the armor headers are ignored (§6.1 says a reader must not
//! reject for either), lines longer than [`MAX_LINE`] are refused.

use super::error::{PgpError, Result};
use base64ct::{Base64, Encoding};

/// The longest armor line read (RFC 9580 writes at most 76 characters).
pub const MAX_LINE: usize = 4096;

/// What an armored block holds (its `BEGIN PGP …` label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `PGP PUBLIC KEY BLOCK`: certificates.
    PublicKey,
    /// `PGP PRIVATE KEY BLOCK`: transferable secret keys.
    PrivateKey,
    /// `PGP SIGNATURE`: detached signatures.
    Signature,
    /// `PGP MESSAGE`: OpenPGP messages (inline-signed data).
    Message,
}

impl Kind {
    /// The label between `BEGIN ` and the closing dashes.
    pub fn label(self) -> &'static str {
        match self {
            Kind::PublicKey => "PGP PUBLIC KEY BLOCK",
            Kind::PrivateKey => "PGP PRIVATE KEY BLOCK",
            Kind::Signature => "PGP SIGNATURE",
            Kind::Message => "PGP MESSAGE",
        }
    }
    fn from_label(label: &str) -> Option<Kind> {
        [
            Kind::PublicKey,
            Kind::PrivateKey,
            Kind::Signature,
            Kind::Message,
        ]
        .into_iter()
        .find(|k| k.label() == label)
    }
    /// The kind for binary OpenPGP data, from its first packet's tag.
    pub fn of_packets(data: &[u8]) -> Kind {
        let tag = match data.first() {
            Some(&b) if b & 0x40 != 0 => b & 0x3f,
            Some(&b) => (b >> 2) & 0x0f,
            None => 0,
        };
        match tag {
            super::packet::tag::SECRET_KEY => Kind::PrivateKey,
            super::packet::tag::PUBLIC_KEY => Kind::PublicKey,
            super::packet::tag::SIGNATURE => Kind::Signature,
            _ => Kind::Message,
        }
    }
}

/// Armors `data` (§6.2): BEGIN line, blank line, Base64 in 64-column lines,
/// END line; no CRC24.
pub fn encode(kind: Kind, data: &[u8]) -> String {
    let b64 = Base64::encode_string(data);
    let mut out = String::with_capacity(b64.len() + b64.len() / 64 + 80);
    out.push_str("-----BEGIN ");
    out.push_str(kind.label());
    out.push_str("-----\n\n");
    for chunk in b64.as_bytes().chunks(64) {
        // Base64 output is ASCII.
        out.push_str(core::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out.push_str("-----END ");
    out.push_str(kind.label());
    out.push_str("-----\n");
    out
}

/// True if `data` (after leading white space) starts an armored block.
pub fn is_armored(data: &[u8]) -> bool {
    let start = data
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(data.len());
    data[start..].starts_with(b"-----BEGIN PGP ")
}

/// Lines of `data` without their line endings; an error for a line over
/// [`MAX_LINE`].
pub(crate) fn lines(data: &[u8]) -> impl Iterator<Item = Result<&[u8]>> {
    data.split(|&b| b == b'\n').map(|l| {
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        if l.len() > MAX_LINE {
            Err(PgpError::malformed(format!(
                "an armor line is {} characters long; at most {MAX_LINE} are read",
                l.len()
            )))
        } else {
            Ok(l)
        }
    })
}

fn trim_end(l: &[u8]) -> &[u8] {
    let end = l
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &l[..end]
}

/// Decodes the first armored block in `data`: its kind and its bytes.
pub fn decode(data: &[u8]) -> Result<(Kind, Vec<u8>)> {
    decode_block(data).map(|(kind, bytes, _)| (kind, bytes))
}

/// Decodes every armored block in `data` and joins their bytes: a keyring
/// made by concatenating armored certificates (`cat a.asc b.asc > KEYS`,
/// as Apache projects publish), text between the blocks skipped as gpg
/// skips it. The blocks must be of one kind (public and private key blocks
/// count as one: a keyring may mix them).
pub fn decode_all(data: &[u8]) -> Result<(Kind, Vec<u8>)> {
    let key = |k: Kind| matches!(k, Kind::PublicKey | Kind::PrivateKey);
    let (kind, mut out, mut pos) = decode_block(data)?;
    while let Some(start) = next_begin(&data[pos..]) {
        let (k, bytes, used) = decode_block(&data[pos + start..])?;
        if k != kind && !(key(k) && key(kind)) {
            return Err(PgpError::malformed(format!(
                "the input holds a {} block after a {} block; one input holds one kind",
                k.label(),
                kind.label()
            )));
        }
        out.extend_from_slice(&bytes);
        pos += start + used;
    }
    Ok((kind, out))
}

/// The offset of the next line that starts an armored block.
fn next_begin(data: &[u8]) -> Option<usize> {
    let mut at = 0;
    for line in data.split(|&b| b == b'\n') {
        if line.starts_with(b"-----BEGIN PGP ") {
            return Some(at);
        }
        at += line.len() + 1;
    }
    None
}

/// The first armored block: its kind, its bytes, and how many bytes of
/// `data` it took (through its END line).
fn decode_block(data: &[u8]) -> Result<(Kind, Vec<u8>, usize)> {
    let mut used = 0;
    let mut it = lines(data).inspect(|l| {
        // Each line and its '\n' (a CR, if any, was stripped from it).
        if let Ok(l) = l {
            used = offset_after(data, l);
        }
    });
    let label = loop {
        let line = match it.next() {
            Some(l) => trim_end(l?),
            None => return Err(PgpError::malformed("no '-----BEGIN PGP …-----' armor line")),
        };
        if line.is_empty() {
            continue;
        }
        let label = line
            .strip_prefix(b"-----BEGIN ")
            .and_then(|l| l.strip_suffix(b"-----"))
            .ok_or_else(|| {
                PgpError::malformed("the input does not start with an armor BEGIN line")
            })?;
        break String::from_utf8_lossy(label).into_owned();
    };
    let kind = Kind::from_label(&label).ok_or_else(|| {
        PgpError::unsupported(format!(
            "armor of kind {label:?} is not a key, signature or message"
        ))
    })?;
    let end_line = format!("-----END {label}-----");
    let mut b64 = Vec::new();
    let mut in_headers = true;
    let mut ended = false;
    for line in it {
        let line = trim_end(line?);
        if line == end_line.as_bytes() {
            ended = true;
            break;
        }
        if in_headers {
            // Armor headers ("Key: value") run to the first blank line; a
            // writer that has none may also omit the blank line.
            if line.is_empty() {
                in_headers = false;
                continue;
            }
            if line.windows(2).any(|w| w == b": ") {
                continue;
            }
            in_headers = false;
        }
        if line.first() == Some(&b'=') && line.len() == 5 {
            continue; // the optional CRC24 line (§6.1): not checked
        }
        b64.extend(line.iter().filter(|b| !b.is_ascii_whitespace()));
    }
    if !ended {
        return Err(PgpError::malformed(format!("no '{end_line}' line")));
    }
    let bytes = Base64::decode_vec(core::str::from_utf8(&b64).unwrap_or("!"))
        .map_err(|_| PgpError::malformed("the armored block is not valid Base64"))?;
    Ok((kind, bytes, used.min(data.len())))
}

/// The offset in `data` just past the line `line` (a slice of `data`) and
/// its line ending.
fn offset_after(data: &[u8], line: &[u8]) -> usize {
    let end = line.as_ptr() as usize - data.as_ptr() as usize + line.len();
    let rest = &data[end..];
    end + if rest.starts_with(b"\r\n") {
        2
    } else {
        usize::from(rest.starts_with(b"\n"))
    }
}

/// The binary form of `data`: decoded if armored, else as it is.
pub fn dearmor(data: &[u8]) -> Result<Vec<u8>> {
    if is_armored(data) {
        Ok(decode_all(data)?.1)
    } else {
        Ok(data.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_label() {
        let data: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let text = encode(Kind::Signature, &data);
        assert!(text
            .lines()
            .all(|l| l.len() <= 64 || l.starts_with("-----")));
        assert_eq!(decode(text.as_bytes()).unwrap(), (Kind::Signature, data));
    }

    #[test]
    fn crc_and_headers_are_ignored() {
        let text =
            "-----BEGIN PGP MESSAGE-----\nComment: x\n\nAAEC\n=AAAA\n-----END PGP MESSAGE-----\n";
        assert_eq!(decode(text.as_bytes()).unwrap().1, vec![0, 1, 2]);
    }

    #[test]
    fn bad_armor_is_refused() {
        assert!(decode(b"-----BEGIN PGP MESSAGE-----\n\nAAEC\n").is_err());
        assert!(decode(b"-----BEGIN PGP MESSAGE-----\n\nA!EC\n-----END PGP MESSAGE-----").is_err());
        assert!(decode(b"-----BEGIN PGP FOO-----\n\n-----END PGP FOO-----").is_err());
        let long = format!(
            "-----BEGIN PGP MESSAGE-----\n\n{}\n-----END PGP MESSAGE-----",
            "A".repeat(MAX_LINE + 4)
        );
        assert!(decode(long.as_bytes()).is_err());
    }
}
