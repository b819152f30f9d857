//! `sphincs cert` (X.509 certificates and requests) and `sphincs cms`
//! (CMS SignedData).

pub mod cert;
pub mod cms;
