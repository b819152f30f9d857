//! The `sphincs` Python package's native module (`sphincs._native`): thin
//! PyO3 classes over the core's front door (`sphincs::any`), with one
//! implementation behind every family's classes (`key_base.rs`, `keys.rs`). Names, sizes,
//! errors, encodings and batching all come from the core; this crate only
//! converts arguments, releases the GIL around every signing and
//! verification, and keeps panics from reaching Python.

use pyo3::prelude::*;
use sphincs::any::{AnyAlgorithm, Family};
use sphincs::{Algorithm, PreHash};

mod args;
mod batch;
mod errors;
mod family;
mod interrupt;
mod key_base;
mod key_bytes;
mod keyfile;
mod keys;
mod mode;
mod openpgp;
mod pki;
mod run_batch;
mod slh_dsa;
mod sphincs256;
mod spx;
mod stream;

/// One parameter set's facts, for building the Python enums: (name, public
/// key, private key, signature bytes, OID or None, n, category, the most
/// signatures one key may make or None).
type AlgorithmInfo = (
    &'static str,
    usize,
    usize,
    usize,
    Option<String>,
    usize,
    u8,
    Option<u64>,
);

/// The facts of every set of `family`, in the core's order.
fn family_sets(family: Family) -> Vec<AlgorithmInfo> {
    AnyAlgorithm::of_family(family)
        .map(|a| {
            (
                a.name(),
                a.public_key_len(),
                a.secret_key_len(),
                a.signature_len(),
                a.slh_dsa().and_then(Algorithm::oid),
                a.randomness_len(),
                a.security_category().unwrap_or(0),
                a.max_signatures(),
            )
        })
        .collect()
}

/// The SLH-DSA sets from the core's table: the twelve of FIPS 205, then the
/// six limited-signature sets of draft SP 800-230 (ipd).
#[pyfunction]
fn algorithms() -> Vec<AlgorithmInfo> {
    family_sets(Family::SlhDsa)
}

/// The 36 SPHINCS+ round-3.1 sets, from the core's table.
#[pyfunction]
fn spx_algorithms() -> Vec<AlgorithmInfo> {
    family_sets(Family::SphincsPlus)
}

/// The HashSLH-DSA pre-hash names (FIPS 205 §10.2.2).
#[pyfunction]
fn prehashes() -> Vec<&'static str> {
    PreHash::ALL.iter().map(|p| p.name()).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The bases, so that `sphincs._native._PublicKey` (in every key class's
    // `__mro__`) names a real object.
    m.add_class::<key_base::PrivateKey>()?;
    m.add_class::<key_base::PublicKey>()?;
    m.add_class::<slh_dsa::SLHDSAPrivateKey>()?;
    m.add_class::<slh_dsa::SLHDSAPublicKey>()?;
    m.add_class::<spx::SpxPrivateKey>()?;
    m.add_class::<spx::SpxPublicKey>()?;
    sphincs256::add_classes(m)?;
    m.add(
        "InvalidSignature",
        m.py().get_type::<errors::InvalidSignature>(),
    )?;
    m.add_function(wrap_pyfunction!(keyfile::load_pem_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(keyfile::load_der_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(keyfile::load_pem_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(keyfile::load_der_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(batch::verify_many, m)?)?;
    m.add_function(wrap_pyfunction!(pki::self_signed_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(pki::certificate_signing_request, m)?)?;
    m.add_function(wrap_pyfunction!(pki::issue_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(pki::verify_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(pki::load_certificate_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(pki::cms_sign, m)?)?;
    m.add_function(wrap_pyfunction!(pki::cms_verify, m)?)?;
    m.add_function(wrap_pyfunction!(openpgp::openpgp_generate_key, m)?)?;
    m.add_function(wrap_pyfunction!(openpgp::openpgp_extract_cert, m)?)?;
    m.add_function(wrap_pyfunction!(openpgp::openpgp_sign, m)?)?;
    m.add_function(wrap_pyfunction!(openpgp::openpgp_verify, m)?)?;
    m.add_function(wrap_pyfunction!(openpgp::openpgp_clearsign, m)?)?;
    m.add_function(wrap_pyfunction!(openpgp::openpgp_verify_cleartext, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(spx_algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(prehashes, m)?)?;
    Ok(())
}
