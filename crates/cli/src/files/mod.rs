//! Files in and out: outputs staged and moved into place (write.rs), inputs read
//! with size caps and messages streamed (read.rs), a message read once from a
//! pipe (read_once.rs), passphrases (passphrase.rs), file names quoted for
//! status and error lines (quote.rs).

pub mod passphrase;
pub mod quote;
pub mod read;
pub mod read_once;
pub mod write;
