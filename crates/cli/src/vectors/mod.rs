//! Known-answer drivers: `sphincs acvp` (NIST ACVP prompts, FIPS 205) and
//! `sphincs kat` (the round-3.1 NIST KAT files).

pub mod acvp;
pub mod kat;
