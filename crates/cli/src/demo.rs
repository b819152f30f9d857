//! `demo`: the whole life of a key on a built-in message, with sizes and timings.

use std::time::{Duration, Instant};

use sphincs::sphincs256::{params as s256, Sphincs256SigningKey};
use sphincs::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey};
use sphincs::{Algorithm, DynSigningKey, Error, SignOptions};

use crate::error::CliError;
use crate::io::write_stdout;
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

/// One line to standard output; a closed pipe is an error, not a panic.
fn say(line: String) -> Result<(), CliError> {
    write_stdout((line + "\n").as_bytes(), false)
}

/// What the demo needs of a key of either standard.
struct Walk<'a> {
    title: String,
    pk_len: usize,
    sk_len: usize,
    /// Generates the key and returns its signing and verifying functions.
    keygen: Box<dyn FnOnce() -> Result<Keys<'a>, Error> + 'a>,
    /// How the signature is made, for the signing line.
    how: String,
}

/// Signs a message.
type SignFn<'a> = Box<dyn Fn(&[u8]) -> Result<Vec<u8>, Error> + 'a>;
/// Verifies a signature on a message.
type VerifyFn<'a> = Box<dyn Fn(&[u8], &[u8]) -> Result<(), Error> + 'a>;

struct Keys<'a> {
    sign: SignFn<'a>,
    verify: VerifyFn<'a>,
}

/// Generates a key, signs, verifies, and shows that a tampered message fails.
pub fn run(alg: Option<&str>) -> Result<(), CliError> {
    let walk = match alg.and_then(|n| n.parse::<SpxAlgorithm>().ok()) {
        _ if alg.is_some_and(crate::cmd_s256::is) => sphincs256(),
        Some(spx) => round31(spx),
        None => fips205(parse_algorithm(alg)?.unwrap_or(Algorithm::Shake128f)),
    };
    say(walk.title)?;
    let (keys, t) = timed(walk.keygen);
    let keys = keys?;
    say(format!(
        "key generation   {:>10}   public key {} bytes, private key {} bytes",
        ms(t),
        walk.pk_len,
        walk.sk_len
    ))?;
    let (sig, t) = timed(|| (keys.sign)(MESSAGE));
    let sig = sig?;
    say(format!(
        "signing          {:>10}   signature {} bytes ({})",
        ms(t),
        sig.len(),
        walk.how
    ))?;
    let (ok, t) = timed(|| (keys.verify)(MESSAGE, &sig));
    ok?;
    say(format!("verifying        {:>10}   valid", ms(t)))?;

    let mut tampered = MESSAGE.to_vec();
    tampered[0] ^= 1;
    let (bad, t) = timed(|| (keys.verify)(&tampered, &sig));
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

const CONTEXT: &[u8] = b"sphincs demo";

fn fips205(alg: Algorithm) -> Walk<'static> {
    Walk {
        title: format!(
            "{alg} (security category {}, OID {})",
            alg.security_category(),
            alg.oid().unwrap_or_else(|| "none".into())
        ),
        pk_len: alg.public_key_len(),
        sk_len: alg.secret_key_len(),
        keygen: Box::new(move || {
            let key = DynSigningKey::generate(alg)?;
            let vk = key.verifying_key();
            Ok(Keys {
                sign: Box::new(move |m| {
                    let opts = SignOptions {
                        context: CONTEXT,
                        ..Default::default()
                    };
                    key.sign(m, &opts)
                }),
                verify: Box::new(move |m, sig| vk.verify(m, sig, CONTEXT, None)),
            })
        }),
        how: format!("hedged, context {:?}", String::from_utf8_lossy(CONTEXT)),
    }
}

fn round31(alg: SpxAlgorithm) -> Walk<'static> {
    Walk {
        title: format!(
            "{alg} (SPHINCS+ round 3.1, security category {}, raw keys: no OID)",
            alg.security_category()
        ),
        pk_len: alg.public_key_len(),
        sk_len: alg.secret_key_len(),
        keygen: Box::new(move || {
            let key = SpxSigningKey::generate(alg)?;
            let vk = key.verifying_key();
            Ok(Keys {
                sign: Box::new(move |m| key.sign(m, &SpxSignOptions::default())),
                verify: Box::new(move |m, sig| vk.verify(m, sig)),
            })
        }),
        how: "randomized, no context in round 3.1".into(),
    }
}

fn sphincs256() -> Walk<'static> {
    Walk {
        title: "sphincs-256 (SPHINCS, EUROCRYPT 2015: ChaCha12 and BLAKE; raw keys: no OID)".into(),
        pk_len: s256::PK_BYTES,
        sk_len: s256::SK_BYTES,
        keygen: Box::new(move || {
            let key = Sphincs256SigningKey::generate()?;
            let vk = key.verifying_key();
            Ok(Keys {
                sign: Box::new(move |m| Ok(key.sign(m))),
                verify: Box::new(move |m, sig| vk.verify(m, sig)),
            })
        }),
        how: "deterministic, as the SUPERCOP reference".into(),
    }
}
