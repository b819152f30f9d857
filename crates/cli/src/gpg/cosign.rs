//! `sphincs cosign`: an SLH-DSA signature added beside the signatures a
//! release file already has, for the transition. A `Release.gpg` or
//! `FILE.asc` made by GnuPG (Ed25519, RSA) gets ours in the same file
//! (`-s SIG FILE`); a cleartext-signed `InRelease` or `.dsc` gets ours in
//! its signature block (`FILE`). What was there is kept byte for byte, so
//! GnuPG's gpgv still accepts the file through the classic key, and
//! `sphincs gpgv` checks both (ours itself, the classic one through the
//! system's gpgv). The file is replaced atomically.

use std::path::Path;

use sphincs::openpgp::{self, armor, cleartext, foreign, DetachedSigner, Mode};

use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::files::write::replace_in_place;
use crate::openpgp::verbs;

fn refuse_second(
    existing: &[openpgp::Signature],
    key: &openpgp::Fingerprint,
    what: &Path,
) -> Result<(), CliError> {
    if existing
        .iter()
        .any(|s| s.issuer_fingerprint().as_ref() == Some(key))
    {
        return Err(CliError::file(
            what,
            format!("already holds a signature by {key}"),
        ));
    }
    Ok(())
}

/// Adds a signature by the OpenPGP key in `key` to `signature` (a detached
/// signature of `file`) or, without it, to the cleartext-signed `file`.
pub fn run(key: &Path, signature: Option<&Path>, file: &Path) -> Result<(), CliError> {
    let cert = verbs::secret_key(key)?;
    let unlocked = verbs::signing_key(key, &cert)?;
    let signer_fpr = unlocked.public.fingerprint();
    let now = crate::git::now() as u32;
    let threads = sphincs::resolve_threads(0);
    let fail = |e: openpgp::PgpError| CliError::Failed(e.to_string());
    match signature {
        Some(sig_path) => {
            let bytes = read_capped(sig_path, Cap::ClearSigned)?;
            let binary = armor::dearmor(&bytes).map_err(|e| CliError::file(sig_path, e))?;
            let split =
                foreign::split_signatures(&binary).map_err(|e| CliError::file(sig_path, e))?;
            refuse_second(&split.ours, &signer_fpr, sig_path)?;
            let mut signer =
                DetachedSigner::new(vec![unlocked], Mode::Binary, now).map_err(fail)?;
            verbs::stream(Some(file), |b| signer.update(b))?;
            let ours = signer.finish(threads).map_err(fail)?;
            let mut all = binary;
            all.extend(openpgp::signatures_to_bytes(&ours));
            let out = if armor::is_armored(&bytes) {
                armor::encode(armor::Kind::Signature, &all).into_bytes()
            } else {
                all
            };
            replace_in_place(sig_path, &out)?;
            crate::say::status(&format!(
                "{}: signature by {signer_fpr} added ({} there before)\n",
                quote::name(sig_path),
                split.ours.len() + split.other_count + split.unreadable.len()
            ))?;
        }
        None => {
            let bytes = read_capped(file, Cap::ClearSigned)?;
            if !cleartext::is_clearsigned(&bytes) {
                return Err(CliError::file(
                    file,
                    "is not cleartext-signed; for a detached signature give it with -s SIG",
                ));
            }
            let (msg, split) =
                cleartext::parse_mixed(&bytes).map_err(|e| CliError::file(file, e))?;
            refuse_second(&split.ours, &signer_fpr, file)?;
            let mut signer = DetachedSigner::new(vec![unlocked], Mode::Text, now).map_err(fail)?;
            signer.update(&msg.signed);
            let ours = signer.finish(threads).map_err(fail)?;
            let out =
                cleartext::add_signatures(&bytes, &ours).map_err(|e| CliError::file(file, e))?;
            replace_in_place(file, &out)?;
            crate::say::status(&format!(
                "{}: signature by {signer_fpr} added to its signature block\n",
                quote::name(file)
            ))?;
        }
    }
    Ok(())
}
