//! `sphincs keygen`, `pubkey`, `list` (keygen.rs), `fingerprint`
//! (fingerprint.rs) and `sphincs key …` (key_command.rs); key files opened
//! through the core (load.rs), the raw files of the sets without an OID
//! (raw_files.rs) and a draft SP 800-230 key's tree cache (tree_file.rs).

pub mod fingerprint;
pub mod key_command;
pub mod keygen;
pub mod load;
pub mod raw_files;
pub mod tree_file;
