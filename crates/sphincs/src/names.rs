//! Parameter-set names for calls that take one family only: a name of
//! another family says what it is and which part of the library takes it
//! ([`Error::WrongScheme`]) rather than "unknown".

use crate::any::AnyAlgorithm;
use crate::prelude::*;
use crate::{Algorithm, Error};

/// Parses a FIPS 205 parameter-set name for a call that takes only those
/// (certificates, CMS, the FIPS 205 key types): a SPHINCS+ round-3.1 or
/// SPHINCS-256 name is [`Error::WrongScheme`].
pub fn fips205_algorithm(name: &str) -> Result<Algorithm, Error> {
    let wrong = |is, instead| Error::WrongScheme {
        name: name.trim().to_string(),
        is,
        takes: "FIPS 205 (SLH-DSA) parameter sets",
        instead,
    };
    match name.parse::<AnyAlgorithm>()? {
        AnyAlgorithm::SlhDsa(a) => Ok(a),
        AnyAlgorithm::SphincsPlus(_) => Err(wrong(
            "a SPHINCS+ round-3.1 set",
            "the SPHINCS+ round-3.1 API",
        )),
        AnyAlgorithm::Sphincs256 => Err(wrong("SPHINCS-256 (2015)", "the SPHINCS-256 API")),
    }
}
