//! RFC 9580 §4: packet framing. One bounded parser from bytes to packets
//! (both header formats, partial body lengths where §4.2.1.4 allows them)
//! and one writer (the OpenPGP format, §4.2.1).

use super::error::{PgpError, Result};

/// Packet tags (RFC 9580 §5, Table 3) this implementation reads or writes.
pub mod tag {
    /// Signature packet (§5.2).
    pub const SIGNATURE: u8 = 2;
    /// One-Pass Signature packet (§5.4).
    pub const ONE_PASS_SIGNATURE: u8 = 4;
    /// Secret-Key packet (§5.5.1.3).
    pub const SECRET_KEY: u8 = 5;
    /// Public-Key packet (§5.5.1.1).
    pub const PUBLIC_KEY: u8 = 6;
    /// Secret-Subkey packet (§5.5.1.4).
    pub const SECRET_SUBKEY: u8 = 7;
    /// Compressed Data packet (§5.6): not supported.
    pub const COMPRESSED: u8 = 8;
    /// Marker packet (§5.8): ignored.
    pub const MARKER: u8 = 10;
    /// Literal Data packet (§5.9).
    pub const LITERAL: u8 = 11;
    /// Trust packet (§5.10): ignored.
    pub const TRUST: u8 = 12;
    /// User ID packet (§5.11).
    pub const USER_ID: u8 = 13;
    /// Public-Subkey packet (§5.5.1.2).
    pub const PUBLIC_SUBKEY: u8 = 14;
    /// User Attribute packet (§5.12): kept, not interpreted.
    pub const USER_ATTRIBUTE: u8 = 17;
    /// Padding packet (§5.14): ignored.
    pub const PADDING: u8 = 21;
}

/// The most packets one input may hold (a certificate has a few dozen).
pub const MAX_PACKETS: usize = 10_000;

/// One packet: its tag and its body (partial bodies joined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The packet type ID.
    pub tag: u8,
    /// The body, after the header.
    pub body: Vec<u8>,
}

/// Splits `data` into packets. Every length is checked against the bytes
/// that remain, so memory stays within the input's size; at most
/// [`MAX_PACKETS`] packets.
pub fn parse(data: &[u8]) -> Result<Vec<Packet>> {
    let mut packets = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        if packets.len() == MAX_PACKETS {
            return Err(PgpError::malformed(format!(
                "more than {MAX_PACKETS} packets in one input"
            )));
        }
        let (packet, next) = parse_one(data, pos)?;
        packets.push(packet);
        pos = next;
    }
    Ok(packets)
}

fn take<'a>(data: &'a [u8], pos: usize, len: usize, what: &str) -> Result<&'a [u8]> {
    data.get(pos..pos.saturating_add(len))
        .ok_or_else(|| PgpError::malformed(format!("{what} runs past the end of the input")))
}

/// Reads a new-format body length at `pos`: the length (or `Err(len)` for a
/// partial body of `len` octets) and the octets it took.
fn new_length(data: &[u8], pos: usize) -> Result<(core::result::Result<usize, usize>, usize)> {
    let b = take(data, pos, 1, "a packet length")?;
    Ok(match b[0] {
        l @ 0..=191 => (Ok(l as usize), 1),
        l @ 192..=223 => {
            let b2 = take(data, pos, 2, "a packet length")?;
            (Ok(((l as usize - 192) << 8) + b2[1] as usize + 192), 2)
        }
        255 => {
            let b5 = take(data, pos, 5, "a packet length")?;
            (
                Ok(u32::from_be_bytes([b5[1], b5[2], b5[3], b5[4]]) as usize),
                5,
            )
        }
        l => (Err(1usize << (l & 0x1f)), 1),
    })
}

fn parse_one(data: &[u8], pos: usize) -> Result<(Packet, usize)> {
    let first = data[pos];
    if first & 0x80 == 0 {
        return Err(PgpError::malformed(format!(
            "byte {pos}: 0x{first:02x} is not a packet header (bit 7 is clear): not OpenPGP data"
        )));
    }
    if first & 0x40 != 0 {
        let tag = first & 0x3f;
        let mut pos = pos + 1;
        let mut body = Vec::new();
        loop {
            let (len, used) = new_length(data, pos)?;
            pos += used;
            match len {
                Ok(len) => {
                    body.extend_from_slice(take(data, pos, len, "a packet body")?);
                    return Ok((Packet { tag, body }, pos + len));
                }
                Err(part) => {
                    if !matches!(tag, tag::COMPRESSED | 9 | tag::LITERAL | 18 | 20) {
                        return Err(PgpError::malformed(format!(
                            "packet type {tag} has a partial body length, which RFC 9580 §4.2.1.4 allows only for data packets"
                        )));
                    }
                    body.extend_from_slice(take(data, pos, part, "a partial packet body")?);
                    pos += part;
                }
            }
        }
    }
    // Legacy format (§4.2.2).
    let tag = (first >> 2) & 0x0f;
    let (len, used) = match first & 3 {
        0 => (take(data, pos + 1, 1, "a packet length")?[0] as usize, 1),
        1 => {
            let b = take(data, pos + 1, 2, "a packet length")?;
            (u16::from_be_bytes([b[0], b[1]]) as usize, 2)
        }
        2 => {
            let b = take(data, pos + 1, 4, "a packet length")?;
            (u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize, 4)
        }
        _ => (data.len() - pos - 1, 0),
    };
    let start = pos + 1 + used;
    let body = take(data, start, len, "a packet body")?.to_vec();
    Ok((Packet { tag, body }, start + len))
}

/// Appends a length in the one-, two- or five-octet form (§4.2.1.1-3),
/// as packets and subpackets use it.
pub fn write_length(out: &mut Vec<u8>, len: usize) {
    if len < 192 {
        out.push(len as u8);
    } else if len < 8384 {
        let l = len - 192;
        out.push((l >> 8) as u8 + 192);
        out.push(l as u8);
    } else {
        out.push(255);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    }
}

/// Appends one packet in the OpenPGP format (§4.2.1).
pub fn write(out: &mut Vec<u8>, tag: u8, body: &[u8]) {
    out.push(0xc0 | tag);
    write_length(out, body.len());
    out.extend_from_slice(body);
}

/// A cursor over a packet body that fails with the packet's name when the
/// body is short.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8], what: &'static str) -> Self {
        Reader { data, pos: 0, what }
    }
    pub(crate) fn bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(len).filter(|&e| e <= self.data.len());
        let end =
            end.ok_or_else(|| PgpError::malformed(format!("{} packet is truncated", self.what)))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }
    pub(crate) fn u32(&mut self) -> Result<u32> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let s = &self.data[self.pos..];
        self.pos = self.data.len();
        s
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.pos == self.data.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_round_trip_in_every_form() {
        for len in [0, 1, 191, 192, 1000, 8383, 8384, 70_000] {
            let body = vec![7u8; len];
            let mut out = Vec::new();
            write(&mut out, tag::SIGNATURE, &body);
            let packets = parse(&out).unwrap();
            assert_eq!(
                packets,
                vec![Packet {
                    tag: tag::SIGNATURE,
                    body
                }]
            );
        }
    }

    #[test]
    fn partial_bodies_join_and_are_refused_outside_data_packets() {
        // 512-octet partial, then a 3-octet final part, literal data.
        let mut data = vec![0xc0 | tag::LITERAL, 224 + 9];
        data.extend_from_slice(&[1u8; 512]);
        data.extend_from_slice(&[3, 2, 2, 2]);
        let p = parse(&data).unwrap();
        assert_eq!(p[0].body.len(), 515);
        data[0] = 0xc0 | tag::SIGNATURE;
        assert!(parse(&data).is_err());
    }

    #[test]
    fn truncated_and_non_openpgp_inputs_are_errors() {
        assert!(parse(&[0xc2, 10, 1, 2]).is_err());
        assert!(parse(&[0xc2, 255, 0xff, 0xff, 0xff, 0xff]).is_err());
        assert!(parse(b"hello").is_err());
        assert!(parse(&[0xc2]).is_err());
    }

    #[test]
    fn legacy_headers_parse() {
        // Legacy tag 2, one-octet length.
        let p = parse(&[0x88, 2, 9, 9]).unwrap();
        assert_eq!(
            p[0],
            Packet {
                tag: 2,
                body: vec![9, 9]
            }
        );
    }
}
