//! Sessions and the signature operations they carry. An operation holds
//! its key (shared, so it outlives the object or a C_Finalize) and the
//! data given so far; signing and verifying run outside the module's lock.

use std::sync::Arc;

use cryptoki_sys::*;
use sphincs::any::{AnySigningKey, AnyVerifyingKey};
use sphincs::{Error, MessageVerifier, PreHashState, SignOptions};

use crate::mechanism::{Input, SignSpec};

/// The most a session buffers of a pure CKM_SLH_DSA message signed in
/// several parts (SLH-DSA reads the message twice, so it is kept whole);
/// past it C_SignUpdate ends the operation with CKR_DATA_LEN_RANGE. The
/// CLI's `MAX_BUFFERED_MESSAGE` is the same.
pub(crate) const MAX_BUFFERED: usize = 256 << 20;

/// The message of a multi-part operation as far as it has come.
pub(crate) enum Pending {
    /// Pure CKM_SLH_DSA signing: the message, at most [`MAX_BUFFERED`]
    /// bytes. (Also the empty placeholder of operations that take their
    /// data in one call.)
    Buffer(Vec<u8>),
    /// `CKM_HASH_SLH_DSA_<hash>`: PH(M) so far (boxed: a hash state is
    /// some hundred bytes).
    Hash(Box<PreHashState>),
    /// Pure CKM_SLH_DSA through C_VerifySignature*: the core's streaming
    /// verification, the signature known at init.
    Stream(MessageVerifier),
}

/// Appends `data` to `buf` unless that would make it longer than `cap`:
/// CKR_DATA_LEN_RANGE then, `buf` unchanged.
pub(crate) fn append_capped(buf: &mut Vec<u8>, data: &[u8], cap: usize) -> Result<(), CK_RV> {
    if data.len() > cap.saturating_sub(buf.len()) {
        return Err(CKR_DATA_LEN_RANGE);
    }
    buf.extend_from_slice(data);
    Ok(())
}

impl Pending {
    /// An empty start for `input`: a pre-hash state for a mechanism the
    /// token hashes, else an empty buffer.
    pub(crate) fn start(input: Input) -> Pending {
        match input {
            Input::HashedHere(ph) => Pending::Hash(Box::new(ph.hasher())),
            Input::Message | Input::Digest(_) => Pending::Buffer(Vec::new()),
        }
    }

    /// Takes the next part of the message.
    pub(crate) fn update(&mut self, data: &[u8]) -> Result<(), CK_RV> {
        self.update_capped(data, MAX_BUFFERED)
    }

    /// [`update`](Self::update) with the buffer's cap given (tests use a
    /// small one); a hash state or streaming verifier has none.
    fn update_capped(&mut self, data: &[u8], cap: usize) -> Result<(), CK_RV> {
        match self {
            Pending::Buffer(b) => append_capped(b, data, cap),
            Pending::Hash(h) => {
                h.update(data);
                Ok(())
            }
            Pending::Stream(v) => {
                v.update(data);
                Ok(())
            }
        }
    }
}

/// A signing operation (C_SignInit until C_Sign/C_SignFinal).
pub(crate) struct SignOp {
    pub(crate) spec: SignSpec,
    pub(crate) key: Arc<AnySigningKey>,
    pub(crate) sig_len: usize,
    /// The message so far (C_SignUpdate).
    pub(crate) data: Pending,
    /// Whether C_SignUpdate was called (C_Sign may then not finish it).
    pub(crate) updated: bool,
}

/// A verification (C_VerifyInit or C_VerifySignatureInit).
pub(crate) struct VerifyOp {
    pub(crate) spec: SignSpec,
    pub(crate) key: Arc<AnyVerifyingKey>,
    pub(crate) sig_len: usize,
    /// The message so far (C_VerifyUpdate / C_VerifySignatureUpdate).
    pub(crate) data: Pending,
    pub(crate) updated: bool,
    /// The signature given to C_VerifySignatureInit.
    pub(crate) signature: Option<Vec<u8>>,
}

/// One session.
pub(crate) struct Session {
    pub(crate) rw: bool,
    pub(crate) find: Option<Vec<CK_OBJECT_HANDLE>>,
    pub(crate) sign: Option<SignOp>,
    pub(crate) verify: Option<VerifyOp>,
    pub(crate) verify_signature: Option<VerifyOp>,
}

impl Session {
    pub(crate) fn new(rw: bool) -> Session {
        Session {
            rw,
            find: None,
            sign: None,
            verify: None,
            verify_signature: None,
        }
    }
}

/// The core's error as a return value.
pub(crate) fn rv(e: Error) -> CK_RV {
    match e {
        Error::InvalidSignature => CKR_SIGNATURE_INVALID,
        Error::InvalidSignatureLength { .. } => CKR_SIGNATURE_LEN_RANGE,
        Error::InvalidLength { .. } => CKR_DATA_LEN_RANGE,
        Error::ContextTooLong(_) => CKR_MECHANISM_PARAM_INVALID,
        Error::Rng(_) => CKR_DEVICE_ERROR,
        _ => CKR_FUNCTION_FAILED,
    }
}

/// A digest of the wrong length for CKM_HASH_SLH_DSA: CKR_DATA_LEN_RANGE.
fn check_digest(spec: &SignSpec, data: &[u8]) -> Result<(), CK_RV> {
    match spec.input {
        Input::Digest(ph) if data.len() != ph.output_len() => Err(CKR_DATA_LEN_RANGE),
        _ => Ok(()),
    }
}

impl SignOp {
    fn options(&self) -> SignOptions<'_> {
        SignOptions {
            context: &self.spec.context,
            randomness: self.spec.randomness(),
            threads: 1,
            ..SignOptions::default()
        }
    }

    /// Signs `data` (the whole message, or the digest for CKM_HASH_SLH_DSA).
    pub(crate) fn sign(&self, data: &[u8]) -> Result<Vec<u8>, CK_RV> {
        check_digest(&self.spec, data)?;
        let opts = self.options();
        let sig = match self.spec.input {
            Input::Message => self.key.sign(data, &opts),
            Input::HashedHere(ph) => self.key.sign(
                data,
                &SignOptions {
                    prehash: Some(ph),
                    ..opts
                },
            ),
            Input::Digest(ph) => self.key.sign_digest(data, ph, &opts),
        };
        sig.map_err(rv)
    }

    /// C_SignFinal: signs what C_SignUpdate gave (the buffered message, or
    /// the digest of the pre-hash state).
    pub(crate) fn sign_pending(self) -> Result<Vec<u8>, CK_RV> {
        match &self.data {
            Pending::Buffer(m) => self.sign(m),
            Pending::Hash(h) => {
                let ph = h.prehash();
                let digest = h.clone().finish();
                self.key
                    .sign_digest(digest.as_bytes(), ph, &self.options())
                    .map_err(rv)
            }
            Pending::Stream(_) => Err(CKR_GENERAL_ERROR),
        }
    }
}

impl VerifyOp {
    /// Verifies `sig` over `data`: CKR_SIGNATURE_LEN_RANGE for a signature
    /// of the wrong length, CKR_SIGNATURE_INVALID for a wrong one.
    pub(crate) fn verify(&self, data: &[u8], sig: &[u8]) -> Result<(), CK_RV> {
        if sig.len() != self.sig_len {
            return Err(CKR_SIGNATURE_LEN_RANGE);
        }
        check_digest(&self.spec, data)?;
        let ctx = &self.spec.context;
        let r = match self.spec.input {
            Input::Message => self.key.verify(data, sig, ctx, None),
            Input::HashedHere(ph) => self.key.verify(data, sig, ctx, Some(ph)),
            Input::Digest(ph) => self.key.verify_digest(data, sig, ctx, ph),
        };
        r.map_err(rv)
    }

    /// C_VerifyFinal / C_VerifySignatureFinal: verifies `sig` (C_VerifyFinal)
    /// or the signature given at init over what the updates gave.
    pub(crate) fn verify_pending(self, sig: Option<&[u8]>) -> Result<(), CK_RV> {
        let sig = match sig {
            Some(s) => s,
            None => self.signature.as_deref().unwrap_or_default(),
        };
        if sig.len() != self.sig_len {
            return Err(CKR_SIGNATURE_LEN_RANGE);
        }
        match self.data {
            Pending::Buffer(ref m) => self.verify(m, sig),
            Pending::Hash(ref h) => {
                let ph = h.prehash();
                let digest = h.clone().finish();
                let ctx = &self.spec.context;
                self.key
                    .verify_digest(digest.as_bytes(), sig, ctx, ph)
                    .map_err(rv)
            }
            Pending::Stream(v) => v.finish().map_err(rv),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buffer_stops_at_its_cap() {
        let mut b = Vec::new();
        append_capped(&mut b, &[1; 6], 10).unwrap();
        append_capped(&mut b, &[2; 4], 10).unwrap();
        assert_eq!(b.len(), 10);
        assert_eq!(append_capped(&mut b, &[3], 10), Err(CKR_DATA_LEN_RANGE));
        assert_eq!(b.len(), 10, "a refused part is not kept");
        append_capped(&mut b, &[], 10).unwrap();
        let mut c = vec![0; 3];
        assert_eq!(append_capped(&mut c, &[0; 8], 10), Err(CKR_DATA_LEN_RANGE));
        assert_eq!(c.len(), 3);
        assert_eq!(MAX_BUFFERED, 256 * 1024 * 1024);
    }

    #[test]
    fn only_pure_signing_buffers() {
        use sphincs::PreHash;
        let mut pure = Pending::start(Input::Message);
        pure.update_capped(&[0; 8], 10).unwrap();
        assert_eq!(pure.update_capped(&[0; 3], 10), Err(CKR_DATA_LEN_RANGE));
        match &pure {
            Pending::Buffer(b) => assert_eq!(b.len(), 8),
            _ => panic!("pure signing buffers"),
        }
        // The token's hash takes any length under the same small cap.
        let mut hashed = Pending::start(Input::HashedHere(PreHash::Sha2_256));
        for _ in 0..4 {
            hashed.update_capped(&[0; 8], 10).unwrap();
        }
        let Pending::Hash(h) = hashed else {
            panic!("the token's hash keeps a hash state")
        };
        let mut whole = PreHash::Sha2_256.hasher();
        whole.update(&[0; 32]);
        assert_eq!(h.finish(), whole.finish());
    }
}
