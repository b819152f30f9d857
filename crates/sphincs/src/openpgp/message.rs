//! Signing and verifying data (RFC 9580 §5.2.4, §10.3): detached
//! signatures over binary data (type 0x00) or canonical text (0x01, line
//! endings made CRLF), streamed through the hash, and inline-signed
//! messages (One-Pass Signature packets, a Literal Data packet, the
//! signatures; §5.4, §5.9).

use super::cert::{Cert, SigningKeyInfo};
use super::error::{ErrorKind, PgpError, Result};
use super::key::Fingerprint;
use super::packet::{self, tag, Reader};
use super::signature::{sig_type, Signature, Signing};
use super::Hasher;
use crate::any::AnySigner;

/// What a signature was made over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The bytes as they are (signature type 0x00).
    Binary,
    /// Text with CRLF line endings (signature type 0x01).
    Text,
}

impl Mode {
    fn sig_type(self) -> u8 {
        match self {
            Mode::Binary => sig_type::BINARY,
            Mode::Text => sig_type::TEXT,
        }
    }
    /// `binary` or `text`, as SOP's `mode:` field says it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Binary => "binary",
            Mode::Text => "text",
        }
    }
}

/// A good signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// Its creation time (seconds since the epoch).
    pub created: u32,
    /// The key that made it.
    pub signing_key: Fingerprint,
    /// That key's certificate's primary key.
    pub primary: Fingerprint,
    /// Binary or text.
    pub mode: Mode,
    /// The certificate's first valid User ID, if it has one.
    pub user_id: Option<String>,
}

/// The times a good signature's creation time must lie between (SOP's
/// `--not-before` and `--not-after`), and the time "now" for validity.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// Earliest creation time accepted.
    pub not_before: Option<u64>,
    /// Latest creation time accepted.
    pub not_after: Option<u64>,
    /// Now, for key expiry and revocation.
    pub now: u64,
    /// Whether the signing key must also be unexpired at `now`. RFC 9580
    /// (and SOP) judge expiry at the signature's creation time, which the
    /// signer chooses: a key that expired yesterday can sign today with a
    /// date of last week. Where the verdict grants trust now (git, `sphincs
    /// verify`), set this: an expired key's signature is then reported as
    /// [`Outcome::KeyExpired`] whatever date it claims.
    pub keys_valid_now: bool,
}

/// Certificates made ready for verification: each usable key with its
/// facts and its certificate's User ID, computed once at `now`. Building
/// it checks each certificate's self-signatures once; any number of
/// signatures can then be checked against it at one verification each, so
/// the work is linear in the input (never signatures × certifications).
#[derive(Clone, Debug)]
pub struct Keyring {
    keys: Vec<(SigningKeyInfo, Option<String>)>,
}

impl Keyring {
    /// The signing keys of `certs` at `now` (certificates that are not
    /// SLH-DSA or have no valid self-signature contribute none).
    pub fn new(certs: &[Cert], now: u64) -> Keyring {
        let mut keys = Vec::new();
        for c in certs {
            let Ok(infos) = c.signing_keys(now) else {
                continue;
            };
            let uid = c.primary_user_id(now);
            keys.extend(infos.into_iter().map(|k| (k, uid.clone())));
        }
        Keyring { keys }
    }
}

/// Converts a text stream's line endings to CRLF (§5.2.1.2): LF not after
/// CR becomes CRLF; the state carries across chunks.
#[derive(Clone, Default)]
pub struct TextCanonicalizer {
    prev_cr: bool,
}

impl TextCanonicalizer {
    /// Appends `data`, canonicalized, to `out`.
    pub fn apply(&mut self, data: &[u8], out: &mut Vec<u8>) {
        for &b in data {
            if b == b'\n' && !self.prev_cr {
                out.push(b'\r');
            }
            out.push(b);
            self.prev_cr = b == b'\r';
        }
    }
}

/// Feeds data to hash states, binary or canonical text per state.
struct Feed<T> {
    items: Vec<(T, Mode)>,
    canon: TextCanonicalizer,
    buf: Vec<u8>,
}

impl<T> Feed<T> {
    fn update(&mut self, data: &[u8], mut absorb: impl FnMut(&mut T, &[u8])) {
        if self.items.iter().any(|(_, m)| *m == Mode::Text) {
            self.buf.clear();
            self.canon.apply(data, &mut self.buf);
        }
        for (item, mode) in &mut self.items {
            absorb(item, if *mode == Mode::Text { &self.buf } else { data });
        }
    }
}

/// Makes detached signatures over streamed data, one per key.
pub struct DetachedSigner {
    feed: Feed<Signing>,
    keys: Vec<Box<dyn AnySigner>>,
}

/// A signing key of a transferable secret key, unlocked: in this process
/// ([`unlock_signing_key`]), or held by another ([`AnySigner`]).
pub struct UnlockedKey {
    /// The public key that signs.
    pub public: super::PublicKey,
    /// The unlocked SLH-DSA key, whose public half is `public`'s.
    pub key: Box<dyn AnySigner>,
}

impl core::fmt::Debug for UnlockedKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UnlockedKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

/// Unlocks the signing key of `cert` with `passphrases` (if protected).
pub fn unlock_signing_key(cert: &Cert, passphrases: &[&[u8]], now: u64) -> Result<UnlockedKey> {
    let (secret, tag) = cert.signing_secret(now)?;
    Ok(UnlockedKey {
        public: secret.public.clone(),
        key: Box::new(secret.signing_key(tag, passphrases)?),
    })
}

impl DetachedSigner {
    /// Starts signatures in `mode` at time `created` with `keys`.
    pub fn new(keys: Vec<UnlockedKey>, mode: Mode, created: u32) -> Result<Self> {
        if keys.is_empty() {
            return Err(PgpError::new(
                ErrorKind::KeyCannotSign,
                "no signing key given",
            ));
        }
        let mut items = Vec::new();
        let mut sks = Vec::new();
        for k in keys {
            // A key held elsewhere must be the public key's: a signature
            // claiming `public` as its issuer is only made by its key.
            if k.key.verifying_key().to_bytes() != k.public.verifying_key()?.to_bytes() {
                return Err(PgpError::new(
                    ErrorKind::KeyCannotSign,
                    format!(
                        "the signing key offered for {} is not that key",
                        k.public.fingerprint()
                    ),
                ));
            }
            items.push((
                Signing::start(mode.sig_type(), &k.public, created, Vec::new())?,
                mode,
            ));
            sks.push(k.key);
        }
        Ok(DetachedSigner {
            feed: Feed {
                items,
                canon: TextCanonicalizer::default(),
                buf: Vec::new(),
            },
            keys: sks,
        })
    }

    /// Absorbs the next chunk of data.
    pub fn update(&mut self, data: &[u8]) {
        self.feed.update(data, |s, d| s.update(d));
    }

    /// The signatures' headers (for One-Pass Signature packets).
    fn headers(&self) -> Vec<&Signature> {
        self.feed.items.iter().map(|(s, _)| s.header()).collect()
    }

    /// The signatures, each made on `threads` threads.
    pub fn finish(self, threads: usize) -> Result<Vec<Signature>> {
        self.feed
            .items
            .into_iter()
            .zip(&self.keys)
            .map(|((s, _), k)| s.finish(&**k, threads))
            .collect()
    }
}

/// Checks detached signatures over streamed data.
pub struct DetachedVerifier {
    feed: Feed<(Signature, Option<Hasher>)>,
}

impl DetachedVerifier {
    /// Starts checking `sigs`: only data signatures (types 0x00 and 0x01)
    /// are considered.
    pub fn new(sigs: Vec<Signature>) -> Self {
        let items = sigs
            .into_iter()
            .filter_map(|s| {
                let mode = match s.sig_type {
                    sig_type::BINARY => Mode::Binary,
                    sig_type::TEXT => Mode::Text,
                    _ => return None,
                };
                let h = s.hasher().ok();
                Some(((s, h), mode))
            })
            .collect();
        DetachedVerifier {
            feed: Feed {
                items,
                canon: TextCanonicalizer::default(),
                buf: Vec::new(),
            },
        }
    }

    /// Absorbs the next chunk of data.
    pub fn update(&mut self, data: &[u8]) {
        self.feed.update(data, |(_, h), d| {
            if let Some(h) = h {
                h.update(d)
            }
        });
    }

    /// The good signatures by keys of `ring` within `window`, and why each
    /// other signature failed.
    pub fn finish(self, ring: &Keyring, window: &Window) -> (Vec<Verification>, Vec<String>) {
        let mut good = Vec::new();
        let mut bad = Vec::new();
        for (_, outcome) in self.finish_each(ring, window) {
            match outcome {
                Outcome::Good(v) => good.push(v),
                Outcome::KeyExpired(v) => {
                    bad.push(format!("the signing key {} has expired", v.signing_key))
                }
                Outcome::KeyRevoked(v) => {
                    bad.push(format!("the signing key {} is revoked", v.signing_key))
                }
                Outcome::Bad { reason, .. } | Outcome::NoKey { reason, .. } => bad.push(reason),
            }
        }
        (good, bad)
    }

    /// Each signature with what became of it (for callers that report more
    /// than good or not, such as git's status lines).
    pub fn finish_each(self, ring: &Keyring, window: &Window) -> Vec<(Signature, Outcome)> {
        self.feed
            .items
            .into_iter()
            .map(|((sig, hasher), mode)| {
                let outcome = check(&sig, hasher, mode, &ring.keys, window);
                (sig, outcome)
            })
            .collect()
    }
}

/// What became of one signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It verifies, by a key that could sign then.
    Good(Verification),
    /// It verifies, but its key had expired when it was made (or, with
    /// [`Window::keys_valid_now`], has expired by now).
    KeyExpired(Verification),
    /// It verifies, but its key (or certificate) is revoked.
    KeyRevoked(Verification),
    /// It does not verify, or breaks the policy.
    Bad {
        /// The key it names or was checked against, if known.
        signing_key: Option<Fingerprint>,
        /// That key's primary key, if known.
        primary: Option<Fingerprint>,
        /// The certificate's first valid User ID, if known.
        user_id: Option<String>,
        /// Why.
        reason: String,
    },
    /// No certificate given has the key that made it.
    NoKey {
        /// The issuer fingerprint the signature states, if any.
        issuer: Option<Fingerprint>,
        /// Why, in words.
        reason: String,
    },
}

fn bad(info: Option<&(SigningKeyInfo, Option<String>)>, reason: String) -> Outcome {
    Outcome::Bad {
        signing_key: info.map(|(k, _)| k.key.fingerprint()),
        primary: info.map(|(k, _)| k.primary),
        user_id: info.and_then(|(_, u)| u.clone()),
        reason,
    }
}

fn check(
    sig: &Signature,
    hasher: Option<Hasher>,
    mode: Mode,
    keys: &[(SigningKeyInfo, Option<String>)],
    window: &Window,
) -> Outcome {
    let issuer = sig.issuer_fingerprint();
    let hasher = match hasher {
        Some(h) => h,
        None => {
            let why = sig
                .hash_algorithm()
                .err()
                .map_or("unusable hash".to_string(), |e| e.message);
            return bad(None, why);
        }
    };
    let created = u64::from(sig.creation_time().unwrap_or(0));
    if window.not_before.is_some_and(|t| created < t)
        || window.not_after.is_some_and(|t| created > t)
    {
        return bad(
            None,
            "the signature was made outside the accepted time window".into(),
        );
    }
    if sig.expires_at().is_some_and(|e| e <= window.now) {
        return bad(None, "the signature has expired".into());
    }
    let candidates: Vec<&(SigningKeyInfo, Option<String>)> = keys
        .iter()
        .filter(|(info, _)| {
            issuer.is_none_or(|f| f == info.key.fingerprint()) && info.key.algorithm == sig.pk_algo
        })
        .collect();
    if candidates.is_empty() {
        let reason = match issuer {
            Some(f) => format!("no certificate given has the signing key {f}"),
            None => "no certificate given has a key that made the signature".to_string(),
        };
        return Outcome::NoKey { issuer, reason };
    }
    let mut last = None;
    for entry in candidates {
        let (info, uid) = entry;
        if let Err(e) = sig.verify_hashed(&info.key, hasher.clone()) {
            last = Some(bad(Some(entry), e.message));
            continue;
        }
        let v = Verification {
            created: created as u32,
            signing_key: info.key.fingerprint(),
            primary: info.primary,
            mode,
            user_id: uid.clone(),
        };
        return if !info.can_sign {
            bad(
                Some(entry),
                format!(
                    "the key {} may not sign data (its key flags)",
                    info.key.fingerprint()
                ),
            )
        } else if created < u64::from(info.key.created) {
            bad(Some(entry), "the signature is older than its key".into())
        } else if info.revoked
            || info
                .retired
                .is_some_and(|t| window.keys_valid_now || created >= t)
        {
            Outcome::KeyRevoked(v)
        } else if info
            .expires
            .is_some_and(|e| e <= created || (window.keys_valid_now && e <= window.now))
        {
            Outcome::KeyExpired(v)
        } else {
            Outcome::Good(v)
        };
    }
    last.unwrap_or_else(|| bad(None, "no key checked the signature".into()))
}

/// Reads signatures from binary packets (every packet must be a signature).
pub fn parse_signatures(data: &[u8]) -> Result<Vec<Signature>> {
    let packets = packet::parse(data)?;
    if packets.is_empty() {
        return Err(PgpError::malformed("no signature in the input"));
    }
    packets
        .iter()
        .filter(|p| !matches!(p.tag, tag::MARKER | tag::PADDING))
        .map(|p| {
            if p.tag != tag::SIGNATURE {
                return Err(PgpError::malformed(format!(
                    "packet type {} where signatures were expected",
                    p.tag
                )));
            }
            Signature::parse(&p.body)
        })
        .collect()
}

/// Writes signatures as binary packets.
pub fn signatures_to_bytes(sigs: &[Signature]) -> Vec<u8> {
    let mut out = Vec::new();
    for s in sigs {
        packet::write(&mut out, tag::SIGNATURE, &s.body());
    }
    out
}

/// An inline-signed message (§10.3): one One-Pass Signature packet per
/// signature, a Literal Data packet (format `b`, or `u` for text), the
/// signatures in reverse order.
pub fn inline_sign(
    keys: Vec<UnlockedKey>,
    data: &[u8],
    mode: Mode,
    created: u32,
    threads: usize,
) -> Result<Vec<u8>> {
    let mut signer = DetachedSigner::new(keys, mode, created)?;
    signer.update(data);
    let mut out = Vec::with_capacity(data.len() + 64);
    let headers = signer.headers();
    let n = headers.len();
    for (i, h) in headers.iter().enumerate() {
        let mut body = vec![6, h.sig_type, h.hash_algo, h.pk_algo, h.salt.len() as u8];
        body.extend_from_slice(&h.salt);
        body.extend_from_slice(&h.issuer_fingerprint().map(|f| f.0).unwrap_or([0; 32]));
        body.push(u8::from(i + 1 == n));
        packet::write(&mut out, tag::ONE_PASS_SIGNATURE, &body);
    }
    let mut literal = vec![if mode == Mode::Text { b'u' } else { b'b' }, 0, 0, 0, 0, 0];
    literal.extend_from_slice(data);
    packet::write(&mut out, tag::LITERAL, &literal);
    let sigs = signer.finish(threads)?;
    for s in sigs.iter().rev() {
        packet::write(&mut out, tag::SIGNATURE, &s.body());
    }
    Ok(out)
}

/// The parts of an inline-signed message: the literal data and the
/// signatures (with their One-Pass Signature salts checked).
#[derive(Debug)]
pub struct InlineMessage {
    /// The signed data.
    pub data: Vec<u8>,
    /// The signatures.
    pub signatures: Vec<Signature>,
}

/// Splits a binary inline-signed message. Compressed, encrypted or nested
/// messages are refused (unsupported), so there is no nesting to bound.
pub fn parse_inline(data: &[u8]) -> Result<InlineMessage> {
    let packets = packet::parse(data)?;
    let mut ops_salts = Vec::new();
    let mut literal: Option<Vec<u8>> = None;
    let mut sigs = Vec::new();
    for p in packets {
        match p.tag {
            tag::ONE_PASS_SIGNATURE if literal.is_none() => {
                let mut r = Reader::new(&p.body, "a one-pass signature");
                let v = r.u8()?;
                if v != 6 {
                    return Err(PgpError::unsupported(format!(
                        "version {v} one-pass signatures are not supported (only v6)"
                    )));
                }
                r.bytes(3)?;
                let n = r.u8()? as usize;
                ops_salts.push(r.bytes(n)?.to_vec());
            }
            tag::LITERAL if literal.is_none() => {
                let mut r = Reader::new(&p.body, "a literal data");
                r.u8()?;
                let n = r.u8()? as usize;
                r.bytes(n + 4)?;
                literal = Some(r.rest().to_vec());
            }
            tag::SIGNATURE => sigs.push(Signature::parse(&p.body)?),
            tag::MARKER | tag::PADDING => {}
            tag::COMPRESSED => {
                return Err(PgpError::unsupported(
                    "compressed messages are not supported: sign without compression",
                ))
            }
            t => {
                return Err(PgpError::malformed(format!(
                    "packet type {t} does not belong in a signed message"
                )))
            }
        }
    }
    let data =
        literal.ok_or_else(|| PgpError::malformed("the message has no literal data packet"))?;
    if sigs.is_empty() {
        return Err(PgpError::new(
            ErrorKind::BadSignature,
            "the message is not signed",
        ));
    }
    for salt in &ops_salts {
        if !sigs.iter().any(|s| &s.salt == salt) {
            return Err(PgpError::malformed(
                "a one-pass signature packet has no matching signature",
            ));
        }
    }
    Ok(InlineMessage {
        data,
        signatures: sigs,
    })
}
