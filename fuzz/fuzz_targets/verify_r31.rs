//! Verification of arbitrary SPHINCS+ round-3.1 public keys, signatures and
//! messages for all 36 sets: detached and attached (`open`) must never panic
//! and must agree.
//!
//! Input: `[set] pk (2n bytes) msg_len (u16 BE) msg sig (the rest)`; `set`
//! picks one of the 36 sets (mod 36).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::sphincsplus::{SpxAlgorithm, SpxVerifyingKey};

fn take<'a>(data: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if data.len() < n {
        return None;
    }
    let (head, tail) = data.split_at(n);
    *data = tail;
    Some(head)
}

fn run(mut data: &[u8]) -> Option<()> {
    let all = SpxAlgorithm::ALL;
    let alg = all[usize::from(take(&mut data, 1)?[0]) % all.len()];
    let pk = take(&mut data, alg.public_key_len())?;
    let len = take(&mut data, 2)?;
    let msg = take(&mut data, usize::from(u16::from_be_bytes([len[0], len[1]])))?;
    let sig = data;

    let vk = SpxVerifyingKey::from_bytes(alg, pk).expect("pk has the set's length");
    let detached = vk.verify(msg, sig).is_ok();
    let sm = [sig, msg].concat();
    let attached = vk.open(&sm);
    // `open` splits at the signature length: it agrees when sig has that length.
    if sig.len() == alg.signature_len() {
        assert_eq!(detached, attached.is_ok(), "detached and attached disagree");
        if let Ok(m) = attached {
            assert_eq!(m, msg);
        }
    }
    if detached {
        assert_eq!(sig.len(), alg.signature_len());
    }
    Some(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
