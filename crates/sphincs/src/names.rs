//! Parameter-set names for calls that take one family only: a name of
//! another family says what it is and which part of the library takes it
//! ([`Error::WrongScheme`]) rather than "unknown".

use crate::any::{AnyAlgorithm, Family};
use crate::prelude::*;
use crate::{Algorithm, Error};

/// Parses a FIPS 205 parameter-set name for a call that takes only those
/// (certificates, CMS, the FIPS 205 key types): a SPHINCS+ round-3.1 or
/// SPHINCS-256 name is [`Error::WrongScheme`].
pub fn fips205_algorithm(name: &str) -> Result<Algorithm, Error> {
    AnyAlgorithm::parse_for(name, Family::SlhDsa)?
        .slh_dsa()
        .ok_or_else(|| Error::UnknownAlgorithm(name.to_string()))
}
