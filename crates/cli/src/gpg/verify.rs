//! Verification as gpgv does it, for `sphincs gpgv` and `sphincs gpg
//! --verify`: `SIG DATA…` (a detached signature, armored or binary, one
//! block or several), or one cleartext-signed file (`InRelease`, a `.dsc`),
//! against the certificates of every `--keyring` (binary or armored, v6
//! beside v4; `/dev/null`).
//!
//! The SLH-DSA signatures are checked here (`sphincs::openpgp`); every
//! other signature goes to the system's verifier (`system.rs`) with the
//! caller's options, the keyrings without their v6 certificates, and the
//! same data, and its status lines follow ours on the same descriptor.
//! An input with no SLH-DSA signature at all (or one this tool cannot
//! read) is the system verifier's entirely: it runs in this process's
//! place, so that a global `APT::Key::GPGVCommand` changes nothing for
//! classic signatures. The exit status is the worst of the two: 0 every
//! signature good, 1 one bad, 2 one not checked.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use sphincs::openpgp::{self, armor, foreign, Cert, DetachedVerifier, Keyring, Outcome, Window};

use super::argv::Line;
use super::status::{Status, ERRSIG_NO_KEY, ERRSIG_UNSUPPORTED};
use super::system::{self, Program};
use super::verdict::{self, Judge, BAD, ERROR, GOOD};
use crate::files::quote;
use crate::files::read;
use crate::files::read::{read_capped, Cap};
use crate::files::write;
use crate::git::openpgp_verify;

/// How far in the future a signature's creation time may be.
pub const CLOCK_SKEW: u64 = openpgp_verify::CLOCK_SKEW;

/// A verification asked for.
pub struct Request<'a> {
    /// The system program for the signatures this tool does not check.
    pub program: Program,
    /// The command line as read.
    pub line: &'a Line,
    /// Certificates known besides the keyrings (`sphincs gpg`'s home).
    pub known: Vec<Cert>,
    /// Where the status lines go.
    pub status: &'a mut Status,
}

/// One keyring file, split.
struct Ring {
    /// As the command line gave it (empty: gpgv's default keyring).
    path: String,
    /// The certificates of other implementations, if the file also held
    /// v6 ones (else the file is handed on as it is).
    others: Option<Vec<u8>>,
}

/// The keyrings to read, as given and as found: each `--keyring` (a name
/// without a slash is in the home directory, as GnuPG reads it), and in
/// gpgv's mode the home's `trustedkeys.gpg` (gpgv's default keyring,
/// given as "") unless `--no-default-keyring` or it does not exist.
fn keyring_files(program: Program, line: &Line) -> Vec<(String, PathBuf)> {
    let home = super::home::gnupg_home(line);
    let mut out: Vec<(String, PathBuf)> = line
        .values("keyring")
        .into_iter()
        .map(|k| {
            let found = match (&home, k.contains('/')) {
                (Some(h), false) => h.join(k),
                _ => PathBuf::from(k),
            };
            (k.to_string(), found)
        })
        .collect();
    if program == Program::Gpgv && !line.has("no-default-keyring") {
        if let Some(default) = home
            .map(|h| h.join("trustedkeys.gpg"))
            .filter(|p| p.is_file())
        {
            out.push((String::new(), default));
        }
    }
    out
}

fn load_keyrings(program: Program, line: &Line, certs: &mut Vec<Cert>) -> Vec<Ring> {
    let name = program.name();
    let mut rings = Vec::new();
    for (path, found) in keyring_files(program, line) {
        let shown = quote::text(&found.to_string_lossy());
        let bytes = match read_capped(&found, Cap::Keyring) {
            Ok(b) => b,
            Err(e) => {
                // gpgv goes on without a keyring it cannot open.
                eprintln!("{name}: keyblock resource '{shown}': {}", e.into_message());
                continue;
            }
        };
        let split = armor::dearmor(&bytes)
            .map_err(|e| e.to_string())
            .and_then(|b| foreign::split_keyring(&b).map_err(|e| e.to_string()));
        match split {
            Ok(s) => {
                for note in &s.notes {
                    eprintln!("{name}: {shown}: {note}");
                }
                let mixed = !s.ours.is_empty();
                certs.extend(s.ours);
                rings.push(Ring {
                    path,
                    others: mixed.then_some(s.others),
                });
            }
            Err(why) => {
                // Not ours to read: the system's verifier may (a keybox).
                eprintln!("{name}: {shown}: not read here: {why}");
                rings.push(Ring { path, others: None });
            }
        }
    }
    rings
}

/// What the signature input is.
enum Input {
    /// A detached signature, split, and the data files (`-`: standard input).
    Detached {
        split: foreign::SplitSignatures,
        data: Vec<String>,
    },
    /// A cleartext-signed message.
    Clear {
        msg: openpgp::cleartext::ClearSigned,
        split: foreign::SplitSignatures,
    },
}

/// gpgv's reading of one operand: the data of `x.sig`, `x.asc` or `x.gpg`
/// is `x`.
fn implied_data(sig: &str) -> Option<String> {
    [".sig", ".asc", ".gpg"]
        .iter()
        .find_map(|ext| sig.strip_suffix(ext))
        .filter(|d| !d.is_empty() && Path::new(d).is_file())
        .map(str::to_string)
}

fn read_input(operands: &[String]) -> Result<Input, String> {
    let (first, rest) = operands
        .split_first()
        .ok_or("no signature file given (SIGFILE [DATA…], or one cleartext-signed file)")?;
    let bytes = read_capped(Path::new(first), Cap::ClearSigned).map_err(|e| e.into_message())?;
    if rest.is_empty() && openpgp::cleartext::is_clearsigned(&bytes) {
        let (msg, split) = openpgp::cleartext::parse_mixed(&bytes).map_err(|e| e.to_string())?;
        return Ok(Input::Clear { msg, split });
    }
    let data = if rest.is_empty() {
        vec![implied_data(first).ok_or_else(|| {
            format!(
                "{} is not cleartext-signed and no data file is given (SIGFILE DATA)",
                quote::text(first)
            )
        })?]
    } else {
        rest.to_vec()
    };
    let binary = armor::dearmor(&bytes).map_err(|e| e.to_string())?;
    let split = foreign::split_signatures(&binary).map_err(|e| e.to_string())?;
    Ok(Input::Detached { split, data })
}

/// Feeds the data files (concatenated, as gpgv reads several) to `v`.
fn feed(
    v: &mut DetachedVerifier,
    data: &[String],
    stdin_copy: Option<&Path>,
) -> Result<(), String> {
    let mut buf = vec![0u8; 1 << 20];
    for d in data {
        let mut reader: Box<dyn Read> = match (d.as_str(), stdin_copy) {
            ("-", Some(copy)) => Box::new(std::fs::File::open(copy).map_err(|e| e.to_string())?),
            ("-", None) => Box::new(std::io::stdin().lock()),
            (path, _) => Box::new(
                std::fs::File::open(path).map_err(|e| format!("{}: {e}", quote::text(path)))?,
            ),
        };
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| format!("{}: {e}", quote::text(d)))?;
            if n == 0 {
                break;
            }
            v.update(&buf[..n]);
        }
    }
    Ok(())
}

/// The options handed on to the system's program `exe`: the caller's,
/// each keyring replaced by its copy without v6 certificates where it had
/// any, without `--output` where this tool writes it, and without
/// `--assert-pubkey-algo` if `exe --dump-options` does not list it (as apt
/// leaves it out for such a gpgv: GnuPG 2.2's has none).
fn handed_on(
    exe: &Path,
    line: &Line,
    rings: &[(String, PathBuf)],
    keep_output: bool,
) -> Vec<OsString> {
    let assert = line.has("assert-pubkey-algo") && system::supports(exe, "--assert-pubkey-algo");
    if line.has("assert-pubkey-algo") && !assert {
        eprintln!(
            "sphincs: note: {} has no --assert-pubkey-algo: not asserted for the signatures it checks",
            exe.display()
        );
    }
    let mut out = Vec::new();
    // gpgv's default keyring held v6 certificates: GnuPG reads its copy
    // instead.
    if let Some((_, copy)) = rings.iter().find(|(orig, _)| orig.is_empty()) {
        out.push(OsString::from("--no-default-keyring"));
        out.push(OsString::from("--keyring"));
        out.push(copy.clone().into_os_string());
    }
    for (name, value) in &line.options {
        if (*name == "output" && !keep_output) || (*name == "assert-pubkey-algo" && !assert) {
            continue;
        }
        out.push(OsString::from(format!("--{name}")));
        if let Some(v) = value {
            match rings
                .iter()
                .find(|(orig, _)| *name == "keyring" && orig == v)
            {
                Some((_, copy)) => out.push(copy.clone().into_os_string()),
                None => out.push(OsString::from(v)),
            }
        }
    }
    out
}

/// The keyrings that held v6 certificates, written again without them.
fn filtered_rings(rings: &[Ring], dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for (i, r) in rings.iter().enumerate() {
        if let Some(others) = &r.others {
            let p = dir.join(format!("keyring-{i}.gpg"));
            std::fs::write(&p, others)?;
            out.push((r.path.clone(), p));
        }
    }
    Ok(out)
}

/// Whether a fingerprint matches one of `--keyid`'s values (a fingerprint
/// or a key ID, hex, `0x` and case ignored, a trailing `!` too).
fn allowed(keyids: &[&str], fprs: &[String]) -> bool {
    keyids.is_empty()
        || keyids.iter().any(|k| {
            let k = k
                .trim_start_matches("0x")
                .trim_end_matches('!')
                .to_ascii_uppercase();
            fprs.iter()
                .any(|f| !k.is_empty() && f.starts_with(&k) || *f == k)
        })
}

/// The name `--assert-pubkey-algo` lists an SLH-DSA key by: `slhdsa`
/// and the set (`slhdsa128s`, `slhdsa128f`, `slhdsa256s`).
pub fn assert_name(pk_algo: u8) -> String {
    let set = openpgp::slh_dsa_set(pk_algo).unwrap_or("");
    let tail = set.rsplit('-').next().unwrap_or("").to_ascii_lowercase();
    format!("slhdsa{tail}")
}

/// Whether `--assert-pubkey-algo LIST` admits `name`: an entry equal to
/// it, or `slhdsa` for every SLH-DSA set (`>=`/`<=` entries compare RSA
/// sizes and never name one).
pub fn asserted(list: &str, name: &str) -> bool {
    list.split(',')
        .map(str::trim)
        .any(|e| e.eq_ignore_ascii_case(name) || e.eq_ignore_ascii_case("slhdsa"))
}

/// Runs the verification; returns the exit status.
pub fn run(req: Request<'_>) -> u8 {
    let program = req.program.name();
    let line = req.line;
    let tmp = match tempfile::Builder::new().prefix("sphincs-gpgv.").tempdir() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{program}: cannot make a temporary directory: {e}");
            return ERROR;
        }
    };
    // No operand: the signed message on standard input (dscverify runs
    // `gpg --verify --output -` so). Standard input as the signature is
    // read once, into a file the system verifier can read too.
    let mut operands = line.operands.clone();
    if operands.is_empty() {
        operands.push("-".into());
    }
    let stdin_file = operands[0] == "-";
    if stdin_file {
        let p = tmp.path().join("input");
        let copied = std::fs::File::create(&p).and_then(|f| {
            std::io::copy(
                &mut std::io::stdin()
                    .lock()
                    .take(read::cap_bytes(Cap::ClearSigned) + 1),
                &mut std::io::BufWriter::new(f),
            )
        });
        if let Err(e) = copied {
            eprintln!("{program}: cannot read standard input: {e}");
            return ERROR;
        }
        operands[0] = p.to_string_lossy().into_owned();
    }
    let mut certs = req.known;
    let rings = load_keyrings(req.program, line, &mut certs);
    let away = |why: &str, status: &mut Status| {
        hand_over(
            program,
            req.program,
            line,
            &operands,
            &rings,
            status,
            why,
            &tmp,
            stdin_file,
        )
    };
    let input = match read_input(&operands) {
        Ok(i) => i,
        Err(why) => return away(&why, req.status),
    };
    let (split, data) = match &input {
        Input::Detached { split, data } => (split, Some(data)),
        Input::Clear { split, .. } => (split, None),
    };
    if split.ours.is_empty() && split.unreadable.is_empty() {
        return away("no SLH-DSA signature", req.status);
    }
    // Standard input is read once: kept for the system verifier too when
    // it has signatures to check.
    let stdin_copy = match data {
        Some(d) if split.other_count > 0 && d.iter().any(|x| x == "-") => {
            let p = tmp.path().join("stdin");
            let copied = std::fs::File::create(&p)
                .and_then(|mut f| std::io::copy(&mut std::io::stdin().lock(), &mut f));
            if let Err(e) = copied {
                eprintln!("{program}: cannot read standard input: {e}");
                return ERROR;
            }
            Some(p)
        }
        _ => None,
    };
    let mut code = GOOD;
    let mut any_good = false;
    let status = req.status;
    let ours = match check_ours(program, line, &certs, &input, stdin_copy.as_deref(), status) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{program}: cannot write to the status descriptor: {e}");
            return ERROR;
        }
    };
    code = code.max(ours.0);
    any_good |= ours.1;
    if split.other_count > 0 {
        code = code.max(check_others(
            req.program,
            line,
            &rings,
            &input,
            stdin_copy.as_deref(),
            tmp.path(),
            status,
        ));
    }
    if let (Input::Clear { msg, .. }, Some(out)) = (&input, line.value("output")) {
        if any_good {
            let written = if out == "-" {
                write::write_stdout(&msg.text, false)
            } else {
                write::write_output(Path::new(out), &msg.text, false, true)
            };
            if let Err(e) = written {
                eprintln!("{program}: {}", e.into_message());
                code = ERROR;
            }
        }
    }
    code
}

/// Checks the SLH-DSA signatures; returns the worst status and whether
/// one was good.
fn check_ours(
    program: &str,
    line: &Line,
    certs: &[Cert],
    input: &Input,
    stdin_copy: Option<&Path>,
    status: &mut Status,
) -> std::io::Result<(u8, bool)> {
    let (split, mut v) = match input {
        Input::Detached { split, data } => {
            let mut v = DetachedVerifier::new(split.ours.clone());
            if let Err(why) = feed(&mut v, data, stdin_copy) {
                let mut code = GOOD;
                for s in &split.ours {
                    status.new_sig()?;
                    code = code.max(verdict::cannot(
                        status,
                        program,
                        Some(s),
                        ERRSIG_UNSUPPORTED,
                        &why,
                    )?);
                }
                return Ok((code, false));
            }
            (split, v)
        }
        Input::Clear { msg, split } => (split, msg.verifier()),
    };
    let mut code = GOOD;
    let mut any_good = false;
    for (_, why) in &split.unreadable {
        status.new_sig()?;
        code = code.max(verdict::unreadable(status, program, why)?);
    }
    let now = crate::git::now();
    let window = Window {
        not_before: None,
        not_after: Some(now + CLOCK_SKEW),
        now,
        // apt's verdict grants trust now: an expired key is EXPKEYSIG.
        keys_valid_now: true,
    };
    let keyids = line.values("keyid");
    let assert = line.value("assert-pubkey-algo");
    let judged = std::mem::replace(&mut v, DetachedVerifier::new(Vec::new()))
        .finish_each(&Keyring::new(certs, now), &window);
    // A signature the Hash: header left out (cleartext) is not judged.
    let judged_count = judged.len();
    for (sig, outcome) in judged {
        status.new_sig()?;
        let fprs: Vec<String> = match &outcome {
            Outcome::Good(v) | Outcome::KeyExpired(v) | Outcome::KeyRevoked(v) => {
                vec![v.signing_key.to_hex(), v.primary.to_hex()]
            }
            Outcome::Bad {
                signing_key,
                primary,
                ..
            } => signing_key
                .iter()
                .chain(primary.iter())
                .map(|f| f.to_hex())
                .collect(),
            Outcome::NoKey { .. } => Vec::new(),
        };
        if !matches!(outcome, Outcome::NoKey { .. }) && !allowed(&keyids, &fprs) {
            let why = "the signer's key is not one --keyid allows";
            code = code.max(verdict::cannot(
                status,
                program,
                Some(&sig),
                ERRSIG_NO_KEY,
                why,
            )?);
            continue;
        }
        let signer = match &outcome {
            Outcome::Good(v) | Outcome::KeyExpired(v) | Outcome::KeyRevoked(v) => {
                Some(v.signing_key)
            }
            _ => None,
        };
        let good = matches!(outcome, Outcome::Good(_));
        let no_trust = |_: &openpgp::Fingerprint| None;
        let judge = Judge {
            program,
            trust: &no_trust,
            no_key_hint: " (no --keyring holds the signer's certificate)",
            apt_key_names: true,
        };
        let mut said = verdict::say(status, &judge, &sig, outcome)?;
        if let (Some(list), Some(key)) = (assert, signer) {
            let name = assert_name(sig.pk_algo);
            let ok = asserted(list, &name);
            status.assert_pubkey_algo(&key.to_hex(), ok, &name)?;
            if !ok {
                eprintln!(
                    "{program}: the key's algorithm {name} is not in --assert-pubkey-algo {}",
                    quote::text(list)
                );
                said = said.max(BAD);
            }
        }
        any_good |= good && said == GOOD;
        code = code.max(said);
    }
    if judged_count < split.ours.len() {
        eprintln!(
            "{program}: {} signature(s) not checked: the Hash: header does not name their hash",
            split.ours.len() - judged_count
        );
        code = code.max(BAD);
    }
    Ok((code, any_good))
}

/// Hands the other signatures to the system's verifier; returns its status.
fn check_others(
    program: Program,
    line: &Line,
    rings: &[Ring],
    input: &Input,
    stdin_copy: Option<&Path>,
    dir: &Path,
    status: &mut Status,
) -> u8 {
    let name = program.name();
    let (split, data): (&foreign::SplitSignatures, Vec<OsString>) = match input {
        Input::Detached { split, data } => (
            split,
            data.iter()
                .map(|d| match (d.as_str(), stdin_copy) {
                    ("-", Some(c)) => c.as_os_str().to_owned(),
                    _ => OsString::from(d),
                })
                .collect(),
        ),
        Input::Clear { msg, split } => {
            // The signed text as apt splits it off: its lines, LF-ended
            // but for the last.
            let p = dir.join("data");
            let text = msg.text.strip_suffix(b"\n").unwrap_or(&msg.text);
            if let Err(e) = std::fs::write(&p, text) {
                eprintln!("{name}: cannot write a temporary file: {e}");
                return ERROR;
            }
            (split, vec![p.into_os_string()])
        }
    };
    let Some(exe) = system::find(program).filter(|_| !system::is_nested()) else {
        eprintln!(
            "{name}: {} signature(s) that are not SLH-DSA were not checked: no system {name} (GnuPG) was found",
            split.other_count
        );
        let _ = status.new_sig().and_then(|()| {
            status.err_sig(
                super::status::UNKNOWN_KEY,
                &Default::default(),
                ERRSIG_UNSUPPORTED,
            )
        });
        return ERROR;
    };
    let sig = dir.join("classic.asc");
    let armored = armor::encode(armor::Kind::Signature, &split.others);
    let copies = match std::fs::write(&sig, armored).and_then(|()| filtered_rings(rings, dir)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{name}: cannot write a temporary file: {e}");
            return ERROR;
        }
    };
    let mut args = handed_on(&exe, line, &copies, false);
    if program == Program::Gpg {
        args.retain(|a| a != "--verify");
        args.push("--verify".into());
    }
    args.push("--".into());
    args.push(sig.into_os_string());
    args.extend(data);
    system::run(&exe, &args)
}

/// The whole input is the system verifier's: it runs in this process's
/// place (keyrings with v6 certificates replaced by copies without them;
/// standard input given as the file it was read into).
#[allow(clippy::too_many_arguments)]
fn hand_over(
    name: &str,
    program: Program,
    line: &Line,
    operands: &[String],
    rings: &[Ring],
    status: &mut Status,
    why: &str,
    dir: &tempfile::TempDir,
    stdin_file: bool,
) -> u8 {
    let Some(exe) = system::find(program).filter(|_| !system::is_nested()) else {
        eprintln!("{name}: cannot check the signature: {} (and no system {name}, GnuPG, was found for what is not SLH-DSA)", quote::text(why));
        let _ = status.no_data(1);
        return ERROR;
    };
    let copies = match filtered_rings(rings, dir.path()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{name}: cannot write a temporary file: {e}");
            return ERROR;
        }
    };
    let mut args = handed_on(&exe, line, &copies, true);
    if program == Program::Gpg && !line.has("verify") {
        args.push("--verify".into());
    }
    args.push("--".into());
    args.extend(operands.iter().map(OsString::from));
    if copies.is_empty() && !stdin_file {
        // Nothing in the temporary directory is needed: this process
        // becomes the system's.
        let _ = std::fs::remove_dir_all(dir.path());
        return system::exec(&exe, &args);
    }
    system::run(&exe, &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assert_names_and_lists() {
        assert_eq!(assert_name(32), "slhdsa128s");
        assert_eq!(assert_name(33), "slhdsa128f");
        assert_eq!(assert_name(34), "slhdsa256s");
        let apt3 = ">=rsa2048,ed25519,ed448,nistp256,nistp384,nistp512";
        assert!(!asserted(apt3, "slhdsa128s"));
        assert!(asserted(&format!("{apt3},slhdsa"), "slhdsa256s"));
        assert!(asserted("slhdsa128f", "slhdsa128f"));
        assert!(!asserted("slhdsa128f", "slhdsa128s"));
    }

    #[test]
    fn keyring_names_without_a_slash_are_in_the_home() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().to_str().unwrap();
        let args: Vec<OsString> = [
            "--homedir",
            home,
            "--keyring",
            "k.gpg",
            "--keyring",
            "./l.gpg",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let line = super::super::argv::parse(&args).unwrap();
        let found = keyring_files(Program::Gpg, &line);
        assert_eq!(found[0], ("k.gpg".into(), dir.path().join("k.gpg")));
        assert_eq!(found[1], ("./l.gpg".into(), PathBuf::from("./l.gpg")));
        assert_eq!(found.len(), 2);
        // gpgv's default keyring, when it exists and is not switched off.
        std::fs::write(dir.path().join("trustedkeys.gpg"), b"").unwrap();
        assert_eq!(keyring_files(Program::Gpgv, &line).len(), 3);
        let mut off = args.clone();
        off.push("--no-default-keyring".into());
        let line = super::super::argv::parse(&off).unwrap();
        assert_eq!(keyring_files(Program::Gpgv, &line).len(), 2);
    }

    #[test]
    fn keyid_matches_prefixes_and_whole() {
        let f = vec!["ABCDEF0123456789".to_string() + &"0".repeat(48)];
        assert!(allowed(&[], &f));
        assert!(allowed(&["0xabcdef0123456789"], &f));
        assert!(allowed(&[&f[0].to_lowercase()], &f));
        assert!(!allowed(&["1234"], &f));
    }
}
