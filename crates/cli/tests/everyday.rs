//! Everyday use as a new user meets it: usage errors that name what is
//! missing, help for a bare command, `sign FILE` writing FILE.sig, key
//! fingerprints, `-q`, one summary format, a missing message named as such,
//! `--out-dir` created, progress-bar totals equal to the bytes read, round-3.1
//! names in the wrong place, `--threads 0`, completions and the man pages.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

use common::{run, sphincs, sphincs_env, stdout_of, Out, Scratch};

fn ok(args: &[&str]) -> Out {
    let out = sphincs(args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out
}

#[test]
fn usage_errors_name_the_missing_arguments() {
    let out = sphincs(&["keygen", "-a", "shake-128f"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.starts_with(
            "sphincs: error: the following required arguments were not provided: --out <KEY>"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("(see `sphincs keygen --help`)"),
        "{}",
        out.stderr
    );
    let out = sphincs(&["cert", "issue", "x.csr"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--ca-key <KEY>, --ca-cert <CERT>"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("sphincs cert issue --help"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_bare_command_shows_its_help() {
    for (args, usage) in [
        (&[][..], "Usage: sphincs [OPTIONS] <COMMAND>"),
        (&["cert"][..], "Usage: sphincs cert [OPTIONS] <COMMAND>"),
        (&["cms"][..], "Usage: sphincs cms [OPTIONS] <COMMAND>"),
    ] {
        let out = sphincs(args);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stderr.contains(usage), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("Commands:"), "{}", out.stderr);
        assert!(!out.stderr.contains("error:"), "{}", out.stderr);
    }
}

#[test]
fn sign_file_writes_file_sig() {
    let d = Scratch::new("default-sig");
    let (k, p) = (d.p("k.pem"), d.p("k.pub"));
    ok(&["keygen", "-a", "shake-128f", "-o", &k, "--pub", &p]);
    let msg = d.write("app.tar.gz", b"release");
    let out = ok(&["sign", "-k", &k, "--deterministic", &msg]);
    let sig = format!("{msg}.sig");
    assert_eq!(out.text(), format!("{msg}: signed, {sig}\n"));
    assert_eq!(fs::metadata(&sig).unwrap().len(), 17088);
    ok(&["verify", "-p", &p, "-s", &sig, &msg]);
    ok(&["verify", "-p", &p, &msg]);
    // Not replaced without --force; `-o -` is standard output.
    let again = sphincs(&["sign", "-k", &k, &msg]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("already exists"), "{}", again.stderr);
    let to_stdout = sphincs(&["sign", "-k", &k, "--deterministic", "-o", "-", &msg]).ok();
    assert_eq!(to_stdout.stdout, fs::read(&sig).unwrap());
    // The round-3.1 and SPHINCS-256 paths too.
    for alg in ["sphincs-shake-128f-simple", "sphincs-256"] {
        let (rk, m) = (d.p(&format!("{alg}.key")), d.write(alg, b"old"));
        ok(&["keygen", "-a", alg, "-o", &rk]);
        ok(&["sign", "-a", alg, "-k", &rk, &m]);
        ok(&[
            "verify",
            "-a",
            alg,
            "-p",
            &rk,
            "-s",
            &format!("{m}.sig"),
            &m,
        ]);
    }
}

fn sha256_fingerprint(data: &[u8]) -> String {
    format!("SHA256:{}", hex::encode(Sha256::digest(data)))
}

#[test]
fn fingerprints_and_quiet() {
    let d = Scratch::new("fingerprint");
    let (k, p) = (d.p("k.pem"), d.p("k.pub"));
    let made = ok(&["keygen", "-a", "sha2-128f", "-o", &k, "--pub", &p]).text();
    let der = sphincs(&["pubkey", "--der", &k]).stdout;
    let want = sha256_fingerprint(&der);
    assert_eq!(made, format!("{want}  {k}\n"));
    let pub_der = d.write("k.der", &der);
    let out = ok(&["fingerprint", &k, &p, &pub_der]).text();
    assert_eq!(
        out,
        format!("{want}  {k}\n{want}  {p}\n{want}  {pub_der}\n")
    );
    // A HashSLH-DSA key is another key to a verifier: another fingerprint.
    let hk = d.p("h.pem");
    let h = ok(&[
        "keygen",
        "-a",
        "sha2-128f",
        "--prehash",
        "sha2-256",
        "-o",
        &hk,
    ])
    .text();
    assert!(h.starts_with("SHA256:") && !h.starts_with(&want), "{h}");
    // Raw keys without an OID: the raw public key.
    let (rk, rp) = (d.p("r.key"), d.p("r.pub"));
    let alg = "sphincs-haraka-128f-robust";
    let made = ok(&["keygen", "-a", alg, "-o", &rk, "--pub", &rp]).text();
    let raw = sha256_fingerprint(&fs::read(&rp).unwrap());
    assert_eq!(made, format!("{raw}  {rk}\n"));
    assert_eq!(
        ok(&["fingerprint", "-a", alg, &rk]).text(),
        format!("{raw}  {rk}\n")
    );
    let (sk, sp) = (d.p("s.key"), d.p("s.pub"));
    ok(&["keygen", "-a", "sphincs-256", "-o", &sk, "--pub", &sp]);
    assert_eq!(
        ok(&["fingerprint", "-a", "sphincs-256", &sp]).text(),
        format!("{}  {sp}\n", sha256_fingerprint(&fs::read(&sp).unwrap()))
    );
    let out = sphincs(&["fingerprint", &rk]);
    assert_eq!(out.code, 2, "a raw key needs -a");
    // -q: no status lines, anywhere on the command line.
    assert_eq!(
        ok(&["-q", "keygen", "-a", "sha2-128f", "-o", &d.p("q.pem")]).text(),
        ""
    );
    let m = d.write("m", b"quiet");
    assert_eq!(ok(&["sign", "-k", &k, &m, "--quiet"]).text(), "");
    assert_eq!(
        ok(&["verify", "-q", "-p", &p, "-s", &format!("{m}.sig"), &m]).text(),
        ""
    );
    assert_eq!(
        ok(&["verify", "-p", &p, "-s", &format!("{m}.sig"), &m]).text(),
        "valid signature\n"
    );
}

#[test]
fn summaries_missing_files_and_directories() {
    let d = Scratch::new("summaries");
    let (k, p) = (d.p("k.pem"), d.p("k.pub"));
    ok(&["keygen", "-a", "shake-128f", "-o", &k, "--pub", &p]);
    let (a, b) = (d.write("a", b"one"), d.write("b", b"two"));
    ok(&["sign", "-k", &k, &a, &b]);
    fs::write(&b, b"changed").unwrap();
    let out = sphincs(&["verify", "-p", &p, &a, &b]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "sphincs: invalid signature: 1 of 2 files; 1 of 2 verify with this key, so the data (or the signature file) of the rest, not the key, is the likely cause\n"
    );
    // Quiet: only the file that failed, on standard error.
    let out = sphincs(&["verify", "-q", "-p", &p, &a, &b]);
    assert_eq!(out.code, 1);
    assert_eq!(out.text(), "");
    assert!(
        out.stderr.starts_with(&format!("{b}: invalid signature\n")),
        "{}",
        out.stderr
    );
    // A missing message file is named, not its .sig.
    let nope = d.p("nope.txt");
    let out = sphincs(&["verify", "-p", &p, &a, &nope]);
    assert_eq!(out.code, 2);
    assert!(
        out.text().contains(&format!("{nope}: error: cannot read")),
        "{}",
        out.text()
    );
    assert!(!out.text().contains("nope.txt.sig"), "{}", out.text());
    assert_eq!(
        out.stderr,
        "sphincs: error: 1 of 2 files could not be checked (0 invalid)\n"
    );
    // --out-dir is created; a missing --sig-dir is said to be missing.
    let dir = d.p("sigs/nested");
    ok(&["sign", "-k", &k, "--out-dir", &dir, &a]);
    assert!(Path::new(&dir).join("a.sig").is_file());
    ok(&["verify", "-p", &p, "--sig-dir", &dir, &a]);
    let out = sphincs(&["verify", "-p", &p, "--sig-dir", &d.p("none"), &a]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("is not a directory"), "{}", out.stderr);
    // A failed signing removes the directory it created.
    let gone = d.p("gone");
    assert_eq!(
        sphincs(&["sign", "-k", &k, "--out-dir", &gone, &a, &nope]).code,
        2
    );
    assert!(!Path::new(&gone).exists());
}

/// The byte bar's final count and total, as `SPHINCS_PROGRESS_REPORT` prints them.
fn progress(args: &[&str]) -> (u64, u64) {
    let out = sphincs_env(args, &[("SPHINCS_PROGRESS_REPORT", "1")]);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    let line = out
        .stderr
        .lines()
        .find(|l| l.starts_with("progress "))
        .unwrap_or_else(|| panic!("no progress line: {}", out.stderr));
    let nums: Vec<u64> = line
        .rsplit(": ")
        .next()
        .unwrap()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (nums[0], nums[1])
}

#[test]
fn progress_totals_match_the_bytes_read() {
    let d = Scratch::new("progress");
    let size = 3 << 20;
    let m = d.write("m", &vec![7u8; size]);
    let (k, hk) = (d.p("k.pem"), d.p("h.pem"));
    ok(&["keygen", "-a", "shake-128f", "-o", &k]);
    run(&format!("keygen -a shake-128f --prehash shake-128 -o {hk}")).ok();
    let n = size as u64;
    let (s, hs) = (d.p("s"), d.p("hs"));
    // Pure signing reads the message twice.
    assert_eq!(progress(&["sign", "-k", &k, "-o", &s, &m]), (2 * n, 2 * n));
    // A HashSLH-DSA key pre-hashes, with or without --prehash: once.
    assert_eq!(progress(&["sign", "-k", &hk, "-o", &hs, &m]), (n, n));
    let ps = d.p("ps");
    let args = ["sign", "-k", &hk, "--prehash", "shake-128", "-o", &ps, &m];
    assert_eq!(progress(&args), (n, n));
    // Verification reads it once, pure or pre-hashed.
    assert_eq!(progress(&["verify", "-p", &k, "-s", &s, &m]), (n, n));
    assert_eq!(progress(&["verify", "-p", &hk, "-s", &hs, &m]), (n, n));
    let alg = "sphincs-sha2-128f-simple";
    let (rk, rs) = (d.p("r.key"), d.p("r.sig"));
    ok(&["keygen", "-a", alg, "-o", &rk]);
    assert_eq!(
        progress(&["sign", "-a", alg, "-k", &rk, "-o", &rs, &m]),
        (2 * n, 2 * n)
    );
    assert_eq!(
        progress(&["verify", "-a", alg, "-p", &rk, "-s", &rs, &m]),
        (n, n)
    );
}

#[test]
fn round_three_names_where_fips_sets_are_expected() {
    let d = Scratch::new("r31-names");
    let k = d.p("k.pem");
    ok(&["keygen", "-a", "shake-128f", "-o", &k]);
    let out = run(&format!(
        "cert self-signed -a sphincs-shake-128f-simple -k {k} --subject CN=x"
    ));
    assert_eq!(out.code, 2);
    for want in [
        "\"sphincs-shake-128f-simple\" is a SPHINCS+ round-3.1 set, but this call takes FIPS 205",
        "certificates and CMS need a FIPS 205 key",
    ] {
        assert!(out.stderr.contains(want), "{want:?} in {}", out.stderr);
    }
    assert!(!out.stderr.contains("unknown algorithm"), "{}", out.stderr);
}

#[test]
fn threads_zero_is_every_core() {
    let d = Scratch::new("threads0");
    let k = d.p("k.pem");
    ok(&["keygen", "-a", "shake-128f", "-o", &k, "--threads", "0"]);
    let m = d.write("m", b"zero");
    let sig = |t: &str| {
        let line = format!("sign -k {k} --deterministic --threads {t} -o - {m}");
        run(&line).ok().stdout
    };
    assert_eq!(sig("0"), sig("1"));
}

#[test]
fn completions_and_man_page() {
    let bash = ok(&["completions", "bash"]).text();
    assert!(bash.contains("complete -F _sphincs"), "{bash}");
    assert!(bash.contains("fingerprint"), "subcommands are completed");
    assert!(ok(&["completions", "zsh"])
        .text()
        .starts_with("#compdef sphincs"));
    assert!(ok(&["completions", "fish"])
        .text()
        .contains("complete -c sphincs"));
    let man = ok(&["man"]).text();
    assert!(
        man.contains(".TH sphincs 1"),
        "{}",
        &man[..200.min(man.len())]
    );
    assert!(
        man.contains("fingerprint"),
        "the man page lists the commands"
    );
    assert_eq!(sphincs(&["completions", "cmd.exe"]).code, 2);
}

/// The pages a roff page names in its SUBCOMMANDS and SEE ALSO sections
/// (`sphincs\-keygen(1)`), as file names (`sphincs-keygen.1`).
fn named_pages(roff: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in roff.lines() {
        let plain = line.replace("\\-", "-");
        for word in plain.split([' ', ',']) {
            if let Some(name) = word.strip_suffix("(1)") {
                if name.starts_with("sphincs") {
                    names.push(format!("{name}.1"));
                }
            }
        }
    }
    names
}

#[test]
fn man_dir_writes_every_page_with_examples() {
    let d = Scratch::new("man-dir");
    let dir = d.path("man1");
    let out = ok(&["man", "--dir", &d.p("man1")]);
    assert!(out.text().contains("manual pages"), "{}", out.text());
    let mut pages: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    // sphincs.1 is what `sphincs man` prints.
    assert_eq!(
        fs::read_to_string(dir.join("sphincs.1")).unwrap(),
        ok(&["man"]).text()
    );
    // Every page a page names exists and is a rendered page of that name.
    let mut checked = 0;
    for page in &pages {
        let roff = fs::read_to_string(dir.join(page)).unwrap();
        let title = page.strip_suffix(".1").unwrap();
        assert!(
            roff.contains(&format!(".TH {title} 1")),
            "{page}: {}",
            &roff[..300.min(roff.len())]
        );
        for named in named_pages(&roff) {
            assert!(pages.contains(&named), "{page} names {named}, not written");
            checked += 1;
        }
        if page != "sphincs.1" {
            assert!(roff.contains(".SH EXAMPLES"), "{page} has no EXAMPLES");
            assert!(roff.contains(".SH \"SEE ALSO\""), "{page}");
        }
    }
    let top = fs::read_to_string(dir.join("sphincs.1")).unwrap();
    let from_top = named_pages(&top);
    for verb in [
        "keygen", "sign", "verify", "cert", "cms", "key", "git", "man",
    ] {
        assert!(
            from_top.contains(&format!("sphincs-{verb}.1")),
            "{from_top:?}"
        );
    }
    assert!(
        !from_top.contains(&"sphincs-help.1".to_string()),
        "{from_top:?}"
    );
    assert!(
        checked > from_top.len(),
        "subcommand pages name their parents"
    );
    // Nested subcommands have pages of their own, named by sphincs-cert(1).
    let cert = fs::read_to_string(dir.join("sphincs-cert.1")).unwrap();
    for nested in ["self-signed", "request", "issue", "verify", "show"] {
        let name = format!("sphincs-cert-{nested}.1");
        assert!(named_pages(&cert).contains(&name), "{name}");
        assert!(pages.contains(&name), "{name}");
    }
    assert!(pages.contains(&"sphincs-key-passwd.1".to_string()));
    assert!(pages.contains(&"sphincs-git-setup.1".to_string()));
    // A subcommand page carries its examples, escaped for roff, in no-fill
    // mode; `sphincs sign --help` ends with the same examples.
    let sign = fs::read_to_string(dir.join("sphincs-sign.1")).unwrap();
    assert!(sign.contains(".TH sphincs-sign 1"), "{sign}");
    assert!(sign.contains("sphincs\\-sign \\- Sign a file"), "{sign}");
    assert!(
        sign.contains(".SH EXAMPLES\n.nf\nsphincs sign \\-k release.key app.tar.gz"),
        "{sign}"
    );
    let help = ok(&["sign", "--help"]).text();
    assert!(
        help.contains("Examples:\n  sphincs sign -k release.key app.tar.gz"),
        "{help}"
    );
    let issue = fs::read_to_string(dir.join("sphincs-cert-issue.1")).unwrap();
    assert!(
        issue.contains("sphincs cert issue \\-\\-ca\\-key ca.key"),
        "{issue}"
    );
    assert!(issue.contains("sphincs(1), sphincs\\-cert(1)"), "{issue}");
    // Existing pages are replaced only with --force.
    sphincs(&["man", "--dir", &d.p("man1")]).usage_error("already exists");
    ok(&["-q", "man", "--dir", &d.p("man1"), "--force"]);
}

#[test]
fn install_script_installs_command_completions_and_man_page() {
    let d = Scratch::new("install");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/install-cli");
    stdout_of(
        Command::new("bash")
            .arg(&script)
            .arg(d.p("prefix"))
            .env("SPHINCS_BIN", env!("CARGO_BIN_EXE_sphincs")),
    );
    let prefix = d.0.join("prefix");
    let installed = prefix.join("bin/sphincs");
    let version = Command::new(&installed).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("sphincs "));
    let read = |rel: &str| fs::read_to_string(prefix.join(rel)).unwrap();
    assert!(read("share/man/man1/sphincs.1").contains(".TH sphincs 1"));
    assert!(read("share/man/man1/sphincs-keygen.1").contains(".SH EXAMPLES"));
    assert!(read("share/man/man1/sphincs-cert-show.1").contains(".TH sphincs-cert-show 1"));
    assert!(read("share/bash-completion/completions/sphincs").contains("_sphincs"));
    assert!(read("share/zsh/site-functions/_sphincs").starts_with("#compdef sphincs"));
    assert!(read("share/fish/vendor_completions.d/sphincs.fish").contains("complete -c sphincs"));
    // The links that run it as gpgv and gpg pick their mode by name.
    for (link, first) in [
        ("sphincs-gpgv", "sphincs-gpgv (sphincs)"),
        ("sphincs-gpg", "sphincs-gpg (sphincs)"),
    ] {
        let out = Command::new(prefix.join("bin").join(link))
            .arg("--version")
            .output()
            .unwrap();
        assert!(out.status.success(), "{link}");
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with(first),
            "{link}"
        );
    }
    let opts = Command::new(prefix.join("bin/sphincs-gpgv"))
        .arg("--dump-options")
        .output()
        .unwrap();
    let opts = String::from_utf8_lossy(&opts.stdout);
    assert!(opts.lines().any(|l| l == "--assert-pubkey-algo"), "{opts}");
    assert!(opts.lines().any(|l| l == "--keyring"), "{opts}");
}
