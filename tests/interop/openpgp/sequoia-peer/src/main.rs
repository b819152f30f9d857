//! sequoia-peer: a subset of the Stateless OpenPGP CLI over Sequoia (crate
//! `sequoia-openpgp`, RustCrypto backend), so that the interop tests can
//! cross-check our SLH-DSA OpenPGP (RFC 9580 v6 keys, RFC 9980 algorithms
//! 32-34) against an independent implementation.
//!
//! Verbs: version, generate-key, extract-cert, sign, verify, inline-sign,
//! inline-verify. Exit codes as SOP (see `sop.rs`).

// SOP's arguments, exit codes and dates, shared by both Rust peers.
#[path = "../../peer-common/date.rs"]
mod date;
mod keys;
mod sign;
#[path = "../../peer-common/sop.rs"]
mod sop;
mod verify;

use sop::{Args, SopError, SopResult, UNSUPPORTED_SUBCOMMAND};

fn run(argv: &[String]) -> SopResult<()> {
    let Some((verb, rest)) = argv.split_first() else {
        return Err(SopError::new(sop::MISSING_ARG, "missing subcommand"));
    };
    let dates = ["--not-before", "--not-after"];
    match verb.as_str() {
        "version" => {
            Args::parse(rest, &[], &[])?;
            println!("sequoia-peer {}", sequoia_openpgp::VERSION);
            Ok(())
        }
        "generate-key" => keys::generate_key(&Args::parse(rest, &["--no-armor"], &["--profile"])?),
        "extract-cert" => keys::extract_cert(&Args::parse(rest, &["--no-armor"], &[])?),
        "sign" => sign::sign(&Args::parse(rest, &["--no-armor"], &["--as"])?),
        "inline-sign" => sign::inline_sign(&Args::parse(rest, &["--no-armor"], &["--as"])?),
        "verify" => verify::verify(&Args::parse(rest, &[], &dates)?),
        "inline-verify" => {
            let valued = [dates[0], dates[1], "--verifications-out"];
            verify::inline_verify(&Args::parse(rest, &[], &valued)?)
        }
        other => Err(SopError::new(
            UNSUPPORTED_SUBCOMMAND,
            format!("unsupported subcommand {other}"),
        )),
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&argv) {
        eprintln!("sequoia-peer: {}", e.msg);
        std::process::exit(e.code);
    }
}
