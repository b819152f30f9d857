//! `demo`: the whole life of a key on a built-in message, with sizes and timings.

use std::time::{Duration, Instant};

use sphincs::{Algorithm, DynSigningKey, Error, SignOptions};

use crate::error::CliError;
use crate::keyfile::parse_algorithm;

const MESSAGE: &[u8] =
    b"SLH-DSA (FIPS 205): signatures whose security rests on hash functions alone.";

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// Generates a key, signs, verifies, and shows that a tampered message fails.
pub fn run(alg: Option<&str>) -> Result<(), CliError> {
    let alg = parse_algorithm(alg)?.unwrap_or(Algorithm::Shake128f);
    println!(
        "{alg} (security category {}, OID {})",
        alg.security_category(),
        alg.oid()
    );

    let (key, t) = timed(|| DynSigningKey::generate(alg));
    let key = key?;
    let vk = key.verifying_key();
    println!(
        "key generation   {:>10}   public key {} bytes, private key {} bytes",
        ms(t),
        alg.public_key_len(),
        alg.secret_key_len()
    );

    let context = b"sphincs demo";
    let opts = SignOptions {
        context,
        ..Default::default()
    };
    let (sig, t) = timed(|| key.sign(MESSAGE, &opts));
    let sig = sig?;
    println!(
        "signing          {:>10}   signature {} bytes (hedged, context {:?})",
        ms(t),
        sig.len(),
        String::from_utf8_lossy(context)
    );

    let (ok, t) = timed(|| vk.verify(MESSAGE, &sig, context, None));
    ok?;
    println!("verifying        {:>10}   valid", ms(t));

    let mut tampered = MESSAGE.to_vec();
    tampered[0] ^= 1;
    let (bad, t) = timed(|| vk.verify(&tampered, &sig, context, None));
    match bad {
        Err(Error::InvalidSignature) => {
            println!("tampered message {:>10}   rejected, as it should be", ms(t))
        }
        Ok(()) => {
            return Err(CliError::Failed(
                "a tampered message verified: this build is broken".into(),
            ))
        }
        Err(e) => return Err(e.into()),
    }
    println!("message: {:?}", String::from_utf8_lossy(MESSAGE));
    Ok(())
}
