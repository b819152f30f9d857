//! RFC 9580 §7: the Cleartext Signature Framework, as Debian's InRelease
//! files use it. The signed text is its lines without trailing spaces and
//! tabs, joined with CRLF, without the line ending before the signature
//! (§7.2); lines starting with '-' are dash-escaped (§7.1). We write a
//! `Hash:` header naming the signatures' hash (readers such as go-crypto
//! require one); on reading, a `Hash:` header that does not name a
//! signature's hash makes that signature fail.

use super::algorithms::HashAlgorithm;
use super::armor::{self, Kind};
use super::error::{PgpError, Result};
use super::message::{DetachedSigner, DetachedVerifier, Mode, UnlockedKey};
use super::signature::Signature;

const BEGIN: &str = "-----BEGIN PGP SIGNED MESSAGE-----";
const SIG_BEGIN: &[u8] = b"-----BEGIN PGP SIGNATURE-----";

/// The text lines of `text`: split at LF, a CR before it dropped, and no
/// empty last line after a final LF.
fn text_lines(text: &[u8]) -> Vec<&[u8]> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

fn trim_trailing_space(l: &[u8]) -> &[u8] {
    let end = l
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(0, |i| i + 1);
    &l[..end]
}

/// The octets a cleartext signature signs.
fn signed_form(lines: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(trim_trailing_space(l));
    }
    out
}

/// Clear-signs UTF-8 `text` with `keys`.
pub fn sign(keys: Vec<UnlockedKey>, text: &[u8], created: u32, threads: usize) -> Result<Vec<u8>> {
    let hashes: Vec<HashAlgorithm> = keys
        .iter()
        .map(|k| super::algorithms::signing_hash(k.public.algorithm))
        .collect();
    let lines = text_lines(text);
    let mut signer = DetachedSigner::new(keys, Mode::Text, created)?;
    signer.update(&signed_form(&lines));
    let sigs = signer.finish(threads)?;
    let mut names: Vec<&str> = hashes.iter().map(|h| h.name()).collect();
    names.dedup();
    let mut out = format!("{BEGIN}\nHash: {}\n\n", names.join(",")).into_bytes();
    for l in &lines {
        let l = trim_trailing_space(l);
        if l.first() == Some(&b'-') {
            out.extend_from_slice(b"- ");
        }
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    out.extend_from_slice(
        armor::encode(Kind::Signature, &super::message::signatures_to_bytes(&sigs)).as_bytes(),
    );
    Ok(out)
}

/// A parsed cleartext-signed message.
pub struct ClearSigned {
    /// The text as a reader sees it: each signed line and a LF.
    pub text: Vec<u8>,
    /// The octets the signatures are over.
    pub signed: Vec<u8>,
    /// The signatures.
    pub signatures: Vec<Signature>,
    /// The hashes the `Hash:` headers name (empty if there were none).
    pub hash_headers: Vec<HashAlgorithm>,
}

/// True if `data` starts (after white space) a cleartext-signed message.
pub fn is_clearsigned(data: &[u8]) -> bool {
    let start = data
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(data.len());
    data[start..].starts_with(BEGIN.as_bytes())
}

/// The message's text and headers, and its signature block's bytes.
fn parse_frame(data: &[u8]) -> Result<(ClearSigned, Vec<u8>)> {
    let mut lines = armor::lines(data);
    loop {
        match lines.next() {
            None => {
                return Err(PgpError::malformed(
                    "no '-----BEGIN PGP SIGNED MESSAGE-----' line",
                ))
            }
            Some(l) => {
                let l = l?;
                if l.trim_ascii().is_empty() {
                    continue;
                }
                if l.trim_ascii_end() != BEGIN.as_bytes() {
                    return Err(PgpError::malformed(
                        "the input does not start a cleartext-signed message",
                    ));
                }
                break;
            }
        }
    }
    let mut hash_headers = Vec::new();
    for l in lines.by_ref() {
        let l = l?;
        if l.trim_ascii().is_empty() {
            break;
        }
        let l = String::from_utf8_lossy(l);
        let (key, value) = l.split_once(':').ok_or_else(|| {
            PgpError::malformed(format!(
                "the cleartext header line {l:?} is not 'Key: value'"
            ))
        })?;
        if key.trim() == "Hash" {
            for name in value.split(',') {
                hash_headers.push(HashAlgorithm::from_name(name.trim()).ok_or_else(|| {
                    PgpError::unsupported(format!(
                        "the Hash header names an unknown hash {:?}",
                        name.trim()
                    ))
                })?);
            }
        }
    }
    let mut text_lines = Vec::new();
    let mut found = false;
    for l in lines.by_ref() {
        let l = l?;
        if l.trim_ascii_end() == SIG_BEGIN {
            found = true;
            break;
        }
        text_lines.push(l.strip_prefix(b"- ").unwrap_or(l));
    }
    if !found {
        return Err(PgpError::malformed(
            "the cleartext message has no '-----BEGIN PGP SIGNATURE-----' block",
        ));
    }
    let signed = signed_form(&text_lines);
    let mut text = Vec::with_capacity(signed.len() + text_lines.len());
    for l in &text_lines {
        text.extend_from_slice(trim_trailing_space(l));
        text.push(b'\n');
    }
    // The signature block: from its BEGIN line to the end of the input.
    let at = find(data, SIG_BEGIN).ok_or_else(|| PgpError::malformed("no signature block"))?;
    let (kind, sig_bytes) = armor::decode(&data[at..])?;
    if kind != Kind::Signature {
        return Err(PgpError::malformed(
            "the cleartext message's armored block is not a signature",
        ));
    }
    Ok((
        ClearSigned {
            text,
            signed,
            signatures: Vec::new(),
            hash_headers,
        },
        sig_bytes,
    ))
}

/// Reads a cleartext-signed message whose signatures are all this crate's.
pub fn parse(data: &[u8]) -> Result<ClearSigned> {
    let (mut msg, sig_bytes) = parse_frame(data)?;
    msg.signatures = super::message::parse_signatures(&sig_bytes)?;
    Ok(msg)
}

/// Reads a cleartext-signed message that may also carry signatures this
/// crate does not check (an Ed25519 or RSA signature beside an SLH-DSA one,
/// in one block): the SLH-DSA ones in the message (and in the split); the others, and SLH-DSA
/// packets that did not parse, in the split.
pub fn parse_mixed(data: &[u8]) -> Result<(ClearSigned, super::foreign::SplitSignatures)> {
    let (mut msg, sig_bytes) = parse_frame(data)?;
    let split = super::foreign::split_signatures(&sig_bytes)?;
    msg.signatures = split.ours.clone();
    Ok((msg, split))
}

/// `data`, a cleartext-signed message, with `extra` signatures added to its
/// signature block: its header and text are kept byte for byte, and so are
/// the signatures already there (whoever made them); the block is armored
/// again with all of them. The `Hash:` header gains the names of the new
/// signatures' hashes if it lists hashes and lacks them.
pub fn add_signatures(data: &[u8], extra: &[Signature]) -> Result<Vec<u8>> {
    let (msg, sig_bytes) = parse_frame(data)?;
    let at = find(data, SIG_BEGIN).ok_or_else(|| PgpError::malformed("no signature block"))?;
    let mut head = data[..at].to_vec();
    let mut missing: Vec<&str> = extra
        .iter()
        .filter_map(|s| s.hash_algorithm().ok())
        .filter(|h| !msg.hash_headers.is_empty() && !msg.hash_headers.contains(h))
        .map(|h| h.name())
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        // One more `Hash:` line after the message's first line.
        let eol = head
            .iter()
            .position(|&b| b == b'\n')
            .map_or(head.len(), |i| i + 1);
        let line = format!("Hash: {}\n", missing.join(","));
        head.splice(eol..eol, line.bytes());
    }
    let mut all = sig_bytes;
    all.extend(super::message::signatures_to_bytes(extra));
    head.extend_from_slice(armor::encode(Kind::Signature, &all).as_bytes());
    Ok(head)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

impl ClearSigned {
    /// A verifier over the signed octets, with the signatures whose hash a
    /// `Hash:` header left out removed.
    pub fn verifier(&self) -> DetachedVerifier {
        let sigs = self
            .signatures
            .iter()
            .filter(|s| {
                self.hash_headers.is_empty()
                    || s.hash_algorithm()
                        .is_ok_and(|h| self.hash_headers.contains(&h))
            })
            .cloned()
            .collect();
        let mut v = DetachedVerifier::new(sigs);
        v.update(&self.signed);
        v
    }
}
