//! Nothing of its own: this crate exists so that cargo builds kryoptic's
//! PKCS#11 module (see Cargo.toml and build.sh).
