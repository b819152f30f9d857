//! Verification of arbitrary SPHINCS-256 public keys, signatures and
//! messages: detached and attached (`open`) must never panic and must agree.
//!
//! Input: `pk (1056 bytes) msg_len (u16 BE) msg sig (the rest)`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::sphincs256::{params, Sphincs256VerifyingKey};

fn take<'a>(data: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if data.len() < n {
        return None;
    }
    let (head, tail) = data.split_at(n);
    *data = tail;
    Some(head)
}

fn run(mut data: &[u8]) -> Option<()> {
    let pk = take(&mut data, params::PK_BYTES)?;
    let len = take(&mut data, 2)?;
    let msg = take(&mut data, usize::from(u16::from_be_bytes([len[0], len[1]])))?;
    let sig = data;

    let vk = Sphincs256VerifyingKey::from_bytes(pk).expect("pk has the right length");
    let detached = vk.verify(msg, sig).is_ok();
    let sm = [sig, msg].concat();
    let attached = vk.open(&sm);
    if sig.len() == params::SIG_BYTES {
        assert_eq!(detached, attached.is_ok(), "detached and attached disagree");
        if let Ok(m) = attached {
            assert_eq!(m, msg);
        }
    }
    if detached {
        assert_eq!(sig.len(), params::SIG_BYTES);
    }
    Some(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
