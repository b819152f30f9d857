//! `sop verify` (detached; the data streamed), `sop inline-verify` and
//! `sop inline-detach`: the VERIFICATIONS lines, and exit 3
//! (NO_SIGNATURE) when no signature checks out.

use sphincs::openpgp::{
    self, armor, cleartext, Cert, DetachedVerifier, Keyring, Signature, Verification, Window,
};

use super::inputs::{self, MAX_BUFFERED, MAX_OBJECT};
use super::{date, Exit, Result, SopError};

fn window(not_before: Option<&str>, not_after: Option<&str>) -> Result<Window> {
    let now = super::now();
    Ok(Window {
        not_before: not_before
            .map(|d| date::parse(d, now))
            .transpose()?
            .flatten(),
        // The draft: --not-after defaults to now.
        not_after: match not_after {
            None => Some(now),
            Some(d) => date::parse(d, now)?,
        },
        now,
        // SOP keeps RFC 9580's reading: a key's expiry is judged at the
        // signature's creation time.
        keys_valid_now: false,
    })
}

fn read_certs(specs: &[String]) -> Result<Vec<Cert>> {
    let mut out = Vec::new();
    for spec in specs {
        let data = inputs::read_indirect(spec, MAX_OBJECT)?;
        let certs = openpgp::read_certs(&data)
            .map_err(|e| SopError::new(Exit::BadData, format!("{spec}: {e}")))?;
        out.extend(certs);
    }
    Ok(out)
}

/// One VERIFICATIONS line per good signature (the draft's §5.2).
fn lines(good: &[Verification]) -> String {
    good.iter()
        .map(|v| {
            let who = v
                .user_id
                .as_deref()
                .map(|u| format!(" signed by {u:?}"))
                .unwrap_or_default();
            format!(
                "{} {} {} mode:{}{who}\n",
                date::format(u64::from(v.created)),
                v.signing_key,
                v.primary,
                v.mode.name()
            )
        })
        .collect()
}

/// The outcome: the lines, or NO_SIGNATURE with the reasons.
fn outcome(good: Vec<Verification>, bad: Vec<String>) -> Result<String> {
    if good.is_empty() {
        let why = if bad.is_empty() {
            "the input has no data signature".to_string()
        } else {
            bad.join("; ")
        };
        return Err(SopError::new(
            Exit::NoSignature,
            format!("no acceptable signature: {why}"),
        ));
    }
    Ok(lines(&good))
}

pub fn detached(
    not_before: Option<&str>,
    not_after: Option<&str>,
    signatures: &str,
    certs: &[String],
) -> Result<()> {
    let window = window(not_before, not_after)?;
    let sig_data = inputs::read_indirect(signatures, MAX_OBJECT)?;
    let sigs = openpgp::read_signatures(&sig_data)
        .map_err(|e| SopError::new(Exit::BadData, format!("{signatures}: {e}")))?;
    let certs = read_certs(certs)?;
    let mut v = DetachedVerifier::new(sigs);
    inputs::stream_stdin(|chunk| v.update(chunk))?;
    let (good, bad) = v.finish(&Keyring::new(&certs, window.now), &window);
    inputs::write_stdout(outcome(good, bad)?.as_bytes())
}

/// An inline-signed message's data and signatures, clearsigned or
/// one-pass-signed, armored or binary.
struct Signed {
    data: Vec<u8>,
    /// The data as a detached signature covers it (for a clearsigned
    /// message: without the line ending before the signature).
    detached_data: Vec<u8>,
    verifier: DetachedVerifier,
    signatures: Vec<Signature>,
}

fn read_signed() -> Result<Signed> {
    let input = inputs::read_stdin(MAX_BUFFERED)?;
    if cleartext::is_clearsigned(&input) {
        let cs = cleartext::parse(&input)?;
        let verifier = cs.verifier();
        let detached_data = cs.text.strip_suffix(b"\n").unwrap_or(&cs.text).to_vec();
        return Ok(Signed {
            data: cs.text,
            detached_data,
            verifier,
            signatures: cs.signatures,
        });
    }
    let bytes = armor::dearmor(&input)?;
    let m = openpgp::parse_inline(&bytes)?;
    let mut verifier = DetachedVerifier::new(m.signatures.clone());
    verifier.update(&m.data);
    Ok(Signed {
        detached_data: m.data.clone(),
        data: m.data,
        verifier,
        signatures: m.signatures,
    })
}

pub fn inline(
    not_before: Option<&str>,
    not_after: Option<&str>,
    verifications_out: Option<&str>,
    certs: &[String],
) -> Result<()> {
    if let Some(out) = verifications_out {
        inputs::check_output(out)?;
    }
    let window = window(not_before, not_after)?;
    let certs = read_certs(certs)?;
    let signed = read_signed()?;
    let (good, bad) = signed
        .verifier
        .finish(&Keyring::new(&certs, window.now), &window);
    let lines = outcome(good, bad)?;
    if let Some(out) = verifications_out {
        inputs::write_indirect(out, lines.as_bytes())?;
    }
    inputs::write_stdout(&signed.data)
}

pub fn detach(armored: bool, signatures_out: &str) -> Result<()> {
    inputs::check_output(signatures_out)?;
    let signed = read_signed()?;
    let bytes = openpgp::signatures_to_bytes(&signed.signatures);
    let sigs = if armored {
        armor::encode(armor::Kind::Signature, &bytes).into_bytes()
    } else {
        bytes
    };
    inputs::write_indirect(signatures_out, &sigs)?;
    inputs::write_stdout(&signed.detached_data)
}
