//! `sphincs keygen`, `pubkey`, `list` (keygen.rs), `fingerprint`
//! (fingerprint.rs) and `sphincs key …` (key_command.rs); key files opened
//! through the core (load.rs), the raw files of the sets without an OID
//! (raw_files.rs), a draft SP 800-230 key's tree cache (tree_file.rs), and
//! keys in a PKCS#11 token named by a `pkcs11:` URI (token.rs, token_uri.rs).

pub mod fingerprint;
pub mod key_command;
pub mod keygen;
pub mod load;
pub mod raw_files;
pub mod token;
pub mod token_command;
pub mod token_openpgp;
pub mod token_uri;
pub mod tree_file;
