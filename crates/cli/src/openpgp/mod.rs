//! OpenPGP keys in the everyday verbs (verbs.rs: sign, verify, fingerprint,
//! key show), a key's life (life.rs: expire, revoke, subkeys) and what an
//! OpenPGP file is (kind.rs, a leaf).

pub mod kind;
pub mod life;
pub mod verbs;
