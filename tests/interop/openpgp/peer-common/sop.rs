//! The library-independent part of the SOP subset: exit codes, hand-written
//! argument parsing and the small I/O helpers every verb uses.

use std::fmt;
use std::io::{Read, Write};

/// A failure with its SOP exit code (draft-dkg-openpgp-stateless-cli).
#[derive(Debug)]
pub struct SopError {
    pub code: i32,
    pub msg: String,
}

pub const NO_SIGNATURE: i32 = 3;
pub const MISSING_ARG: i32 = 19;
pub const UNSUPPORTED_OPTION: i32 = 37;
pub const BAD_DATA: i32 = 41;
pub const EXPECTED_TEXT: i32 = 53;
pub const MISSING_INPUT: i32 = 61;
pub const UNSUPPORTED_SUBCOMMAND: i32 = 69;
pub const KEY_CANNOT_SIGN: i32 = 79;
pub const INCOMPATIBLE_ARGS: i32 = 83;
pub const UNSUPPORTED_PROFILE: i32 = 89;

impl SopError {
    pub fn new(code: i32, msg: impl Into<String>) -> Self {
        SopError {
            code,
            msg: msg.into(),
        }
    }

    pub fn other(msg: impl fmt::Display) -> Self {
        Self::new(1, msg.to_string())
    }
}

/// Wraps a library error as BAD_DATA, naming what was being read.
pub fn bad_data<E: fmt::Display>(what: &str) -> impl Fn(E) -> SopError + '_ {
    move |e| SopError::new(BAD_DATA, format!("{what}: {e}"))
}

pub type SopResult<T> = Result<T, SopError>;

/// The options and positional arguments of one verb.
pub struct Args {
    opts: Vec<(String, Option<String>)>,
    pub positional: Vec<String>,
}

impl Args {
    /// Parses `args`; `flags` take no value, `valued` take `--opt=VALUE` or
    /// `--opt VALUE`. Any other `--option` is UNSUPPORTED_OPTION.
    pub fn parse(args: &[String], flags: &[&str], valued: &[&str]) -> SopResult<Args> {
        let mut opts = Vec::new();
        let mut positional = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--" {
                positional.extend(it.by_ref().cloned());
                break;
            }
            if !arg.starts_with("--") {
                positional.push(arg.clone());
                continue;
            }
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (arg.as_str(), None),
            };
            if flags.contains(&name) && inline.is_none() {
                opts.push((name.to_string(), None));
            } else if valued.contains(&name) {
                let value = match inline {
                    Some(v) => v,
                    None => it.next().cloned().ok_or_else(|| {
                        SopError::new(MISSING_ARG, format!("{name} needs a value"))
                    })?,
                };
                opts.push((name.to_string(), Some(value)));
            } else {
                return Err(SopError::new(
                    UNSUPPORTED_OPTION,
                    format!("unsupported option {arg}"),
                ));
            }
        }
        Ok(Args { opts, positional })
    }

    pub fn flag(&self, name: &str) -> bool {
        self.opts.iter().any(|(n, _)| n == name)
    }

    /// The last value given for `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The positional arguments, at least one of them (what they are: `what`).
    pub fn at_least_one(&self, what: &str) -> SopResult<&[String]> {
        if self.positional.is_empty() {
            return Err(SopError::new(MISSING_ARG, format!("missing {what}")));
        }
        Ok(&self.positional)
    }
}

/// The `--as=` choice of the signing verbs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SignAs {
    Binary,
    Text,
    Clearsigned,
}

pub fn sign_as(args: &Args, allowed: &[SignAs]) -> SopResult<SignAs> {
    let choice = match args.value("--as").unwrap_or("binary") {
        "binary" => SignAs::Binary,
        "text" => SignAs::Text,
        "clearsigned" => SignAs::Clearsigned,
        other => {
            return Err(SopError::new(
                UNSUPPORTED_OPTION,
                format!("unsupported --as={other}"),
            ))
        }
    };
    if !allowed.contains(&choice) {
        return Err(SopError::new(UNSUPPORTED_OPTION, "unsupported --as value"));
    }
    Ok(choice)
}

pub fn read_stdin() -> SopResult<Vec<u8>> {
    let mut data = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut data)
        .map_err(|e| SopError::other(format!("reading standard input: {e}")))?;
    Ok(data)
}

pub fn read_file(path: &str) -> SopResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| SopError::new(MISSING_INPUT, format!("{path}: {e}")))
}

pub fn write_stdout(data: &[u8]) -> SopResult<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(data)
        .and_then(|_| out.flush())
        .map_err(|e| SopError::other(format!("writing standard output: {e}")))
}

/// Text input (`--as=text`, `--as=clearsigned`) must be UTF-8.
pub fn expect_text(data: &[u8]) -> SopResult<&str> {
    std::str::from_utf8(data).map_err(|_| SopError::new(EXPECTED_TEXT, "input is not UTF-8 text"))
}
