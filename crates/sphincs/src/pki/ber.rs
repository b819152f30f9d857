//! BER → DER for the outer layers of a CMS SignedData, and the raw bytes of
//! its SignerInfos.
//!
//! RFC 5652 lets a SignedData be BER (Bouncy Castle writes indefinite
//! lengths and constructed OCTET STRINGs by default), while the signed
//! attributes are signed as DER and certificates are DER. So only the
//! SignedData's own layers are converted: the ContentInfo, the SignedData,
//! its digest algorithms, encapsulated content (a constructed OCTET STRING
//! becomes one primitive OCTET STRING) and the SET and SEQUENCE wrappers of
//! certificates and SignerInfos. Certificates, CRLs and the signed
//! attributes are copied byte for byte: they must be definite-length, and
//! the strict DER decoder then reads them.
//!
//! Bounded: the nesting depth is limited, every element count that feeds a
//! quadratic SET OF sort downstream is capped, and the output is at most a
//! few bytes per element longer than the input.

use crate::Error;

/// Most SignerInfos a SignedData may carry: each costs a signature check.
pub const MAX_SIGNER_INFOS: usize = 16;
/// Most certificates (and CRLs) a SignedData may carry.
pub const MAX_CERTIFICATES: usize = 64;
/// Most digest algorithms a SignedData may list.
const MAX_DIGEST_ALGORITHMS: usize = 16;
/// Deepest nesting converted generically (digest algorithms, content).
const MAX_DEPTH: usize = 16;

const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
const OCTET_STRING: u8 = 0x04;
const OCTET_STRING_CONSTRUCTED: u8 = 0x24;
const CONTEXT_0: u8 = 0xa0;
const CONTEXT_1: u8 = 0xa1;

/// DER of `id-signedData` (1.2.840.113549.1.7.2).
const ID_SIGNED_DATA_DER: [u8; 11] = [
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02,
];

fn bad(msg: impl Into<String>) -> Error {
    Error::Pki(format!("not a valid CMS ContentInfo: {}", msg.into()))
}

/// A cursor over BER.
struct Ber<'a> {
    data: &'a [u8],
    pos: usize,
}

/// The extent of an element's contents: `end` for a definite length, `None`
/// for an indefinite one (ends at an end-of-contents marker).
struct Header {
    tag: u8,
    start: usize,
    end: Option<usize>,
}

impl<'a> Ber<'a> {
    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn header(&mut self) -> Result<Header, Error> {
        let start = self.pos;
        let tag = self.peek().ok_or_else(|| bad("truncated"))?;
        if tag & 0x1f == 0x1f {
            return Err(bad(format!(
                "multi-byte tag at byte {start}, not used by CMS"
            )));
        }
        let first = *self.data.get(start + 1).ok_or_else(|| bad("truncated"))?;
        self.pos = start + 2;
        let len = match first {
            0x80 if tag & 0x20 != 0 => None,
            0x80 => {
                return Err(bad(format!(
                    "indefinite length of a primitive at byte {start}"
                )))
            }
            n if n < 0x80 => Some(usize::from(n)),
            n @ 0x81..=0x84 => {
                let k = usize::from(n & 0x7f);
                let bytes = self
                    .data
                    .get(self.pos..self.pos + k)
                    .ok_or_else(|| bad("truncated"))?;
                self.pos += k;
                Some(bytes.iter().fold(0usize, |a, &b| (a << 8) | usize::from(b)))
            }
            _ => return Err(bad(format!("length too large at byte {start}"))),
        };
        let end = match len {
            Some(n) => {
                let end = self.pos.checked_add(n).ok_or_else(|| bad("truncated"))?;
                if end > self.data.len() {
                    return Err(bad(format!("truncated element at byte {start}")));
                }
                Some(end)
            }
            None => None,
        };
        Ok(Header { tag, start, end })
    }

    /// Whether the contents of `h` continue (and consumes the end-of-contents
    /// marker of an indefinite length when they do not).
    fn more(&mut self, h: &Header) -> Result<bool, Error> {
        match h.end {
            Some(end) if self.pos < end => Ok(true),
            Some(end) if self.pos == end => Ok(false),
            Some(_) => Err(bad(format!(
                "element at byte {} overruns its length",
                h.start
            ))),
            None => {
                if self.data.get(self.pos..self.pos + 2) == Some(&[0, 0]) {
                    self.pos += 2;
                    Ok(false)
                } else if self.pos >= self.data.len() {
                    Err(bad("truncated (no end-of-contents)"))
                } else {
                    Ok(true)
                }
            }
        }
    }

    /// An element copied as received; it must have a definite length.
    fn verbatim(&mut self, out: &mut Vec<u8>, what: &str) -> Result<(), Error> {
        let h = self.header()?;
        let end = h.end.ok_or_else(|| {
            bad(format!(
                "{what} at byte {} has an indefinite length; it must be DER",
                h.start
            ))
        })?;
        out.extend_from_slice(&self.data[h.start..end]);
        self.pos = end;
        Ok(())
    }

    /// Any element, converted to DER: definite lengths, constructed OCTET
    /// STRINGs joined into one.
    fn any(&mut self, out: &mut Vec<u8>, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(bad("nested too deeply"));
        }
        let h = self.header()?;
        if h.tag == OCTET_STRING_CONSTRUCTED {
            let body = open(out, OCTET_STRING);
            self.octet_chunks(&h, out, depth)?;
            return close(out, body);
        }
        if h.tag & 0x20 == 0 {
            let end = h.end.ok_or_else(|| bad("indefinite primitive"))?;
            let body = &self.data[self.pos..end];
            self.pos = end;
            return emit(out, h.tag, body);
        }
        let body = open(out, h.tag);
        while self.more(&h)? {
            self.any(out, depth + 1)?;
        }
        close(out, body)
    }

    fn octet_chunks(&mut self, h: &Header, out: &mut Vec<u8>, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(bad("nested too deeply"));
        }
        while self.more(h)? {
            let c = self.header()?;
            match (c.tag, c.end) {
                (OCTET_STRING, Some(end)) => {
                    out.extend_from_slice(&self.data[self.pos..end]);
                    self.pos = end;
                }
                (OCTET_STRING_CONSTRUCTED, _) => self.octet_chunks(&c, out, depth + 1)?,
                _ => {
                    return Err(bad(format!(
                        "a constructed OCTET STRING holds tag 0x{:02x} at byte {}",
                        c.tag, c.start
                    )))
                }
            }
        }
        Ok(())
    }

    /// A constructed element with tag `tag`, its elements converted by `f`.
    fn wrap(
        &mut self,
        tag: u8,
        what: &str,
        out: &mut Vec<u8>,
        mut f: impl FnMut(&mut Self, &mut Vec<u8>, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let h = self.header()?;
        if h.tag != tag {
            return Err(bad(format!(
                "expected {what} (tag 0x{tag:02x}) at byte {}, found tag 0x{:02x}",
                h.start, h.tag
            )));
        }
        let body = open(out, tag);
        let mut i = 0;
        while self.more(&h)? {
            f(self, out, i)?;
            i += 1;
        }
        close(out, body)
    }
}

/// Appends a DER element.
fn emit(out: &mut Vec<u8>, tag: u8, body: &[u8]) -> Result<(), Error> {
    let at = open(out, tag);
    out.extend_from_slice(body);
    close(out, at)
}

/// Starts a DER element in `out`: its tag and room for the longest length
/// this converter writes (5 bytes). Its body is then written straight into
/// `out`, and [`close`] puts the length in front: each layer of a SignedData
/// is converted in place, so a large attached content is held once, not
/// once per layer.
fn open(out: &mut Vec<u8>, tag: u8) -> usize {
    out.push(tag);
    out.extend_from_slice(&[0; 5]);
    out.len()
}

/// Ends the element whose body starts at `body` (as [`open`] returned): the
/// minimal length is written and the body moved up against it.
fn close(out: &mut Vec<u8>, body: usize) -> Result<(), Error> {
    let len = u32::try_from(out.len() - body).map_err(|_| bad("larger than 4 GiB"))?;
    let (mut head, n) = (
        [0u8; 5],
        if len < 0x80 {
            1
        } else {
            1 + (4 - len.leading_zeros() as usize / 8)
        },
    );
    if n == 1 {
        head[0] = len as u8;
    } else {
        head[0] = 0x80 | (n - 1) as u8;
        head[1..n].copy_from_slice(&len.to_be_bytes()[5 - n..]);
    }
    let at = body - 5;
    out[at..at + n].copy_from_slice(&head[..n]);
    out.copy_within(body.., at + n);
    out.truncate(out.len() - (5 - n));
    Ok(())
}

fn capped(i: usize, max: usize, what: &str) -> Result<(), Error> {
    if i >= max {
        return Err(Error::Pki(format!(
            "the SignedData has more than {max} {what}; refused (each costs time to check)"
        )));
    }
    Ok(())
}

/// The DER of a BER ContentInfo holding SignedData (see the module
/// documentation for what is converted and what must already be DER).
pub(crate) fn signed_data_to_der(input: &[u8]) -> Result<Vec<u8>, Error> {
    let mut r = Ber {
        data: input,
        pos: 0,
    };
    // DER is at most a few bytes per layer longer than the BER it comes from.
    let mut out = Vec::with_capacity(input.len().saturating_add(64));
    r.wrap(
        SEQUENCE,
        "ContentInfo SEQUENCE",
        &mut out,
        |r, out, i| match i {
            0 => {
                let mut oid = Vec::new();
                r.verbatim(&mut oid, "content type")?;
                if oid != ID_SIGNED_DATA_DER {
                    return Err(Error::Pki(
                        "the CMS content type is not SignedData (1.2.840.113549.1.7.2)".into(),
                    ));
                }
                out.extend_from_slice(&oid);
                Ok(())
            }
            1 => r.wrap(CONTEXT_0, "[0] content", out, |r, out, j| {
                if j > 0 {
                    return Err(bad("[0] content holds more than one element"));
                }
                signed_data(r, out)
            }),
            _ => Err(bad("ContentInfo has more than two elements")),
        },
    )?;
    if r.pos != input.len() {
        return Err(bad(format!("trailing data after byte {}", r.pos)));
    }
    Ok(out)
}

fn signed_data(r: &mut Ber<'_>, out: &mut Vec<u8>) -> Result<(), Error> {
    r.wrap(SEQUENCE, "SignedData SEQUENCE", out, |r, out, i| {
        match (i, r.peek()) {
            (0, _) => r.verbatim(out, "version"),
            (1, _) => r.wrap(SET, "digestAlgorithms SET", out, |r, out, j| {
                capped(j, MAX_DIGEST_ALGORITHMS, "digest algorithms")?;
                r.any(out, 0)
            }),
            (2, _) => r.wrap(
                SEQUENCE,
                "encapContentInfo SEQUENCE",
                out,
                |r, out, j| match j {
                    0 => r.verbatim(out, "eContentType"),
                    1 => r.wrap(CONTEXT_0, "[0] eContent", out, |r, out, k| {
                        if k > 0 {
                            return Err(bad("[0] eContent holds more than one element"));
                        }
                        r.any(out, 0)
                    }),
                    _ => Err(bad("encapContentInfo has more than two elements")),
                },
            ),
            (_, Some(tag @ (CONTEXT_0 | CONTEXT_1))) => {
                r.wrap(tag, "certificates", out, |r, out, j| {
                    capped(j, MAX_CERTIFICATES, "certificates or CRLs")?;
                    r.verbatim(out, "a certificate or CRL")
                })
            }
            (_, Some(SET)) => r.wrap(SET, "signerInfos SET", out, |r, out, j| {
                capped(j, MAX_SIGNER_INFOS, "SignerInfos")?;
                r.wrap(SEQUENCE, "SignerInfo SEQUENCE", out, |r, out, _| {
                    if r.peek() == Some(CONTEXT_0) {
                        r.verbatim(out, "signed attributes")
                    } else {
                        r.any(out, 0)
                    }
                })
            }),
            (_, tag) => Err(bad(format!(
                "unexpected tag 0x{:02x} in SignedData",
                tag.unwrap_or(0)
            ))),
        }
    })
}

/// The raw elements of the SignedData in the DER `der` (as made by
/// [`signed_data_to_der`]): the certificate choices and the SignerInfos, in
/// the order received.
pub(crate) struct RawParts<'a> {
    /// The SignedData element inside the ContentInfo.
    pub signed_data: &'a [u8],
    pub certificates: Vec<&'a [u8]>,
    pub signer_infos: Vec<&'a [u8]>,
}

pub(crate) fn raw_parts(der: &[u8]) -> Result<RawParts<'_>, Error> {
    let mut r = Ber { data: der, pos: 0 };
    let mut parts = RawParts {
        signed_data: &[],
        certificates: Vec::new(),
        signer_infos: Vec::new(),
    };
    r.header()?; // ContentInfo
    r.verbatim(&mut Vec::new(), "content type")?;
    r.header()?; // [0]
    let sd = r.header()?;
    let sd_end = sd
        .end
        .ok_or_else(|| bad("indefinite length after conversion"))?;
    parts.signed_data = &der[sd.start..sd_end];
    let mut i = 0;
    while r.more(&sd)? {
        let h = r.header()?;
        let end = h
            .end
            .ok_or_else(|| bad("indefinite length after conversion"))?;
        let list = match (i, h.tag) {
            (0..=2, _) => None,
            (_, CONTEXT_0) => Some(&mut parts.certificates),
            (_, SET) => Some(&mut parts.signer_infos),
            _ => None,
        };
        i += 1;
        let Some(list) = list else {
            r.pos = end;
            continue;
        };
        while r.more(&h)? {
            let e = r.header()?;
            let e_end = e
                .end
                .ok_or_else(|| bad("indefinite length after conversion"))?;
            list.push(&der[e.start..e_end]);
            r.pos = e_end;
        }
    }
    Ok(parts)
}

/// The raw `[0] IMPLICIT` signed attributes of a DER SignerInfo, with the
/// SET tag they are signed under (RFC 5652 §5.4), if it has any.
pub(crate) fn signed_attrs_as_signed(signer_info: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    let mut r = Ber {
        data: signer_info,
        pos: 0,
    };
    let h = r.header()?;
    while r.more(&h)? {
        let e = r.header()?;
        let end = e
            .end
            .ok_or_else(|| bad("indefinite length in a SignerInfo"))?;
        if e.tag == CONTEXT_0 {
            let mut raw = signer_info[e.start..end].to_vec();
            raw[0] = SET;
            return Ok(Some(raw));
        }
        r.pos = end;
    }
    Ok(None)
}
