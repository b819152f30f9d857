//! The agent's protocol on its socket: frames of one kind byte, a 4-byte
//! big-endian length and that many bytes, each frame's body a sequence of
//! fields (a 4-byte length, then the bytes; numbers as 8 bytes big-endian).
//! Every length is checked against a cap before anything is allocated, so
//! a peer that lies about a length gets an error, not a large allocation.

use std::io::{self, Read, Write};

use zeroize::Zeroizing;

/// What a frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Client: hold a key (its set, mode, secret bytes, tree cache, file).
    Add = 1,
    /// Client: which key, if any, was added from this file.
    Find = 2,
    /// Client: sign with a held key (its handle, the options; the message
    /// follows on the agent's `Feed` requests).
    Sign = 3,
    /// Client: the keys held.
    List = 4,
    /// Client: wipe every key, keep running.
    Lock = 5,
    /// Client: wipe every key and end.
    Stop = 6,
    /// Client: log in to a PKCS#11 token and hold its key (the key's URI,
    /// the module, the PIN, the key's identity, a name, the time).
    AddToken = 7,
    /// Agent: send the whole message (once per pass signing makes).
    Feed = 10,
    /// Client: a piece of the message.
    Data = 11,
    /// Client: the end of one pass over the message.
    End = 12,
    /// Agent: done; the answer's fields follow.
    Ok = 20,
    /// Agent: refused or failed; the reason follows as text.
    Error = 21,
}

impl Kind {
    /// Every kind, so that a byte is mapped back through the discriminants
    /// above and nowhere else.
    const ALL: [Kind; 12] = [
        Kind::Add,
        Kind::AddToken,
        Kind::Find,
        Kind::Sign,
        Kind::List,
        Kind::Lock,
        Kind::Stop,
        Kind::Feed,
        Kind::Data,
        Kind::End,
        Kind::Ok,
        Kind::Error,
    ];

    fn from_byte(b: u8) -> io::Result<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| *k as u8 == b)
            .ok_or_else(|| bad(format!("unknown frame kind {b}")))
    }
}

/// The largest frame body: a key with its tree cache (the core caps a
/// cache at 4 MiB) and some fields.
pub const MAX_FRAME: usize = 5 << 20;

/// The size of the pieces a message is sent in.
pub const CHUNK: usize = 64 << 10;

fn bad(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// Writes one frame.
pub fn send(w: &mut impl Write, kind: Kind, body: &[u8]) -> io::Result<()> {
    let len = u32::try_from(body.len())
        .ok()
        .filter(|&n| n as usize <= MAX_FRAME)
        .ok_or_else(|| bad(format!("a frame of {} bytes is too long", body.len())))?;
    let mut head = [0u8; 5];
    head[0] = kind as u8;
    head[1..].copy_from_slice(&len.to_be_bytes());
    w.write_all(&head)?;
    w.write_all(body)?;
    w.flush()
}

/// Reads one frame; its body is wiped when dropped (it may hold a key).
pub fn receive(r: &mut impl Read) -> io::Result<(Kind, Zeroizing<Vec<u8>>)> {
    let mut head = [0u8; 5];
    r.read_exact(&mut head)?;
    let kind = Kind::from_byte(head[0])?;
    let len = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
    if len > MAX_FRAME {
        return Err(bad(format!(
            "a frame of {len} bytes is longer than the {MAX_FRAME} allowed"
        )));
    }
    let mut body = Zeroizing::new(vec![0u8; len]);
    r.read_exact(&mut body)?;
    Ok((kind, body))
}

/// A frame body being written, wiped when dropped.
#[derive(Default)]
pub struct Fields(Zeroizing<Vec<u8>>);

impl Fields {
    pub fn new() -> Fields {
        Fields::default()
    }

    pub fn bytes(mut self, b: &[u8]) -> Fields {
        self.0.extend_from_slice(&(b.len() as u32).to_be_bytes());
        self.0.extend_from_slice(b);
        self
    }

    pub fn text(self, s: &str) -> Fields {
        self.bytes(s.as_bytes())
    }

    pub fn number(mut self, n: u64) -> Fields {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }

    pub fn body(&self) -> &[u8] {
        &self.0
    }
}

/// A frame body being read, field by field.
pub struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    pub fn new(body: &'a [u8]) -> Reader<'a> {
        Reader(body)
    }

    pub fn bytes(&mut self) -> io::Result<&'a [u8]> {
        let n = u32::from_be_bytes(self.take(4)?.try_into().expect("4 bytes")) as usize;
        self.take(n)
    }

    pub fn text(&mut self) -> io::Result<&'a str> {
        std::str::from_utf8(self.bytes()?).map_err(|_| bad("a text field is not UTF-8".into()))
    }

    pub fn number(&mut self) -> io::Result<u64> {
        Ok(u64::from_be_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    /// Fails unless every field was read.
    pub fn end(&self) -> io::Result<()> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(bad(format!("{} bytes after the last field", self.0.len())))
        }
    }

    fn take(&mut self, n: usize) -> io::Result<&'a [u8]> {
        if n > self.0.len() {
            return Err(bad("a field runs past the end of its frame".into()));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_and_lies_are_refused() {
        let f = Fields::new()
            .text("SLH-DSA-SHA2-128f")
            .number(7)
            .bytes(&[1, 2, 3]);
        let mut wire = Vec::new();
        send(&mut wire, Kind::Add, f.body()).unwrap();
        let (kind, body) = receive(&mut &wire[..]).unwrap();
        assert_eq!(kind, Kind::Add);
        let mut r = Reader::new(&body);
        assert_eq!(r.text().unwrap(), "SLH-DSA-SHA2-128f");
        assert_eq!(r.number().unwrap(), 7);
        assert_eq!(r.bytes().unwrap(), &[1, 2, 3]);
        r.end().unwrap();
        assert!(r.bytes().is_err(), "reading past the end fails");

        // A field that claims more bytes than its frame has.
        let lying = [0u8, 0, 0, 9, 1, 2];
        assert!(Reader::new(&lying).bytes().is_err());
        // A frame that claims more than the cap: refused before allocating.
        let mut big = vec![Kind::Data as u8];
        big.extend_from_slice(&u32::MAX.to_be_bytes());
        assert!(receive(&mut &big[..]).is_err());
        // An unknown kind.
        assert!(receive(&mut &[99u8, 0, 0, 0, 0][..]).is_err());
    }

    #[test]
    fn every_kind_and_only_those_round_trip() {
        let mut known = 0;
        for b in 0..=255u8 {
            if let Ok(k) = Kind::from_byte(b) {
                assert_eq!(k as u8, b);
                known += 1;
            }
        }
        assert_eq!(known, Kind::ALL.len());
        for k in [Kind::Sign, Kind::Feed, Kind::End, Kind::Error] {
            assert_eq!(Kind::from_byte(k as u8).unwrap(), k);
        }
    }
}
