//! Inputs that mix RFC 9980 SLH-DSA with other OpenPGP (the transition
//! case: a `Release.gpg` or an `InRelease` with an Ed25519 or RSA signature
//! beside an SLH-DSA one; a keyring with v4 certificates beside v6 ones).
//! This crate checks only SLH-DSA; what it does not check is kept as the
//! packets it was, to be handed to another verifier (GnuPG's `gpgv`) whole.
//! Packets are split, never re-encoded: a foreign packet's body is written
//! back byte for byte under an OpenPGP-format header.

use super::algorithms::slh_dsa_set;
use super::cert::Cert;
use super::error::Result;
use super::packet::{self, tag, Packet};
use super::signature::Signature;

/// Signatures split by who checks them.
#[derive(Debug, Default)]
pub struct SplitSignatures {
    /// SLH-DSA signatures (RFC 9980 public-key algorithms 32-34), read;
    /// an SLH-DSA signature this crate cannot read is in `unreadable`.
    pub ours: Vec<Signature>,
    /// SLH-DSA signature packets that did not parse, with the reason.
    pub unreadable: Vec<(Packet, String)>,
    /// Every other signature packet, as binary packets in input order.
    pub others: Vec<u8>,
    /// How many packets `others` holds.
    pub other_count: usize,
}

/// The public-key algorithm a signature packet's body names (v3: octet 15;
/// v4 and v6: octet 2), if the body is long enough.
fn signature_algorithm(body: &[u8]) -> Option<u8> {
    match body.first()? {
        3 => body.get(15).copied(),
        _ => body.get(2).copied(),
    }
}

/// Splits binary signature packets (a detached signature file, dearmored).
/// Packets other than signatures (marker, padding) are dropped; any other
/// kind is an error, as for [`super::parse_signatures`].
pub fn split_signatures(data: &[u8]) -> Result<SplitSignatures> {
    let mut out = SplitSignatures::default();
    for p in packet::parse(data)? {
        match p.tag {
            tag::MARKER | tag::PADDING => continue,
            tag::SIGNATURE => {}
            other => {
                return Err(super::error::PgpError::malformed(format!(
                    "packet type {other} where signatures were expected"
                )))
            }
        }
        if signature_algorithm(&p.body).is_some_and(|a| slh_dsa_set(a).is_some()) {
            match Signature::parse(&p.body) {
                Ok(s) => out.ours.push(s),
                Err(e) => out.unreadable.push((p, e.to_string())),
            }
        } else {
            packet::write(&mut out.others, p.tag, &p.body);
            out.other_count += 1;
        }
    }
    Ok(out)
}

/// A keyring split by who checks with it.
#[derive(Debug, Default)]
pub struct SplitKeyring {
    /// v6 certificates (and keys) this crate reads.
    pub ours: Vec<Cert>,
    /// Every other certificate (v4, v3, or a v6 one this crate cannot
    /// read), its packets as binary packets in input order.
    pub others: Vec<u8>,
    /// How many certificates `others` holds.
    pub other_count: usize,
    /// Why each v6 certificate in `others` was not read.
    pub notes: Vec<String>,
}

/// Splits a binary keyring (dearmored) into certificates: each starts at a
/// primary key packet. A v6 certificate goes to `ours` if it parses, else
/// (and every other version) to `others`.
pub fn split_keyring(data: &[u8]) -> Result<SplitKeyring> {
    let mut out = SplitKeyring::default();
    let mut group: Vec<Packet> = Vec::new();
    let flush = |group: &mut Vec<Packet>, out: &mut SplitKeyring| {
        let Some(first) = group.first() else {
            return;
        };
        let mut bytes = Vec::new();
        for p in group.iter() {
            packet::write(&mut bytes, p.tag, &p.body);
        }
        if first.body.first() == Some(&6) {
            match Cert::parse_all(&bytes) {
                Ok(certs) => {
                    out.ours.extend(certs);
                    group.clear();
                    return;
                }
                Err(e) => out
                    .notes
                    .push(format!("a v6 certificate was not read: {e}")),
            }
        }
        out.others.extend_from_slice(&bytes);
        out.other_count += 1;
        group.clear();
    };
    for p in packet::parse(data)? {
        if matches!(p.tag, tag::PUBLIC_KEY | tag::SECRET_KEY) {
            flush(&mut group, &mut out);
        }
        if group.is_empty() && !matches!(p.tag, tag::PUBLIC_KEY | tag::SECRET_KEY) {
            // Packets before any primary key (a stray trust or marker
            // packet) belong to no certificate.
            continue;
        }
        group.push(p);
    }
    flush(&mut group, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig_packet(version: u8, algo: u8) -> Vec<u8> {
        let mut body = vec![version, 0, algo, 8];
        body.extend_from_slice(&[0; 8]);
        let mut out = Vec::new();
        packet::write(&mut out, tag::SIGNATURE, &body);
        out
    }

    #[test]
    fn classic_signatures_are_kept_as_they_were() {
        let mut data = sig_packet(4, 22);
        data.extend(sig_packet(4, 1));
        let split = split_signatures(&data).unwrap();
        assert!(split.ours.is_empty() && split.unreadable.is_empty());
        assert_eq!(split.other_count, 2);
        assert_eq!(split.others, data);
    }

    #[test]
    fn a_broken_slh_dsa_signature_is_reported_not_handed_on() {
        let data = sig_packet(6, 33);
        let split = split_signatures(&data).unwrap();
        assert_eq!(split.unreadable.len(), 1);
        assert_eq!(split.other_count, 0);
    }

    #[test]
    fn other_packets_are_refused() {
        let mut data = Vec::new();
        packet::write(&mut data, tag::LITERAL, b"b\0\0\0\0\0x");
        assert!(split_signatures(&data).is_err());
    }

    #[test]
    fn v4_certificates_go_to_others() {
        let mut data = Vec::new();
        packet::write(&mut data, tag::PUBLIC_KEY, &[4, 0, 0, 0, 0, 22, 1, 2]);
        packet::write(&mut data, tag::USER_ID, b"A <a@example.org>");
        packet::write(&mut data, tag::PUBLIC_KEY, &[4, 0, 0, 0, 0, 1, 3]);
        let split = split_keyring(&data).unwrap();
        assert!(split.ours.is_empty());
        assert_eq!(split.other_count, 2);
        assert_eq!(split.others, data);
    }
}
