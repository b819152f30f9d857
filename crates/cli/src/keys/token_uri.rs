//! PKCS#11 URIs (RFC 7512) naming a key in a token, where a key file is
//! accepted: `pkcs11:token=Release;object=signing-key?module-path=/usr/lib/x.so`.
//! Path attributes (`;`) select the token and the object; query attributes
//! (`&`) say how to reach it (`module-path`, `pin-source`, `pin-value`).
//! Values are percent-decoded. An attribute this reader does not know is an
//! error (RFC 7512 §2.3: a URI with an unknown attribute matches nothing).

use std::path::Path;

use crate::error::CliError;
use crate::files::quote;

/// The parts of a PKCS#11 URI that select a key and reach its token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenUri {
    /// `token`: the token's label.
    pub token: Option<String>,
    /// `serial`: the token's serial number.
    pub serial: Option<String>,
    /// `object`: the key's CKA_LABEL.
    pub object: Option<String>,
    /// `id`: the key's CKA_ID (bytes).
    pub id: Option<Vec<u8>>,
    /// `module-path`: the PKCS#11 library to load.
    pub module_path: Option<String>,
    /// `pin-source`: a file whose first line is the PIN.
    pub pin_source: Option<String>,
    /// `pin-value`: the PIN itself (RFC 7512 §2.3; visible to other users
    /// in the process list, so `pin-source` is the better choice).
    pub pin_value: Option<String>,
}

/// Whether a key argument is a PKCS#11 URI rather than a file name.
pub fn is_token_uri(key: &Path) -> bool {
    key.to_str().is_some_and(|k| k.starts_with("pkcs11:"))
}

/// A URI as messages show it: quoted, its `pin-value` (the PIN) hidden.
pub fn shown(key: &Path) -> String {
    let text = key.to_str().unwrap_or_default();
    let (head, query) = text.split_once('?').unwrap_or((text, ""));
    let query: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p.starts_with("pin-value=") {
                "pin-value=…"
            } else {
                p
            }
        })
        .collect();
    if query.is_empty() {
        quote::text(head)
    } else {
        quote::text(&format!("{head}?{}", query.join("&")))
    }
}

impl TokenUri {
    /// Parses a URI that names a key (`object=` or `id=`).
    pub fn parse(key: &Path) -> Result<Self, CliError> {
        let uri = Self::parse_token(key)?;
        if uri.object.is_none() && uri.id.is_none() {
            return Err(CliError::Failed(format!(
                "{}: names no key: give object=LABEL or id=%XX…",
                shown(key)
            )));
        }
        Ok(uri)
    }

    /// Parses a URI that names a token (and perhaps an object).
    pub fn parse_token(key: &Path) -> Result<Self, CliError> {
        let text = key.to_str().unwrap_or_default();
        let bad = |why: String| CliError::Failed(format!("{}: {why}", shown(key)));
        let rest = text
            .strip_prefix("pkcs11:")
            .ok_or_else(|| bad("not a PKCS#11 URI (pkcs11:…)".into()))?;
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        let mut uri = TokenUri::default();
        let pairs = path
            .split(';')
            .map(|p| (p, true))
            .chain(query.split('&').map(|p| (p, false)));
        for (pair, in_path) in pairs.filter(|(p, _)| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| bad(format!("{} has no value", quote::text(pair))))?;
            let bytes = decode(value).map_err(|e| bad(format!("{}: {e}", quote::text(name))))?;
            let text_value = || {
                String::from_utf8(bytes.clone())
                    .map_err(|_| bad(format!("{} is not UTF-8", quote::text(name))))
            };
            let slot = match (name, in_path) {
                ("token", true) => &mut uri.token,
                ("serial", true) => &mut uri.serial,
                ("object", true) => &mut uri.object,
                ("id", true) => {
                    set_once(&mut uri.id, bytes, name).map_err(bad)?;
                    continue;
                }
                // What a key needs no check of: its kind is taken from the
                // objects found (a private key with its public key).
                ("type", true) => {
                    if !matches!(value, "private" | "public") {
                        return Err(bad(format!("type={value}: only private keys sign")));
                    }
                    continue;
                }
                ("module-path", false) => &mut uri.module_path,
                ("pin-source", false) => &mut uri.pin_source,
                ("pin-value", false) => &mut uri.pin_value,
                _ => {
                    return Err(bad(format!(
                        "unknown {} attribute {}",
                        if in_path { "path" } else { "query" },
                        quote::text(name)
                    )))
                }
            };
            set_once(slot, text_value()?, name).map_err(bad)?;
        }
        Ok(uri)
    }

    /// The library to load: `module-path`, else `SPHINCS_PKCS11_MODULE`.
    pub fn module(&self) -> Result<String, CliError> {
        self.module_path
            .clone()
            .or_else(|| std::env::var("SPHINCS_PKCS11_MODULE").ok())
            .ok_or_else(|| {
                CliError::Failed(
                    "no PKCS#11 module: add ?module-path=/path/to/module.so to the URI or set SPHINCS_PKCS11_MODULE".into(),
                )
            })
    }
}

fn set_once<T>(slot: &mut Option<T>, value: T, name: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("{} given twice", quote::text(name)));
    }
    *slot = Some(value);
    Ok(())
}

/// Percent-decoding (RFC 3986 §2.1).
fn decode(value: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(value.len());
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or("a % not followed by two hex digits")?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<TokenUri, String> {
        TokenUri::parse(Path::new(s)).map_err(|e| e.into_message())
    }

    #[test]
    fn path_and_query_attributes() {
        let u = parse("pkcs11:token=Release%20keys;object=k1;id=%01%ff;type=private?module-path=/m.so&pin-source=/p").unwrap();
        assert_eq!(u.token.as_deref(), Some("Release keys"));
        assert_eq!(u.object.as_deref(), Some("k1"));
        assert_eq!(u.id, Some(vec![1, 0xff]));
        assert_eq!(u.module_path.as_deref(), Some("/m.so"));
        assert_eq!(u.pin_source.as_deref(), Some("/p"));
        assert!(is_token_uri(Path::new("pkcs11:object=x")));
        assert!(!is_token_uri(Path::new("key.pem")));
    }

    #[test]
    fn bad_uris_are_errors() {
        for (uri, says) in [
            ("pkcs11:token=T", "names no key"),
            ("pkcs11:object=a;object=b", "given twice"),
            ("pkcs11:object=a;colour=red", "unknown path attribute"),
            ("pkcs11:object=a?pin-value", "has no value"),
            ("pkcs11:object=a%2", "two hex digits"),
            ("pkcs11:object=%ff", "not UTF-8"),
            ("pkcs11:object=a;type=cert", "only private keys"),
            ("pkcs11:object=a?token=T", "unknown query attribute"),
        ] {
            let e = parse(uri).unwrap_err();
            assert!(e.contains(says), "{uri}: {e}");
        }
    }

    #[test]
    fn messages_hide_the_pin() {
        let e = parse("pkcs11:token=T?module-path=/m.so&pin-value=s3cret").unwrap_err();
        assert!(e.contains("names no key") && e.contains("/m.so"), "{e}");
        assert!(!e.contains("s3cret"), "{e}");
        assert_eq!(
            shown(Path::new("pkcs11:object=k?pin-value=1234&module-path=/m")),
            quote::text("pkcs11:object=k?pin-value=…&module-path=/m")
        );
    }
}
