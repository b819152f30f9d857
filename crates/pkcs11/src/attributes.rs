//! A caller's template, copied out of C memory, and reading its values as
//! PKCS#11 types (`CK_BBOOL`, `CK_ULONG`, byte strings) with the return
//! codes the specification gives for malformed ones.

use cryptoki_sys::*;
use zeroize::Zeroizing;

/// Bytes of a `CK_ULONG` value (8 on LP64).
pub(crate) const ULONG_LEN: usize = std::mem::size_of::<CK_ULONG>();

/// A template: attribute types and their values, in the caller's order
/// (wiped on drop: a private key's CKA_VALUE passes through here).
#[derive(Clone, Default)]
pub(crate) struct Template(pub(crate) Vec<(CK_ATTRIBUTE_TYPE, Zeroizing<Vec<u8>>)>);

impl From<Vec<(CK_ATTRIBUTE_TYPE, Vec<u8>)>> for Template {
    fn from(v: Vec<(CK_ATTRIBUTE_TYPE, Vec<u8>)>) -> Self {
        Template(v.into_iter().map(|(t, b)| (t, Zeroizing::new(b))).collect())
    }
}

impl Template {
    /// Refuses a template naming one attribute twice (CKR_TEMPLATE_INCONSISTENT).
    pub(crate) fn check_unique(&self) -> Result<(), CK_RV> {
        for (i, (t, _)) in self.0.iter().enumerate() {
            if self.0[..i].iter().any(|(u, _)| u == t) {
                return Err(CKR_TEMPLATE_INCONSISTENT);
            }
        }
        Ok(())
    }

    /// The value of `t`, if the template has it.
    pub(crate) fn get(&self, t: CK_ATTRIBUTE_TYPE) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(u, _)| *u == t)
            .map(|(_, v)| v.as_slice())
    }

    /// Whether the template names `t`.
    pub(crate) fn has(&self, t: CK_ATTRIBUTE_TYPE) -> bool {
        self.get(t).is_some()
    }

    /// A `CK_BBOOL` attribute: one byte, 0 or 1 (else CKR_ATTRIBUTE_VALUE_INVALID).
    pub(crate) fn bool(&self, t: CK_ATTRIBUTE_TYPE) -> Result<Option<bool>, CK_RV> {
        self.get(t).map(decode_bool).transpose()
    }

    /// A `CK_ULONG` attribute in native byte order (else CKR_ATTRIBUTE_VALUE_INVALID).
    pub(crate) fn ulong(&self, t: CK_ATTRIBUTE_TYPE) -> Result<Option<CK_ULONG>, CK_RV> {
        self.get(t).map(decode_ulong).transpose()
    }
}

/// A `CK_BBOOL` value.
pub(crate) fn decode_bool(v: &[u8]) -> Result<bool, CK_RV> {
    match v {
        [0] => Ok(false),
        [1] => Ok(true),
        _ => Err(CKR_ATTRIBUTE_VALUE_INVALID),
    }
}

/// A `CK_ULONG` value.
pub(crate) fn decode_ulong(v: &[u8]) -> Result<CK_ULONG, CK_RV> {
    let bytes: [u8; ULONG_LEN] = v.try_into().map_err(|_| CKR_ATTRIBUTE_VALUE_INVALID)?;
    Ok(CK_ULONG::from_ne_bytes(bytes))
}

/// The bytes of a `CK_BBOOL`.
pub(crate) fn encode_bool(b: bool) -> Vec<u8> {
    vec![u8::from(b)]
}

/// The bytes of a `CK_ULONG`.
pub(crate) fn encode_ulong(v: CK_ULONG) -> Vec<u8> {
    v.to_ne_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values() {
        let t = Template::from(vec![
            (CKA_TOKEN, vec![1]),
            (CKA_PRIVATE, vec![2]),
            (CKA_CLASS, encode_ulong(CKO_PUBLIC_KEY)),
            (CKA_KEY_TYPE, vec![0; 3]),
        ]);
        assert_eq!(t.bool(CKA_TOKEN), Ok(Some(true)));
        assert_eq!(t.bool(CKA_PRIVATE), Err(CKR_ATTRIBUTE_VALUE_INVALID));
        assert_eq!(t.bool(CKA_SIGN), Ok(None));
        assert_eq!(t.ulong(CKA_CLASS), Ok(Some(CKO_PUBLIC_KEY)));
        assert_eq!(t.ulong(CKA_KEY_TYPE), Err(CKR_ATTRIBUTE_VALUE_INVALID));
        assert!(t.check_unique().is_ok());
        let twice = Template::from(vec![(CKA_TOKEN, vec![1]), (CKA_TOKEN, vec![0])]);
        assert_eq!(twice.check_unique(), Err(CKR_TEMPLATE_INCONSISTENT));
    }
}
