//! What the signature formats built on the engine (CMS per RFC 9814,
//! OpenPGP per RFC 9980) ask of a secret key: its public half, and
//! signatures over a message. An [`AnySigningKey`] (or a FIPS 205
//! [`DynSigningKey`]) in this process is one; a key another process holds
//! is another: the CLI's `sphincs agent` keeps decrypted keys in its own
//! memory and signs for its clients, which pass it to the formats as an
//! [`AnySigner`] that forwards each signature to the agent.

use crate::message::MessageSource;
use crate::prelude::*;
use crate::{DynSigningKey, Error, SignOptions};

use super::{AnySigningKey, AnyVerifyingKey};

/// A secret key that signs, wherever it is held.
pub trait AnySigner: Send + Sync {
    /// The public half (with the key's RFC 9909 mode, for FIPS 205 keys).
    fn verifying_key(&self) -> AnyVerifyingKey;

    /// Signs a streamed message per `opts`, as
    /// [`AnySigningKey::sign_stream`] does (the message may be read twice).
    fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error>;

    /// Signs `msg` per `opts`.
    fn sign(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
        self.sign_stream(&mut &msg[..], opts)
    }
}

impl AnySigner for AnySigningKey {
    fn verifying_key(&self) -> AnyVerifyingKey {
        AnySigningKey::verifying_key(self)
    }

    fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        AnySigningKey::sign_stream(self, msg, opts)
    }
}

impl AnySigner for DynSigningKey {
    fn verifying_key(&self) -> AnyVerifyingKey {
        DynSigningKey::verifying_key(self).into()
    }

    fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        DynSigningKey::sign_stream(self, msg, opts)
    }
}
