//! CMS SignedData (RFC 5652) with SLH-DSA (RFC 9814).
