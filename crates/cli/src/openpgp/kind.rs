//! What an OpenPGP file is, for the modules that must tell one apart
//! without the verbs of `pgp_files` (the agent's key identity among them):
//! a leaf over the core's `sphincs::openpgp` and the file reader.

use std::io::Read;
use std::path::Path;

use sphincs::openpgp::{self, armor};

use crate::files::read::{read_capped, Cap};

/// The prefix `fingerprint` prints before an OpenPGP v6 fingerprint.
pub const FPR_PREFIX: &str = "openpgp4fpr:";

/// True if the file holds an OpenPGP key or certificate: OpenPGP armor, or
/// binary data that reads whole as v6 certificates (so that a raw key whose
/// random first octets look like a packet header is not taken for one).
/// Only a regular file is looked into: a pipe cannot be read twice (once
/// here, once by the command), and opening a FIFO waits for a writer, so
/// either is left to the command's own reader.
pub fn is_openpgp_file(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut data = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(1 << 20).read_to_end(&mut data));
    read.is_ok() && is_openpgp(&data)
}

/// Whether bytes are an OpenPGP key or certificate (see [`is_openpgp_file`]).
pub fn is_openpgp(data: &[u8]) -> bool {
    armor::is_armored(data) || openpgp::Cert::parse_all(data).is_ok()
}

/// The fingerprint of the key that signs for the OpenPGP secret key in
/// `path` (what the agent knows it by); `None` for any other file.
pub fn signing_fingerprint(path: &Path) -> Option<openpgp::Fingerprint> {
    if !is_openpgp_file(path) {
        return None;
    }
    let certs = openpgp::read_certs(&read_capped(path, Cap::Keyring).ok()?).ok()?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (secret, _) = certs.first()?.signing_secret(now).ok()?;
    Some(secret.public.fingerprint())
}
