//! SLH-DSA, the stateless hash-based signature scheme of FIPS 205.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod address;
pub mod encoding;
mod error;
pub mod hash;
pub mod params;

pub use error::Error;
pub use params::{Algorithm, ParameterSet, Params};
