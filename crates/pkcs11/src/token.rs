//! The one token: its label, its two PINs with their retry counters, and
//! who is logged in. PINs are kept as salted PBKDF2-HMAC-SHA256 verifiers
//! compared in constant time; `store.rs` writes them with the counters.

use cryptoki_sys::*;
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::store::{Reader, Writer};

/// PBKDF2 iterations of a PIN verifier.
const PIN_ROUNDS: u32 = 100_000;

/// Shortest and longest PIN, in bytes.
pub(crate) const MIN_PIN_LEN: usize = 4;
pub(crate) const MAX_PIN_LEN: usize = 255;
/// Wrong PINs in a row that lock a PIN.
pub(crate) const MAX_PIN_TRIES: u32 = 3;

/// A PIN's verifier and how many wrong PINs were given since the last right one.
#[derive(Clone)]
pub(crate) struct Pin {
    salt: [u8; 16],
    hash: [u8; 32],
    failures: u32,
}

impl Pin {
    /// A verifier for `pin` with a fresh salt.
    pub(crate) fn new(pin: &[u8]) -> Result<Pin, CK_RV> {
        check_len(pin)?;
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|_| CKR_FUNCTION_FAILED)?;
        Ok(Pin {
            salt,
            hash: hash(&salt, pin),
            failures: 0,
        })
    }

    fn write(&self, w: &mut Writer) {
        w.0.extend_from_slice(&self.salt);
        w.0.extend_from_slice(&self.hash);
        w.u32(self.failures);
    }

    fn read(r: &mut Reader<'_>) -> Option<Pin> {
        Some(Pin {
            salt: r.array()?,
            hash: r.array()?,
            failures: r.u32()?,
        })
    }

    /// Whether this PIN is locked.
    pub(crate) fn locked(&self) -> bool {
        self.failures >= MAX_PIN_TRIES
    }

    /// Checks `pin`: CKR_PIN_LOCKED once locked (the right PIN included),
    /// CKR_PIN_INCORRECT for a wrong one (counted), `Ok` for the right one
    /// (the count starts again).
    pub(crate) fn check(&mut self, pin: &[u8]) -> Result<(), CK_RV> {
        if self.locked() {
            return Err(CKR_PIN_LOCKED);
        }
        let ok: bool = hash(&self.salt, pin).ct_eq(&self.hash).into();
        if ok {
            self.failures = 0;
            Ok(())
        } else {
            self.failures += 1;
            Err(CKR_PIN_INCORRECT)
        }
    }

    /// CKF_*_PIN_COUNT_LOW / FINAL_TRY / LOCKED, given the three flags of one PIN.
    fn flags(&self, low: CK_FLAGS, final_try: CK_FLAGS, locked: CK_FLAGS) -> CK_FLAGS {
        let mut f = 0;
        if self.failures > 0 {
            f |= low;
        }
        if self.failures + 1 == MAX_PIN_TRIES {
            f |= final_try;
        }
        if self.locked() {
            f |= locked;
        }
        f
    }
}

fn hash(salt: &[u8], pin: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    pbkdf2::pbkdf2_hmac::<Sha256>(pin, salt, PIN_ROUNDS, &mut out);
    out
}

/// CKR_PIN_LEN_RANGE for a PIN outside MIN_PIN_LEN..=MAX_PIN_LEN.
pub(crate) fn check_len(pin: &[u8]) -> Result<(), CK_RV> {
    if (MIN_PIN_LEN..=MAX_PIN_LEN).contains(&pin.len()) {
        Ok(())
    } else {
        Err(CKR_PIN_LEN_RANGE)
    }
}

const TOKEN_MAGIC: &[u8; 8] = b"SPHTOK1\0";

/// Who is logged in to the token (shared by every session, as PKCS#11 has it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Login {
    Public,
    User,
    So,
}

/// The token's state.
pub(crate) struct Token {
    /// 32 bytes, blank-padded.
    pub(crate) label: [u8; 32],
    pub(crate) so_pin: Option<Pin>,
    pub(crate) user_pin: Option<Pin>,
    pub(crate) login: Login,
}

impl Token {
    pub(crate) const fn new() -> Token {
        Token {
            label: [b' '; 32],
            so_pin: None,
            user_pin: None,
            login: Login::Public,
        }
    }

    /// Whether C_InitToken has run.
    pub(crate) fn initialized(&self) -> bool {
        self.so_pin.is_some()
    }

    /// The token as `token.bin` keeps it (label, PIN verifiers, counters).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.0.extend_from_slice(TOKEN_MAGIC);
        w.0.extend_from_slice(&self.label);
        for pin in [&self.so_pin, &self.user_pin] {
            match pin {
                Some(p) => {
                    w.u8(1);
                    p.write(&mut w);
                }
                None => w.u8(0),
            }
        }
        w.0
    }

    /// A token read back from [`Token::to_bytes`] (nobody logged in);
    /// `None` if the bytes are not one.
    pub(crate) fn from_bytes(b: &[u8]) -> Option<Token> {
        let mut r = Reader(b.strip_prefix(TOKEN_MAGIC)?);
        let label = r.array()?;
        let mut pins = [None, None];
        for pin in &mut pins {
            if r.u8()? == 1 {
                *pin = Some(Pin::read(&mut r)?);
            }
        }
        let [so_pin, user_pin] = pins;
        r.done().then_some(Token {
            label,
            so_pin,
            user_pin,
            login: Login::Public,
        })
    }

    /// The flags of CK_TOKEN_INFO.
    pub(crate) fn flags(&self) -> CK_FLAGS {
        let mut f = CKF_RNG | CKF_LOGIN_REQUIRED;
        if self.initialized() {
            f |= CKF_TOKEN_INITIALIZED;
        }
        if let Some(so) = &self.so_pin {
            f |= so.flags(
                CKF_SO_PIN_COUNT_LOW,
                CKF_SO_PIN_FINAL_TRY,
                CKF_SO_PIN_LOCKED,
            );
        }
        if let Some(user) = &self.user_pin {
            f |= CKF_USER_PIN_INITIALIZED;
            f |= user.flags(
                CKF_USER_PIN_COUNT_LOW,
                CKF_USER_PIN_FINAL_TRY,
                CKF_USER_PIN_LOCKED,
            );
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_count_and_lock() {
        let mut p = Pin::new(b"1234").unwrap();
        assert_eq!(p.check(b"1234"), Ok(()));
        assert_eq!(p.check(b"0000"), Err(CKR_PIN_INCORRECT));
        assert_eq!(p.flags(1, 2, 4), 1);
        assert_eq!(p.check(b"0000"), Err(CKR_PIN_INCORRECT));
        assert_eq!(p.flags(1, 2, 4), 1 | 2);
        assert_eq!(p.check(b"0000"), Err(CKR_PIN_INCORRECT));
        assert_eq!(p.flags(1, 2, 4), 1 | 4);
        assert_eq!(p.check(b"1234"), Err(CKR_PIN_LOCKED));
        assert!(Pin::new(b"123").is_err());
    }

    #[test]
    fn tokens_round_trip() {
        let mut t = Token::new();
        t.label[0] = b'x';
        t.so_pin = Some(Pin::new(b"so-pin").unwrap());
        let mut user = Pin::new(b"user-pin").unwrap();
        let _ = user.check(b"wrong");
        t.user_pin = Some(user);
        let mut back = Token::from_bytes(&t.to_bytes()).unwrap();
        assert_eq!(back.label, t.label);
        assert_eq!(back.flags(), t.flags());
        assert_eq!(back.user_pin.as_mut().unwrap().check(b"user-pin"), Ok(()));
        let bytes = t.to_bytes();
        assert!(Token::from_bytes(&bytes[..bytes.len() - 1]).is_none());
    }
}
