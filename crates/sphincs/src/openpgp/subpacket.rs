//! RFC 9580 §5.2.3.7: signature subpackets, kept as plain data (type,
//! critical bit, body) with readers for the ones this module acts on.

use super::error::{PgpError, Result};
use super::packet::{write_length, Reader};

/// Subpacket type IDs (§5.2.3.7, Table 5) this module reads or writes.
pub mod kind {
    #![allow(missing_docs)]
    pub const CREATION_TIME: u8 = 2;
    pub const EXPIRATION_TIME: u8 = 3;
    pub const EXPORTABLE: u8 = 4;
    pub const REVOCABLE: u8 = 7;
    pub const KEY_EXPIRATION_TIME: u8 = 9;
    pub const PREFERRED_SYMMETRIC: u8 = 11;
    pub const ISSUER_KEY_ID: u8 = 16;
    pub const NOTATION: u8 = 20;
    pub const PREFERRED_HASH: u8 = 21;
    pub const PREFERRED_COMPRESSION: u8 = 22;
    pub const KEY_SERVER_PREFERENCES: u8 = 23;
    pub const PRIMARY_USER_ID: u8 = 25;
    pub const POLICY_URI: u8 = 26;
    pub const KEY_FLAGS: u8 = 27;
    pub const SIGNERS_USER_ID: u8 = 28;
    pub const REASON_FOR_REVOCATION: u8 = 29;
    pub const FEATURES: u8 = 30;
    pub const EMBEDDED_SIGNATURE: u8 = 32;
    pub const ISSUER_FINGERPRINT: u8 = 33;
    pub const INTENDED_RECIPIENT: u8 = 35;
    pub const PREFERRED_AEAD: u8 = 39;
}

/// Types whose meaning this module knows, so that a critical one is not a
/// reason to reject a signature (§5.2.3.7: an unknown critical subpacket
/// makes the signature invalid).
const UNDERSTOOD: [u8; 19] = [
    kind::CREATION_TIME,
    kind::EXPIRATION_TIME,
    kind::EXPORTABLE,
    kind::REVOCABLE,
    kind::KEY_EXPIRATION_TIME,
    kind::PREFERRED_SYMMETRIC,
    kind::ISSUER_KEY_ID,
    kind::PREFERRED_HASH,
    kind::PREFERRED_COMPRESSION,
    kind::KEY_SERVER_PREFERENCES,
    kind::PRIMARY_USER_ID,
    kind::POLICY_URI,
    kind::KEY_FLAGS,
    kind::SIGNERS_USER_ID,
    kind::REASON_FOR_REVOCATION,
    kind::FEATURES,
    kind::EMBEDDED_SIGNATURE,
    kind::ISSUER_FINGERPRINT,
    kind::PREFERRED_AEAD,
];

/// The most subpackets one area may hold.
pub const MAX_SUBPACKETS: usize = 512;

/// One subpacket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subpacket {
    /// The critical bit.
    pub critical: bool,
    /// The type ID (without the critical bit).
    pub kind: u8,
    /// The body.
    pub body: Vec<u8>,
}

impl Subpacket {
    /// A non-critical subpacket.
    pub fn new(kind: u8, body: Vec<u8>) -> Self {
        Subpacket {
            critical: false,
            kind,
            body,
        }
    }
    /// A critical subpacket.
    pub fn critical(kind: u8, body: Vec<u8>) -> Self {
        Subpacket {
            critical: true,
            kind,
            body,
        }
    }
    /// True if it is critical and not one this module understands.
    pub fn is_unknown_critical(&self) -> bool {
        self.critical && !UNDERSTOOD.contains(&self.kind)
    }
    /// A four-octet time or duration.
    pub fn as_u32(&self) -> Option<u32> {
        let b: [u8; 4] = self.body.as_slice().try_into().ok()?;
        Some(u32::from_be_bytes(b))
    }
}

/// Parses a subpacket area.
pub fn parse_area(area: &[u8]) -> Result<Vec<Subpacket>> {
    let mut r = Reader::new(area, "a signature subpacket");
    let mut out = Vec::new();
    while !r.is_empty() {
        if out.len() == MAX_SUBPACKETS {
            return Err(PgpError::malformed(format!(
                "more than {MAX_SUBPACKETS} subpackets in one area"
            )));
        }
        let l0 = r.u8()? as usize;
        let len = match l0 {
            0..=191 => l0,
            192..=254 => ((l0 - 192) << 8) + r.u8()? as usize + 192,
            _ => r.u32()? as usize,
        };
        if len == 0 {
            return Err(PgpError::malformed(
                "a signature subpacket has length 0 (no type octet)",
            ));
        }
        let body = r.bytes(len)?;
        out.push(Subpacket {
            critical: body[0] & 0x80 != 0,
            kind: body[0] & 0x7f,
            body: body[1..].to_vec(),
        });
    }
    Ok(out)
}

/// Writes a subpacket area (without its length).
pub fn write_area(subs: &[Subpacket]) -> Vec<u8> {
    let mut out = Vec::new();
    for s in subs {
        write_length(&mut out, s.body.len() + 1);
        out.push(s.kind | if s.critical { 0x80 } else { 0 });
        out.extend_from_slice(&s.body);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_round_trip() {
        let subs = vec![
            Subpacket::critical(kind::CREATION_TIME, vec![1, 2, 3, 4]),
            Subpacket::new(kind::NOTATION, vec![9; 300]),
        ];
        let area = write_area(&subs);
        assert_eq!(parse_area(&area).unwrap(), subs);
        assert!(parse_area(&[5, 2, 0]).is_err());
        assert!(parse_area(&[0]).is_err());
        assert!(!subs[1].critical && !subs[1].is_unknown_critical());
        assert!(Subpacket::critical(kind::NOTATION, vec![]).is_unknown_critical());
    }
}
