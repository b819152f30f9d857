//! Starting, feeding and taking out the signature operations of a session.
//! The signing and verifying themselves run outside the lock, on an
//! operation taken out of its session (which is then over, as PKCS#11 has
//! it after a call that returns anything but CKR_BUFFER_TOO_SMALL).

use cryptoki_sys::*;

use crate::mechanism::{Input, Param, SignSpec};
use crate::object::Key;
use crate::session::{rv, Pending, SignOp, VerifyOp};
use crate::state::Global;

/// Which verification a session runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum VerifyKind {
    /// C_VerifyInit: the signature comes last.
    Verify,
    /// C_VerifySignatureInit: the signature comes first.
    VerifySignature,
}

/// What a sign call does with an operation, given the output buffer.
pub(crate) enum SignStep {
    /// The length only (NULL buffer or too small: `bool` = too small).
    Length(usize, bool),
    /// Sign: the operation, taken out of the session.
    Run(SignOp),
}

impl Global {
    fn key_object(&self, key: CK_OBJECT_HANDLE) -> Result<&crate::object::Object, CK_RV> {
        self.object(key).map_err(|_| CKR_KEY_HANDLE_INVALID)
    }

    pub(crate) fn sign_init(
        &mut self,
        h: CK_SESSION_HANDLE,
        mech: CK_MECHANISM_TYPE,
        param: Param,
        key: CK_OBJECT_HANDLE,
    ) -> Result<(), CK_RV> {
        if self.session(h)?.sign.is_some() {
            return Err(CKR_OPERATION_ACTIVE);
        }
        let spec = SignSpec::new(mech, param)?;
        self.unlock_for_use(key);
        let o = self.key_object(key)?;
        let k = match &o.key {
            Key::Private(k) => k.clone(),
            Key::Public(_) => return Err(CKR_KEY_TYPE_INCONSISTENT),
            // A stored key the user PIN did not decrypt (C_InitPIN set a
            // new PIN since it was stored): unusable.
            Key::Locked(_) | Key::None => return Err(CKR_KEY_HANDLE_INVALID),
        };
        if !o.may(CKA_SIGN) {
            return Err(CKR_KEY_FUNCTION_NOT_PERMITTED);
        }
        let sig_len = k.algorithm().signature_len();
        let data = Pending::start(spec.input);
        self.session(h)?.sign = Some(SignOp {
            spec,
            key: k,
            sig_len,
            data,
            updated: false,
        });
        Ok(())
    }

    pub(crate) fn verify_init(
        &mut self,
        h: CK_SESSION_HANDLE,
        kind: VerifyKind,
        mech: CK_MECHANISM_TYPE,
        param: Param,
        key: CK_OBJECT_HANDLE,
        signature: Option<Vec<u8>>,
    ) -> Result<(), CK_RV> {
        let s = self.session(h)?;
        let active = match kind {
            VerifyKind::Verify => s.verify.is_some(),
            VerifyKind::VerifySignature => s.verify_signature.is_some(),
        };
        if active {
            return Err(CKR_OPERATION_ACTIVE);
        }
        let spec = SignSpec::new(mech, param)?;
        let o = self.key_object(key)?;
        let k = match &o.key {
            Key::Public(k) => k.clone(),
            Key::Private(_) | Key::Locked(_) => return Err(CKR_KEY_TYPE_INCONSISTENT),
            Key::None => return Err(CKR_KEY_HANDLE_INVALID),
        };
        if !o.may(CKA_VERIFY) {
            return Err(CKR_KEY_FUNCTION_NOT_PERMITTED);
        }
        let sig_len = k.algorithm().signature_len();
        if signature.as_ref().is_some_and(|s| s.len() != sig_len) {
            return Err(CKR_SIGNATURE_LEN_RANGE);
        }
        // Pure SLH-DSA through C_VerifySignature*: the signature is known,
        // so the message streams into the core's verifier (constant
        // memory); C_VerifyUpdate does not exist for it.
        let data = match (&signature, spec.input) {
            (Some(sig), Input::Message) => {
                Pending::Stream(k.verifier(sig, &spec.context, None).map_err(rv)?)
            }
            _ => Pending::start(spec.input),
        };
        let op = VerifyOp {
            spec,
            key: k,
            sig_len,
            data,
            updated: false,
            signature,
        };
        let s = self.session(h)?;
        match kind {
            VerifyKind::Verify => s.verify = Some(op),
            VerifyKind::VerifySignature => s.verify_signature = Some(op),
        }
        Ok(())
    }

    /// C_Sign (`single`) or C_SignFinal: the length, or the operation to
    /// run. C_Sign after C_SignUpdate, or C_SignFinal without it on a
    /// single-part mechanism, ends the operation with
    /// CKR_OPERATION_NOT_INITIALIZED.
    pub(crate) fn sign_step(
        &mut self,
        h: CK_SESSION_HANDLE,
        single: bool,
        has_buffer: bool,
        room: usize,
    ) -> Result<SignStep, CK_RV> {
        let s = self.session(h)?;
        let op = s.sign.as_ref().ok_or(CKR_OPERATION_NOT_INITIALIZED)?;
        let wrong = if single {
            op.updated
        } else {
            !op.spec.multi_part_sign()
        };
        if wrong {
            s.sign = None;
            return Err(CKR_OPERATION_NOT_INITIALIZED);
        }
        if !has_buffer {
            return Ok(SignStep::Length(op.sig_len, false));
        }
        if room < op.sig_len {
            return Ok(SignStep::Length(op.sig_len, true));
        }
        s.sign.take().map(SignStep::Run).ok_or(CKR_GENERAL_ERROR)
    }

    /// C_SignUpdate: hashes the part (`CKM_HASH_SLH_DSA_<hash>`) or appends
    /// it to the message (CKM_SLH_DSA; past MAX_BUFFERED bytes the
    /// operation ends with CKR_DATA_LEN_RANGE). A single-part mechanism
    /// (CKM_HASH_SLH_DSA) ends the operation with
    /// CKR_OPERATION_NOT_INITIALIZED, as kryoptic does for its single-part
    /// mechanisms (the spec names no code).
    pub(crate) fn sign_update(&mut self, h: CK_SESSION_HANDLE, data: &[u8]) -> Result<(), CK_RV> {
        let s = self.session(h)?;
        let op = s.sign.as_mut().ok_or(CKR_OPERATION_NOT_INITIALIZED)?;
        if !op.spec.multi_part_sign() {
            s.sign = None;
            return Err(CKR_OPERATION_NOT_INITIALIZED);
        }
        if let Err(e) = op.data.update(data) {
            s.sign = None;
            return Err(e);
        }
        op.updated = true;
        Ok(())
    }

    fn verify_slot(
        &mut self,
        h: CK_SESSION_HANDLE,
        kind: VerifyKind,
    ) -> Result<&mut Option<VerifyOp>, CK_RV> {
        let s = self.session(h)?;
        Ok(match kind {
            VerifyKind::Verify => &mut s.verify,
            VerifyKind::VerifySignature => &mut s.verify_signature,
        })
    }

    /// C_VerifyUpdate / C_VerifySignatureUpdate: feeds the pre-hash or the
    /// core's streaming verifier (nothing is kept);
    /// a mechanism the spec verifies in one part only there ends the
    /// operation with CKR_OPERATION_NOT_INITIALIZED.
    pub(crate) fn verify_update(
        &mut self,
        h: CK_SESSION_HANDLE,
        kind: VerifyKind,
        data: &[u8],
    ) -> Result<(), CK_RV> {
        let slot = self.verify_slot(h, kind)?;
        let op = slot.as_mut().ok_or(CKR_OPERATION_NOT_INITIALIZED)?;
        let allowed = match kind {
            VerifyKind::Verify => op.spec.multi_part_verify(),
            VerifyKind::VerifySignature => op.spec.multi_part_verify_signature(),
        };
        if !allowed {
            *slot = None;
            return Err(CKR_OPERATION_NOT_INITIALIZED);
        }
        if let Err(e) = op.data.update(data) {
            *slot = None;
            return Err(e);
        }
        op.updated = true;
        Ok(())
    }

    /// Takes a verification out of its session to finish it: `single` for
    /// C_Verify / C_VerifySignature (refused after an update), else the
    /// final call (refused without an update... no: a final call with no
    /// update verifies the empty message for a multi-part mechanism).
    pub(crate) fn verify_take(
        &mut self,
        h: CK_SESSION_HANDLE,
        kind: VerifyKind,
        single: bool,
    ) -> Result<VerifyOp, CK_RV> {
        let slot = self.verify_slot(h, kind)?;
        let op = slot.take().ok_or(CKR_OPERATION_NOT_INITIALIZED)?;
        let allowed = if single {
            !op.updated
        } else {
            match kind {
                VerifyKind::Verify => op.spec.multi_part_verify(),
                VerifyKind::VerifySignature => op.spec.multi_part_verify_signature(),
            }
        };
        if !allowed {
            return Err(CKR_OPERATION_NOT_INITIALIZED);
        }
        Ok(op)
    }
}
