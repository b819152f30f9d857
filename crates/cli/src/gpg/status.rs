//! The `[GNUPG:]` status lines, in one place: git, apt, dpkg and the other
//! callers of gpg and gpgv parse these words (gpg's DETAILS document names
//! them), so every line this tool writes in its git, gpg and gpgv modes is
//! built here, and every value that comes from a signature or a
//! certificate is escaped first.

use std::fs::OpenOptions;
use std::io::{self, Write};

/// gpg's code in ERRSIG for a signature it cannot read or whose algorithm
/// it does not know.
pub const ERRSIG_UNSUPPORTED: u8 = 4;
/// gpg's code in ERRSIG for a signer whose public key (here: certificate)
/// is missing.
pub const ERRSIG_NO_KEY: u8 = 9;

/// The key id git shows when the signer is not known.
pub const UNKNOWN_KEY: &str = "0000000000000000";

/// Where the status lines go: git's `--status-fd=N`; nowhere without it.
pub struct Status {
    out: Option<Box<dyn Write>>,
}

/// How far the signer is trusted (gpg's TRUST_* words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// The certificate does not chain to a trusted certificate.
    Undefined,
    /// The chain to a trusted certificate is broken (a bad signature, a CA
    /// out of its validity period).
    Never,
    /// The certificate chains to a trusted certificate (X.509), or is one
    /// the user marked as trusted (OpenPGP).
    Fully,
    /// The signer is the user's own configured key (OpenPGP).
    Ultimate,
}

/// A signature's numbers in gpg's status lines (OpenPGP's: RFC 9580 §9.1
/// public-key and §9.5 hash algorithm IDs, the signature type; 0 where
/// OpenPGP has no number, as for X.509's SLH-DSA) and its time.
#[derive(Clone, Copy, Debug, Default)]
pub struct SigFacts {
    pub pk_algo: u8,
    pub digest: u8,
    pub class: u8,
    pub time: u64,
}

impl Status {
    /// Opens descriptor `fd` (1 and 2 are standard output and error; any
    /// other is reopened through `/dev/fd`).
    pub fn open(fd: Option<u32>) -> io::Result<Status> {
        let out: Option<Box<dyn Write>> = match fd {
            None => None,
            Some(1) => Some(Box::new(io::stdout())),
            Some(2) => Some(Box::new(io::stderr())),
            Some(n) => Some(Box::new(
                OpenOptions::new()
                    .append(true)
                    .open(format!("/dev/fd/{n}"))?,
            )),
        };
        Ok(Status { out })
    }

    /// Writes `[GNUPG:] WORD rest` as one line, flushed.
    fn line(&mut self, word: &str, rest: &str) -> io::Result<()> {
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        let mut text = format!("[GNUPG:] {word}");
        if !rest.is_empty() {
            text.push(' ');
            text.push_str(rest);
        }
        text.push('\n');
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    /// Signing is about to start (`H<digest>`: OpenPGP's number of the
    /// message digest, 0 for one OpenPGP has no number for).
    pub fn begin_signing(&mut self, digest: u8) -> io::Result<()> {
        self.line("BEGIN_SIGNING", &format!("H{digest}"))
    }

    /// A detached signature was written: `D` (detached), public-key
    /// algorithm, digest, class, time, fingerprint. git reads only the word.
    pub fn sig_created(&mut self, f: &SigFacts, fingerprint: &str) -> io::Result<()> {
        self.sig_created_kind('D', f, fingerprint)
    }

    /// A signature was written: `D` detached, `C` cleartext, `S` inline.
    pub fn sig_created_kind(
        &mut self,
        kind: char,
        f: &SigFacts,
        fingerprint: &str,
    ) -> io::Result<()> {
        self.line(
            "SIG_CREATED",
            &format!(
                "{kind} {} {} {:02X} {} {fingerprint}",
                f.pk_algo, f.digest, f.class, f.time
            ),
        )
    }

    /// A signature starts (git expects it before the verdict).
    pub fn new_sig(&mut self) -> io::Result<()> {
        self.line("NEWSIG", "")
    }

    /// The signature verifies.
    pub fn good_sig(&mut self, key_id: &str, signer: &str) -> io::Result<()> {
        self.line("GOODSIG", &format!("{} {}", escape(key_id), escape(signer)))
    }

    /// The signature does not verify.
    pub fn bad_sig(&mut self, key_id: &str, signer: &str) -> io::Result<()> {
        self.line("BADSIG", &format!("{} {}", escape(key_id), escape(signer)))
    }

    /// The signature verifies but was made outside the certificate's
    /// validity period.
    pub fn exp_key_sig(&mut self, key_id: &str, signer: &str) -> io::Result<()> {
        self.line(
            "EXPKEYSIG",
            &format!("{} {}", escape(key_id), escape(signer)),
        )
    }

    /// The signature cannot be checked; `code` is gpg's reason.
    pub fn err_sig(&mut self, key_id: &str, f: &SigFacts, code: u8) -> io::Result<()> {
        self.err_sig_by(key_id, f, code, None)
    }

    /// ERRSIG with the issuer's fingerprint as its last field, as GnuPG
    /// 2.2 and later write it when the signature names one.
    pub fn err_sig_by(
        &mut self,
        key_id: &str,
        f: &SigFacts,
        code: u8,
        fingerprint: Option<&str>,
    ) -> io::Result<()> {
        let mut rest = format!(
            "{} {} {} {:02X} {} {code}",
            escape(key_id),
            f.pk_algo,
            f.digest,
            f.class,
            f.time
        );
        if let Some(fpr) = fingerprint {
            rest.push(' ');
            rest.push_str(&escape(fpr));
        }
        self.line("ERRSIG", &rest)
    }

    /// No certificate in the keyrings has the signer's key.
    pub fn no_pubkey(&mut self, key_id: &str) -> io::Result<()> {
        self.line("NO_PUBKEY", &escape(key_id))
    }

    /// No signature was found where one was expected (`code` 1: no
    /// OpenPGP data; 3: an invalid packet; 4: a signature whose version is
    /// not known).
    pub fn no_data(&mut self, code: u8) -> io::Result<()> {
        self.line("NODATA", &code.to_string())
    }

    /// A certificate was looked at for a signature (GnuPG writes it before
    /// each verdict; `0`: nothing about it was wrong enough to say).
    pub fn key_considered(&mut self, fingerprint: &str) -> io::Result<()> {
        self.line("KEY_CONSIDERED", &format!("{} 0", escape(fingerprint)))
    }

    /// `--assert-pubkey-algo`'s verdict on a signing key: `1` if its
    /// algorithm is in the list, `0` if not, with the algorithm's name as
    /// the list spells it.
    pub fn assert_pubkey_algo(
        &mut self,
        fingerprint: &str,
        ok: bool,
        name: &str,
    ) -> io::Result<()> {
        self.line(
            "ASSERT_PUBKEY_ALGO",
            &format!("{} {} {}", escape(fingerprint), u8::from(ok), escape(name)),
        )
    }

    /// A line of another word (IMPORT_OK): `rest` is built by the caller
    /// from values it escaped or that need no escaping (numbers, hex).
    pub fn raw(&mut self, word: &str, rest: &str) -> io::Result<()> {
        self.line(word, rest)
    }

    /// The signing key's fingerprint (X.509: the certificate's SHA-256),
    /// signing date and time, no expiry, the signature version, the
    /// algorithms and class, and the primary key's fingerprint (X.509: the
    /// same, a certificate has one key).
    pub fn valid_sig(
        &mut self,
        fingerprint: &str,
        date: &str,
        f: &SigFacts,
        version: u8,
        primary: &str,
    ) -> io::Result<()> {
        self.line(
            "VALIDSIG",
            &format!(
                "{} {} {} 0 {version} 0 {} {} {:02X} {}",
                escape(fingerprint),
                escape(date),
                f.time,
                f.pk_algo,
                f.digest,
                f.class,
                escape(primary)
            ),
        )
    }

    /// The signature verifies, but its key is revoked.
    pub fn rev_key_sig(&mut self, key_id: &str, signer: &str) -> io::Result<()> {
        self.line(
            "REVKEYSIG",
            &format!("{} {}", escape(key_id), escape(signer)),
        )
    }

    /// How far the signer is trusted.
    pub fn trust(&mut self, trust: Trust) -> io::Result<()> {
        let word = match trust {
            Trust::Undefined => "TRUST_UNDEFINED",
            Trust::Never => "TRUST_NEVER",
            Trust::Fully => "TRUST_FULLY",
            Trust::Ultimate => "TRUST_ULTIMATE",
        };
        self.line(word, "0 pgp")
    }
}

/// gpg's escaping of status-line values: `%XX` for `%`, control
/// characters and DEL (and the Unicode line separators and the controls
/// that reorder text, as their UTF-8 bytes), so that a value taken from a
/// signature never ends the line, starts another one, or rearranges what
/// a terminal shows. Applied once, by the writer of each line.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '%' | '\u{0}'..='\u{1f}' | '\u{7f}' => out.push_str(&format!("%{:02X}", c as u32)),
            // C1 controls and line/paragraph separators: written as their
            // UTF-8 bytes escaped, so no terminal or parser sees them raw.
            '\u{80}'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{061c}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// OpenPGP's number for a message digest (RFC 9580 §9.5); 0 when it has
/// none (SHAKE).
pub fn digest_number(digest: sphincs::PreHash) -> u8 {
    use sphincs::PreHash;
    match digest {
        PreHash::Sha2_256 => 8,
        PreHash::Sha2_384 => 9,
        PreHash::Sha2_512 => 10,
        PreHash::Sha3_256 => 12,
        PreHash::Sha3_512 => 14,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escaping_keeps_one_line() {
        assert_eq!(escape("CN=a\n[GNUPG:] GOODSIG"), "CN=a%0A[GNUPG:] GOODSIG");
        assert_eq!(escape("100%\r"), "100%25%0D");
        assert_eq!(escape("CN=Zoë"), "CN=Zoë");
        assert_eq!(escape("a\u{2028}b"), "a%E2%80%A8b");
        assert_eq!(escape("gpj.\u{202e}exe"), "gpj.%E2%80%AEexe");
        assert_eq!(escape("x\u{2066}y"), "x%E2%81%A6y");
    }
}
