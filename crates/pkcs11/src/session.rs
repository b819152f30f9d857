//! Sessions and the signature operations they carry. An operation holds
//! its key (shared, so it outlives the object or a C_Finalize) and the
//! data given so far; signing and verifying run outside the module's lock.

use std::sync::Arc;

use cryptoki_sys::*;
use sphincs::any::{AnySigningKey, AnyVerifyingKey};
use sphincs::{Error, SignOptions};

use crate::mechanism::{Input, SignSpec};

/// A signing operation (C_SignInit until C_Sign/C_SignFinal).
pub(crate) struct SignOp {
    pub(crate) spec: SignSpec,
    pub(crate) key: Arc<AnySigningKey>,
    pub(crate) sig_len: usize,
    /// The message so far (C_SignUpdate); pure SLH-DSA reads it twice, so
    /// it is kept whole.
    pub(crate) data: Vec<u8>,
    /// Whether C_SignUpdate was called (C_Sign may then not finish it).
    pub(crate) updated: bool,
}

/// A verification (C_VerifyInit or C_VerifySignatureInit).
pub(crate) struct VerifyOp {
    pub(crate) spec: SignSpec,
    pub(crate) key: Arc<AnyVerifyingKey>,
    pub(crate) sig_len: usize,
    pub(crate) data: Vec<u8>,
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
fn rv(e: Error) -> CK_RV {
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
    /// Signs `data` (the whole message, or the digest for CKM_HASH_SLH_DSA).
    pub(crate) fn sign(&self, data: &[u8]) -> Result<Vec<u8>, CK_RV> {
        check_digest(&self.spec, data)?;
        let opts = SignOptions {
            context: &self.spec.context,
            randomness: self.spec.randomness(),
            threads: 1,
            ..SignOptions::default()
        };
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
}
