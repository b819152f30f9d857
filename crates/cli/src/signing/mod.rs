//! `sphincs sign` and `verify`: one message (single.rs), many files
//! (batch.rs), and what an invalid signature most likely means
//! (likely_cause.rs).

pub mod batch;
pub mod likely_cause;
pub mod single;
