//! NIST's `PQCgenKAT_sign` known-answer procedure for the round-3.1 sets:
//! the AES-256 CTR-DRBG of the NIST `rng.c` and the `PQCsignKAT_<sk bytes>.rsp`
//! file it produces, byte for byte.

use crate::prelude::*;
use core::fmt::Write as _;

use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes::Aes256;
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::{SpxAlgorithm, SpxSignOptions, SpxSigningKey};
use crate::error::Error;
use crate::rand::Randomness;

/// The NIST AES-256 CTR-DRBG (SP 800-90A without derivation function or
/// reseeding, as in the submissions' `rng.c`). For test vectors only.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct KatDrbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl KatDrbg {
    /// `randombytes_init(entropy, NULL, 256)`.
    pub fn new(entropy: &[u8; 48]) -> Self {
        let mut d = KatDrbg {
            key: [0; 32],
            v: [0; 16],
        };
        d.update(Some(entropy));
        d
    }

    fn increment_v(&mut self) {
        for b in self.v.iter_mut().rev() {
            let (x, carry) = b.overflowing_add(1);
            *b = x;
            if !carry {
                break;
            }
        }
    }

    fn block(&self) -> [u8; 16] {
        let cipher = Aes256::new(&self.key.into());
        let mut block = self.v.into();
        cipher.encrypt_block(&mut block);
        block.into()
    }

    /// `AES256_CTR_DRBG_Update`.
    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for chunk in temp.chunks_exact_mut(16) {
            self.increment_v();
            chunk.copy_from_slice(&self.block());
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
        temp.zeroize();
    }

    /// `randombytes(out, len)`.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            self.increment_v();
            chunk.copy_from_slice(&self.block()[..chunk.len()]);
        }
        self.update(None);
    }
}

fn hex_line(out: &mut String, label: &str, bytes: &[u8]) {
    out.push_str(label);
    if bytes.is_empty() {
        // fprintBstr prints "00" for an empty string.
        out.push_str("00");
    }
    for b in bytes {
        let _ = write!(out, "{b:02X}");
    }
    out.push('\n');
}

/// The file name `PQCgenKAT_sign` gives the responses: `PQCsignKAT_<sk bytes>.rsp`.
pub fn rsp_file_name(alg: SpxAlgorithm) -> String {
    format!("PQCsignKAT_{}.rsp", alg.secret_key_len())
}

/// Writes the first `count` entries of the `.rsp` file (NIST writes 100),
/// each handed to `sink` as soon as it is complete. Each entry reseeds the
/// DRBG with its own seed, draws 3n bytes for the key pair and n for the
/// signature's optrand, signs with `sm` = signature ‖ message, and checks
/// that `sm` opens, as `PQCgenKAT_sign` does.
pub fn write_rsp(
    alg: SpxAlgorithm,
    count: usize,
    threads: usize,
    sink: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    let mut outer = KatDrbg::new(&entropy);
    let n = alg.params().n;
    sink("# SPHINCS+\n\n")?;
    for i in 0..count {
        let mut seed = [0u8; 48];
        outer.fill(&mut seed);
        let mlen = 33 * (i + 1);
        let mut msg = vec![0u8; mlen];
        outer.fill(&mut msg);

        let mut drbg = KatDrbg::new(&seed);
        let mut key_seed = zeroize::Zeroizing::new([0u8; 96]);
        drbg.fill(&mut key_seed[..3 * n]);
        let sk = SpxSigningKey::from_seed_with_threads(alg, &key_seed[..3 * n], threads)?;
        let mut opt = zeroize::Zeroizing::new([0u8; 32]);
        drbg.fill(&mut opt[..n]);
        let opts = SpxSignOptions {
            randomness: Randomness::Given(&opt[..n]),
            threads,
            fault_hardened: false,
        };
        let sm = sk.sign_attached(&msg, &opts)?;
        let vk = sk.verifying_key();
        if vk.open(&sm)? != msg.as_slice() {
            return Err(Error::InvalidSignature);
        }

        let mut e = String::with_capacity(2 * sm.len() + 4 * mlen + 512);
        let _ = writeln!(e, "count = {i}");
        hex_line(&mut e, "seed = ", &seed);
        let _ = writeln!(e, "mlen = {mlen}");
        hex_line(&mut e, "msg = ", &msg);
        hex_line(&mut e, "pk = ", &vk.to_bytes());
        hex_line(&mut e, "sk = ", &sk.to_bytes());
        let _ = writeln!(e, "smlen = {}", sm.len());
        hex_line(&mut e, "sm = ", &sm);
        e.push('\n');
        sink(&e)?;
        e.zeroize();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first 48 bytes `PQCgenKAT_sign` draws (the count-0 seed of every
    /// round-3 submission's KAT file).
    #[test]
    fn drbg_first_seed() {
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        let mut d = KatDrbg::new(&entropy);
        let mut seed = [0u8; 48];
        d.fill(&mut seed);
        let hex: String = seed.iter().map(|b| format!("{b:02X}")).collect();
        assert_eq!(
            hex,
            "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7\
             056A8C266F9EF97ED08541DBD2E1FFA1"
        );
    }
}
