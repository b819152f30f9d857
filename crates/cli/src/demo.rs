//! `demo`: the whole life of a key on a built-in message, with sizes and
//! timings, for a set of any family (through `sphincs::any`: what the set
//! has, a context string or an OID, is asked of it, not of its family).

use std::time::{Duration, Instant};

use sphincs::any::{AnyAlgorithm, AnySigningKey};
use sphincs::{Algorithm, Error, SignOptions};

use crate::error::CliError;
use crate::files::write::write_stdout;
use crate::keys::load::parse_any;

const MESSAGE: &[u8] =
    b"SLH-DSA (FIPS 205): signatures whose security rests on hash functions alone.";

/// The context string of the sets that take one.
const CONTEXT: &[u8] = b"sphincs demo";

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// One line to standard output; a closed pipe is an error, not a panic.
fn say(line: String) -> Result<(), CliError> {
    write_stdout((line + "\n").as_bytes(), false)
}

/// The first line: the set, its family, category and OID (or raw keys).
fn title(alg: AnyAlgorithm) -> String {
    let mut about = vec![alg.family().name().to_string()];
    about.extend(
        alg.security_category()
            .map(|c| format!("security category {c}")),
    );
    about.push(match alg.slh_dsa().and_then(|a| a.oid()) {
        Some(oid) if alg.has_oid() => format!("OID {oid}"),
        _ => "raw keys: no OID".into(),
    });
    format!("{alg} ({})", about.join(", "))
}

/// How the signature is made, for the signing line.
fn how(alg: AnyAlgorithm, context: &[u8]) -> String {
    // A set without signing randomness (SPHINCS-256) signs deterministically.
    let randomness = match alg.randomness_len() {
        0 => "deterministic",
        _ => "hedged",
    };
    match context.is_empty() {
        true => format!("{randomness}, no context string in {}", alg.family()),
        false => format!(
            "{randomness}, context {:?}",
            String::from_utf8_lossy(context)
        ),
    }
}

/// Generates a key, signs, verifies, and shows that a tampered message fails.
pub fn run(alg: Option<&str>) -> Result<(), CliError> {
    let alg = parse_any(alg)?.unwrap_or(Algorithm::Shake128f.into());
    let context = match alg.has_fips205_features() {
        true => CONTEXT,
        false => b"",
    };
    say(title(alg))?;
    let (key, t) = timed(|| AnySigningKey::generate(alg, 1));
    let key = key?;
    let vk = key.verifying_key();
    say(format!(
        "key generation   {:>10}   public key {} bytes, private key {} bytes",
        ms(t),
        alg.public_key_len(),
        alg.secret_key_len()
    ))?;
    let opts = SignOptions {
        context,
        ..Default::default()
    };
    let (sig, t) = timed(|| key.sign(MESSAGE, &opts));
    let sig = sig?;
    say(format!(
        "signing          {:>10}   signature {} bytes ({})",
        ms(t),
        sig.len(),
        how(alg, context)
    ))?;
    let (ok, t) = timed(|| vk.verify(MESSAGE, &sig, context, None));
    ok?;
    say(format!("verifying        {:>10}   valid", ms(t)))?;

    let mut tampered = MESSAGE.to_vec();
    tampered[0] ^= 1;
    let (bad, t) = timed(|| vk.verify(&tampered, &sig, context, None));
    match bad {
        Err(Error::InvalidSignature) => say(format!(
            "tampered message {:>10}   rejected, as it should be",
            ms(t)
        ))?,
        Ok(()) => {
            return Err(CliError::Failed(
                "a tampered message verified: this build is broken".into(),
            ))
        }
        Err(e) => return Err(e.into()),
    }
    say(format!("message: {:?}", String::from_utf8_lossy(MESSAGE)))
}
