//! The one reader of gpg's command line, for every mode that takes one:
//! git's signing program (`git/`), `sphincs gpgv` and `sphincs gpg`. It
//! knows GnuPG's spelling (`--name value`, `--name=value`, bundled short
//! options `-bsau KEY`, `--` ending the options) and the options the
//! programs that call gpg pass (apt, dpkg, debsign, git, rpm's macros,
//! maven's plugin, release scripts). What an option means is each mode's
//! business; an option not in [`OPTIONS`] is refused here, by name.

use std::ffi::OsString;

/// One option gpg's command line may hold.
pub struct Spec {
    /// Its long name, without `--`.
    pub long: &'static str,
    /// Its one-letter form, if it has one.
    pub short: Option<char>,
    /// Whether it takes a value.
    pub value: bool,
}

const fn flag(long: &'static str, short: Option<char>) -> Spec {
    Spec {
        long,
        short,
        value: false,
    }
}

const fn valued(long: &'static str, short: Option<char>) -> Spec {
    Spec {
        long,
        short,
        value: true,
    }
}

/// Every option read; the modes accept subsets.
pub const OPTIONS: &[Spec] = &[
    // Commands.
    flag("verify", None),
    flag("detach-sign", Some('b')),
    flag("sign", Some('s')),
    flag("clearsign", None),
    flag("clear-sign", None),
    flag("import", None),
    flag("export", None),
    flag("list-keys", Some('k')),
    flag("list-public-keys", None),
    flag("list-secret-keys", Some('K')),
    flag("version", None),
    flag("help", Some('h')),
    flag("dump-options", None),
    flag("dearmor", None),
    flag("enarmor", None),
    // What to sign with and where the output goes.
    flag("armor", Some('a')),
    flag("no-armor", None),
    valued("local-user", Some('u')),
    valued("default-key", None),
    valued("output", Some('o')),
    valued("digest-algo", None),
    valued("personal-digest-preferences", None),
    flag("textmode", Some('t')),
    flag("yes", None),
    // Where keys are.
    valued("homedir", None),
    valued("keyring", None),
    flag("no-default-keyring", None),
    valued("keyid", None),
    // Passphrases.
    valued("pinentry-mode", None),
    valued("passphrase-fd", None),
    valued("passphrase-file", None),
    valued("passphrase", None),
    // Verification policy.
    flag("ignore-time-conflict", None),
    flag("ignore-valid-from", None),
    valued("assert-pubkey-algo", None),
    valued("weak-digest", None),
    valued("trust-model", None),
    flag("always-trust", None),
    // Reporting.
    valued("status-fd", None),
    valued("logger-fd", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("with-colons", None),
    flag("fingerprint", None),
    flag("with-fingerprint", None),
    flag("with-subkey-fingerprint", None),
    flag("with-subkey-fingerprints", None),
    valued("keyid-format", None),
    valued("list-options", None),
    valued("verify-options", None),
    flag("no-show-policy-url", None),
    // Accepted and without effect here (what they govern does not exist
    // in this implementation: no options file, no trust database, no tty
    // prompts, no charset conversion of User IDs, which are UTF-8).
    flag("batch", None),
    flag("no-tty", None),
    flag("no-options", None),
    flag("no-auto-check-trustdb", None),
    flag("no-permission-warning", None),
    flag("no-greeting", None),
    flag("no-secmem-warning", None),
    flag("lock-never", None),
    flag("utf8-strings", None),
    flag("openpgp", None),
    flag("no-verbose", None),
    flag("use-agent", None),
    flag("no-use-agent", None),
    flag("force-v3-sigs", None),
    valued("display-charset", None),
    valued("charset", None),
];

/// A command line read: its options in order (a value where the option
/// takes one) and its operands.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub options: Vec<(&'static str, Option<String>)>,
    pub operands: Vec<String>,
}

impl Line {
    /// Whether the later of `on` and `off` (`--armor`, `--no-armor`) is
    /// `on`, as gpg lets the last one win.
    pub fn last_of(&self, on: &str, off: &str) -> bool {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| *n == on || *n == off)
            .is_some_and(|(n, _)| *n == on)
    }

    /// Whether the option is present.
    pub fn has(&self, long: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == long)
    }

    /// The option's last value (gpg lets a later one win).
    pub fn value(&self, long: &str) -> Option<&str> {
        self.values(long).pop()
    }

    /// Every value of a repeatable option, in order.
    pub fn values(&self, long: &str) -> Vec<&str> {
        self.options
            .iter()
            .filter(|(n, _)| *n == long)
            .filter_map(|(_, v)| v.as_deref())
            .collect()
    }

    /// The options present that a mode does not accept (`accepted` holds
    /// long names), each as `--name`.
    pub fn refused(&self, accepted: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = self
            .options
            .iter()
            .filter(|(n, _)| !accepted.contains(n))
            .map(|(n, _)| format!("--{n}"))
            .collect();
        out.dedup();
        out
    }
}

fn spec_long(name: &str) -> Option<&'static Spec> {
    OPTIONS.iter().find(|s| s.long == name)
}

fn spec_short(c: char) -> Option<&'static Spec> {
    OPTIONS.iter().find(|s| s.short == Some(c))
}

/// Reads gpg's command line (without the program name).
pub fn parse(args: &[OsString]) -> Result<Line, String> {
    let mut line = Line::default();
    let mut it = args.iter();
    let text = |a: &OsString| {
        a.to_str()
            .map(str::to_string)
            .ok_or_else(|| format!("argument {a:?} is not UTF-8"))
    };
    let mut only_operands = false;
    while let Some(arg) = it.next() {
        let arg = text(arg)?;
        if only_operands || arg == "-" || !arg.starts_with('-') {
            line.operands.push(arg);
            continue;
        }
        if arg == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let spec = spec_long(name).ok_or_else(|| format!("unknown option --{name}"))?;
            let value = match (spec.value, inline) {
                (true, Some(v)) => Some(v),
                (true, None) => Some(
                    it.next()
                        .map(text)
                        .transpose()?
                        .ok_or_else(|| format!("--{name} needs a value"))?,
                ),
                (false, Some(_)) => return Err(format!("--{name} takes no value")),
                (false, None) => None,
            };
            line.options.push((spec.long, value));
            continue;
        }
        // A bundle of short options; one that takes a value takes the rest
        // of the bundle, or the next argument.
        let bundle = &arg[1..];
        for (i, c) in bundle.char_indices() {
            let spec = spec_short(c).ok_or_else(|| format!("unknown option -{c}"))?;
            if !spec.value {
                line.options.push((spec.long, None));
                continue;
            }
            let rest = &bundle[i + c.len_utf8()..];
            let value = if rest.is_empty() {
                it.next()
                    .map(text)
                    .transpose()?
                    .ok_or_else(|| format!("-{c} needs a value"))?
            } else {
                rest.to_string()
            };
            line.options.push((spec.long, Some(value)));
            break;
        }
    }
    Ok(line)
}

/// A descriptor number given to `--status-fd`, `--passphrase-fd` and
/// `--logger-fd`.
pub fn fd(option: &str, value: &str) -> Result<u32, String> {
    value
        .parse()
        .map_err(|_| format!("--{option} takes a descriptor number, not {value:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(list: &[&str]) -> Result<Line, String> {
        parse(&list.iter().map(OsString::from).collect::<Vec<_>>())
    }

    #[test]
    fn bundles_and_values() {
        let l = line(&["--status-fd=2", "-bsauKEY"]).unwrap();
        assert_eq!(l.value("status-fd"), Some("2"));
        assert_eq!(l.value("local-user"), Some("KEY"));
        assert!(l.has("detach-sign") && l.has("sign") && l.has("armor"));
        let l = line(&["--keyring", "a", "--keyring=b", "sig", "-", "--", "-x"]).unwrap();
        assert_eq!(l.values("keyring"), ["a", "b"]);
        assert_eq!(l.operands, ["sig", "-", "-x"]);
        let l = line(&["-o", "out", "-u", "A U Thor <a@example.org>"]).unwrap();
        assert_eq!(l.value("output"), Some("out"));
        assert_eq!(l.value("local-user"), Some("A U Thor <a@example.org>"));
    }

    #[test]
    fn unknown_and_malformed_options_are_named() {
        assert_eq!(
            line(&["--frobnicate"]).unwrap_err(),
            "unknown option --frobnicate"
        );
        assert_eq!(line(&["-bx"]).unwrap_err(), "unknown option -x");
        assert_eq!(
            line(&["--armor=yes"]).unwrap_err(),
            "--armor takes no value"
        );
        assert_eq!(line(&["--output"]).unwrap_err(), "--output needs a value");
        assert_eq!(
            line(&["--verify", "s", "--batch"])
                .unwrap()
                .refused(&["verify"]),
            ["--batch"]
        );
    }
}
