//! Signing for git: a detached CMS SignedData (RFC 9814, made by
//! `sphincs::pki::cms`) of the payload on standard input, written as PEM
//! labelled `SIGNED MESSAGE` on standard output, then `SIG_CREATED` on the
//! status descriptor. Any failure returns an error before SIG_CREATED is
//! written, so git never takes a failure for a signature.

use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use sphincs::pki::chain::parse_certificates;
use sphincs::pki::cms::{self, CmsSignOptions};

use crate::agent::signing;
use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::git::{self, configured_digest, fingerprint, resolve};
use crate::gpg::status::{digest_number, SigFacts, Status};
use crate::keys::load::{load_signing_key, not_fips205};

/// Signs standard input with the key `key_id` names (see [`git::resolve`]).
pub fn sign(key_id: &str, status: &mut Status) -> Result<(), CliError> {
    let pairing = resolve(key_id)?;
    let mut chain = Vec::new();
    for p in git::config_values("sphincs.chain")? {
        chain.extend(
            parse_certificates(&read_capped(p.as_ref(), Cap::Certificate)?)
                .map_err(|e| CliError::file(p.as_ref(), e))?,
        );
    }
    let digest = configured_digest()?;
    let payload = git::read_payload(None)?;
    // The passphrase of an encrypted key is read here (SPHINCS_PASSPHRASE_FILE
    // or /dev/tty), after the payload: git waits for the program to read it.
    // The agent's key when one runs and holds it; else opened here.
    let key = signing::signing_key(&pairing.key, || load_signing_key(&pairing.key, None))?;
    let public = key.verifying_key();
    let Some(&vk) = public.as_slh_dsa() else {
        return Err(not_fips205(&pairing.key));
    };
    let now = SystemTime::now();
    let chosen = digest.unwrap_or(cms::paired_digest(vk.algorithm()));
    status
        .begin_signing(digest_number(chosen))
        .map_err(status_error)?;
    let parts = cms::sign_with_chain(
        &*key,
        &pairing.cert,
        &chain,
        &mut payload.as_slice(),
        CmsSignOptions {
            digest,
            detached: true,
        },
        now,
    )
    .map_err(|e| match e {
        sphincs::Error::Pki(m) => CliError::Failed(format!(
            "{} and {}: {m}",
            pairing.key.display(),
            pairing.cert_path.display()
        )),
        e => e.into(),
    })?;
    let pem = pem(&parts.assemble(&[]))?;
    let mut out = std::io::stdout().lock();
    out.write_all(pem.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failed(format!("cannot write the signature: {e}")))?;
    let time = now
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let facts = SigFacts {
        digest: digest_number(parts.digest),
        time,
        ..SigFacts::default()
    };
    status
        .sig_created(&facts, &fingerprint(&pairing.cert)?)
        .map_err(status_error)
}

fn status_error(e: std::io::Error) -> CliError {
    CliError::Failed(format!("cannot write to the status descriptor: {e}"))
}

/// The SignedData's DER as PEM labelled [`git::PEM_LABEL`]: the core's PEM
/// encoding, relabelled (the base64 body is the same).
pub fn pem(der: &[u8]) -> Result<String, CliError> {
    let text = String::from_utf8(cms::encode(der.to_vec(), true)?)
        .map_err(|_| CliError::Failed("the PEM encoding is not text".into()))?;
    let from = cms::CMS_LABEL;
    let to = git::PEM_LABEL;
    let begin = format!("-----BEGIN {from}-----");
    let end = format!("-----END {from}-----");
    match (
        text.strip_prefix(&begin),
        text.trim_end().strip_suffix(&end),
    ) {
        (Some(_), Some(_)) => {
            let body = &text[begin.len()..text.trim_end().len() - end.len()];
            Ok(format!("-----BEGIN {to}-----{body}-----END {to}-----\n"))
        }
        _ => Err(CliError::Failed(format!(
            "the PEM encoding does not have the label {from}"
        ))),
    }
}

/// The DER inside a signature as git stores it: PEM labelled
/// [`git::PEM_LABEL`] (or the core's `CMS`/`PKCS7`, or DER), as the core's
/// parser reads it.
pub fn relabel_for_parsing(input: &[u8]) -> Vec<u8> {
    let begin = format!("-----BEGIN {}-----", git::PEM_LABEL);
    let end = format!("-----END {}-----", git::PEM_LABEL);
    let Ok(text) = std::str::from_utf8(input) else {
        return input.to_vec();
    };
    let t = text.trim();
    match (t.strip_prefix(&begin), t.strip_suffix(&end)) {
        (Some(_), Some(_)) if t.len() >= begin.len() + end.len() => {
            let body = &t[begin.len()..t.len() - end.len()];
            format!(
                "-----BEGIN {0}-----{body}-----END {0}-----\n",
                cms::CMS_LABEL
            )
            .into_bytes()
        }
        _ => input.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        let der = [0x30u8, 0x03, 0x02, 0x01, 0x05];
        let p = pem(&der).unwrap();
        assert!(p.starts_with("-----BEGIN SIGNED MESSAGE-----\n"));
        assert!(p.ends_with("\n-----END SIGNED MESSAGE-----\n"));
        let back = String::from_utf8(relabel_for_parsing(p.as_bytes())).unwrap();
        assert!(back.starts_with("-----BEGIN CMS-----\n"));
        assert!(back.trim_end().ends_with("-----END CMS-----"));
        assert_eq!(relabel_for_parsing(b"junk"), b"junk");
        assert_eq!(
            relabel_for_parsing(b"-----BEGIN SIGNED MESSAGE-----"),
            b"-----BEGIN SIGNED MESSAGE-----"
        );
    }
}
