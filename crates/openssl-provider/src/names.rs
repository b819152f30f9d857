//! The table of names: which key types we serve, under which names,
//! aliases and OIDs. Pure SLH-DSA uses exactly OpenSSL 3.5's names so keys,
//! certificates and CMS cross between the two; HashSLH-DSA (RFC 9909,
//! OIDs .35–.46) is ours alone, under names OpenSSL does not use.

use std::ffi::{CStr, CString};
use std::sync::OnceLock;

use sphincs::any::AnyAlgorithm;
use sphincs::{Algorithm, KeyMode, PreHash};

/// One key type.
pub struct KeyType {
    pub alg: Algorithm,
    /// Pure (`false`) or HashSLH-DSA with the set's RFC 9909 pre-hash.
    pub hash: bool,
    /// The primary name, e.g. `SLH-DSA-SHA2-128s`.
    pub name: CString,
    /// Short OID name, e.g. `id-slh-dsa-sha2-128s`.
    pub sn: CString,
    /// Dotted OID.
    pub oid: CString,
    /// `name:sn:oid`, the OSSL_ALGORITHM name list. `sn` is OpenSSL's short
    /// name of the OID (ours before 3.5, the same as 3.5's): X.509 matches a
    /// certificate's signature algorithm to its issuer's key by it
    /// (`EVP_PKEY_is_a(key, OBJ_nid2sn(pkey_nid))`).
    pub names: CString,
    /// The name list on OpenSSL 3.5 and later: `names`, plus, for the
    /// HashSLH-DSA types, 3.5's long name of the OID as an extra alias
    /// (see [`KeyType::names_for`]).
    pub names_35: CString,
    /// TLS 1.3 code point (pure sets only).
    pub tls: Option<u16>,
}

impl KeyType {
    pub fn any(&self) -> AnyAlgorithm {
        AnyAlgorithm::SlhDsa(self.alg)
    }

    pub fn mode(&self) -> KeyMode {
        if self.hash {
            KeyMode::hash_slh_dsa(self.alg)
        } else {
            KeyMode::Pure
        }
    }

    /// n, the set's security parameter in bytes.
    pub fn n(&self) -> usize {
        self.alg.params().n
    }

    /// The DER `AlgorithmIdentifier` of this type: SEQUENCE { OID } with
    /// parameters absent, as RFC 9909 prescribes.
    pub fn algorithm_id(&self) -> Vec<u8> {
        let body = if self.hash {
            self.alg.hash_oid_der()
        } else {
            self.alg.oid_der()
        }
        .expect("FIPS 205 sets have OIDs");
        let mut der = vec![0x30, (2 + body.len()) as u8, 0x06, body.len() as u8];
        der.extend_from_slice(&body);
        der
    }

    /// The OSSL_ALGORITHM name list for the running OpenSSL.
    ///
    /// OpenSSL 3.5 knows the HashSLH-DSA OIDs .35–.46 as objects with long
    /// names of its own (`SLH-DSA-SHA2-128s-WITH-SHA256`). When it reads a
    /// SubjectPublicKeyInfo (`x509_pubkey_ex_d2i_ex` in crypto/x509/x_pubkey.c,
    /// and the `spki2typespki` decoder behind PEM and `OSSL_STORE`) it names
    /// the key type by `OBJ_obj2txt(oid, no_name = 0)`, that long name, and
    /// fetches only the keymgmts and decoders that answer to it. So on 3.5
    /// each HashSLH-DSA type also carries that name as an alias, after ours;
    /// our name stays the primary one (what OpenSSL prints and matches
    /// first). Before 3.5 we create the objects ourselves with our name as
    /// the long name, and no alias is needed.
    pub fn names_for(&self, openssl_35: bool) -> &CStr {
        if openssl_35 {
            &self.names_35
        } else {
            &self.names
        }
    }

    pub fn name_str(&self) -> &str {
        self.name.to_str().unwrap_or("")
    }
}

/// Number of key types: 12 pure + 12 HashSLH-DSA.
pub const COUNT: usize = 24;

/// The table, index = position (pure sets first, in OID order).
pub fn all() -> &'static [KeyType] {
    static TABLE: OnceLock<Vec<KeyType>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v = Vec::with_capacity(COUNT);
        for (i, alg) in Algorithm::ALL.into_iter().enumerate() {
            let name = alg.name().to_string();
            let sn = format!("id-{}", name.to_ascii_lowercase());
            let oid = alg.oid().expect("FIPS 205 sets have OIDs");
            let names = cstr(&format!("{name}:{sn}:{oid}"));
            v.push(KeyType {
                alg,
                hash: false,
                names_35: names.clone(),
                names,
                name: cstr(&name),
                sn: cstr(&sn),
                oid: cstr(&oid),
                // draft-reddy-tls-slhdsa-01: 0x0911 (SHA2-128s) … 0x091C (SHAKE-256f), in OID order.
                tls: Some(0x0911 + i as u16),
            });
        }
        for alg in Algorithm::ALL {
            let ph = alg.bound_prehash();
            let set = &alg.name()["SLH-DSA-".len()..];
            let ph_name = match ph {
                PreHash::Sha2_256 => "SHA256",
                PreHash::Sha2_512 => "SHA512",
                PreHash::Shake128 => "SHAKE128",
                _ => "SHAKE256",
            };
            // OpenSSL 3.5 knows these OIDs as objects `SLH-DSA-…-WITH-…`
            // but has no key type of that name; ours begins `HASH-`.
            let name = format!("HASH-SLH-DSA-{set}-WITH-{ph_name}");
            let sn = format!(
                "id-hash-slh-dsa-{}-with-{}",
                set.to_ascii_lowercase(),
                ph_name.to_ascii_lowercase()
            );
            let oid = alg.hash_oid().expect("FIPS 205 sets have OIDs");
            // OpenSSL 3.5's long name of the OID (crypto/objects/objects.txt).
            let ossl_ln = format!("SLH-DSA-{set}-WITH-{ph_name}");
            v.push(KeyType {
                alg,
                hash: true,
                names: cstr(&format!("{name}:{sn}:{oid}")),
                names_35: cstr(&format!("{name}:{ossl_ln}:{sn}:{oid}")),
                name: cstr(&name),
                sn: cstr(&sn),
                oid: cstr(&oid),
                tls: None,
            });
        }
        v
    })
}

/// The key type at `index`.
pub fn get(index: usize) -> &'static KeyType {
    &all()[index]
}

fn cstr(s: &str) -> CString {
    CString::new(s).expect("names have no NUL")
}

/// The index of the key type for a set and mode.
pub fn index_of(alg: Algorithm, mode: KeyMode) -> Option<usize> {
    let hash = matches!(mode, KeyMode::HashSlhDsa(_));
    all().iter().position(|t| t.alg == alg && t.hash == hash)
}

/// A static C string for a name in the table.
pub fn leak(s: &CStr) -> &'static CStr {
    Box::leak(s.to_owned().into_boxed_c_str())
}
