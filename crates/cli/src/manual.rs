//! Examples for every subcommand and the manual pages: `sphincs man` writes
//! sphincs(1) to standard output, `sphincs man --dir DIR` writes sphincs.1
//! and one page per subcommand (sphincs-keygen.1, sphincs-cert-show.1, …),
//! each with an EXAMPLES section. The same examples end `sphincs VERB --help`.

use std::path::Path;

use crate::error::CliError;
use crate::files::quote;
use crate::files::write;

/// Each subcommand's examples, by its path under `sphincs`; a `#` starts a
/// comment, as in a shell.
pub const EXAMPLES: &[(&str, &[&str])] = &[
    ("list", &["sphincs list"]),
    (
        "keygen",
        &[
            "sphincs keygen -a SLH-DSA-SHAKE-128f -o release.key --pub release.pub",
            "sphincs keygen -a SLH-DSA-SHA2-128s --encrypt -o release.key   # asks for a passphrase twice",
            "sphincs keygen -a SLH-DSA-SHA2-128f --prehash SHA2-256 -o hash.key   # a HashSLH-DSA key",
            "sphincs keygen -a SLH-DSA-SHAKE-128s --openpgp 'Alice <alice@example.org>' --expires 2y --revocation alice.rev -o alice.key --pub alice.cert",
            "sphincs keygen -a sphincs-shake-128f-simple -o old.key --pub old.pub   # SPHINCS+ round 3.1, raw keys",
        ],
    ),
    (
        "fingerprint",
        &["sphincs fingerprint release.pub release.pem   # SHA256:<hex>  FILE, one line each"],
    ),
    (
        "pubkey",
        &[
            "sphincs pubkey release.key -o release.pub",
            "sphincs pubkey release.pub --der -o release.pub.der",
        ],
    ),
    (
        "sign",
        &[
            "sphincs sign -k release.key app.tar.gz   # writes app.tar.gz.sig",
            "sphincs sign -k release.key --context \"my-app v1\" -o app.sig app.tar.gz",
            "sphincs sign -k hash.key -o big.sig big.iso   # a HashSLH-DSA key signs with its pre-hash (the file read once)",
            "sphincs sign -k release.key --out-dir sigs dist/*   # sigs/NAME.sig for each file",
        ],
    ),
    (
        "verify",
        &[
            "sphincs verify -p release.pub app.tar.gz   # against app.tar.gz.sig",
            "sphincs verify -p release.pem -s app.sig --context \"my-app v1\" app.tar.gz",
            "sphincs verify -p release.pub --fingerprint SHA256:<hex> app.tar.gz   # pins the key",
            "sphincs verify -p release.pub --sig-dir sigs dist/*",
        ],
    ),
    (
        "demo",
        &[
            "sphincs demo",
            "sphincs demo -a SLH-DSA-SHA2-128s",
            "sphincs demo -a sphincs-haraka-128f-simple",
        ],
    ),
    ("acvp", &["sphincs acvp prompt.json -o response.json"]),
    (
        "kat",
        &[
            "sphincs kat -a sphincs-shake-128f-simple   # writes PQCsignKAT_64.rsp",
            "sphincs kat -a sphincs-sha2-128f-simple --count 10 -o -",
        ],
    ),
    (
        "bench",
        &[
            "sphincs bench -a SLH-DSA-SHAKE-128f --op sign",
            "sphincs bench --threads 1 --json > t1.jsonl",
            "sphincs bench --batch 64 -a SLH-DSA-SHA2-128f --op verify",
            "sphincs bench --calls -a SLH-DSA-SHA2-128s",
        ],
    ),
    (
        "cert",
        &[
            "sphincs cert self-signed -k ca.key --subject \"CN=Release CA,O=Example\" --ca --days 3650 -o ca.pem",
            "sphincs cert request -k release.key --subject \"CN=Release signing\" -o release.csr",
            "sphincs cert issue --ca-key ca.key --ca-cert ca.pem release.csr -o release.pem",
            "sphincs cert verify release.pem --issuer ca.pem",
        ],
    ),
    (
        "cert self-signed",
        &[
            "sphincs cert self-signed -k ca.key --subject \"CN=Release CA,O=Example\" --ca --days 3650 -o ca.pem",
            "sphincs cert self-signed -k release.key --subject \"CN=Release signing\" -o release.pem",
        ],
    ),
    (
        "cert request",
        &[
            "sphincs cert request -k release.key --subject \"CN=Release signing\" -o release.csr",
            "sphincs cert request -k release.key --subject \"CN=Release signing\" --eku codeSigning --san email:release@example.org -o release.csr",
        ],
    ),
    (
        "cert issue",
        &[
            "sphincs cert issue --ca-key ca.key --ca-cert ca.pem release.csr -o release.pem",
            "sphincs cert issue --ca-key ca.key --ca-cert ca.pem release.csr --copy-extensions --days 365 -o release.pem",
        ],
    ),
    (
        "cert verify",
        &[
            "sphincs cert verify release.pem --issuer ca.pem",
            "sphincs cert verify ca.pem   # a self-signed certificate",
            "sphincs cert verify release.csr",
        ],
    ),
    (
        "cert show",
        &["sphincs cert show release.pem", "sphincs cert show release.csr"],
    ),
    (
        "cms",
        &[
            "sphincs cms sign -k release.key --cert release.pem --detached app.tar.gz -o app.tar.gz.p7s",
            "sphincs cms verify --ca ca.pem --content app.tar.gz app.tar.gz.p7s",
        ],
    ),
    (
        "cms sign",
        &[
            "sphincs cms sign -k release.key --cert release.pem --detached app.tar.gz -o app.tar.gz.p7s",
            "sphincs cms sign -k release.key --cert release.pem --chain intermediate.pem --pem notes.txt -o notes.p7s",
        ],
    ),
    (
        "cms verify",
        &[
            "sphincs cms verify --ca ca.pem --content app.tar.gz app.tar.gz.p7s",
            "sphincs cms verify --cert release.pem --content app.tar.gz app.tar.gz.p7s",
            "sphincs cms verify --signature-only notes.p7s",
        ],
    ),
    (
        "completions",
        &[
            "sphincs completions bash > ~/.local/share/bash-completion/completions/sphincs",
            "sphincs completions zsh > ~/.zfunc/_sphincs",
        ],
    ),
    (
        "man",
        &[
            "sphincs man > sphincs.1",
            "sphincs man --dir ~/.local/share/man/man1   # sphincs.1 and a page per subcommand",
        ],
    ),
    (
        "key",
        &[
            "sphincs key show key.pem",
            "sphincs key encrypt plain.pem -o key.pem",
            "sphincs key passwd key.pem",
        ],
    ),
    (
        "pkcs11",
        &[
            "sphincs pkcs11 list 'pkcs11:token=Release?module-path=/usr/lib/x86_64-linux-gnu/libsphincs_pkcs11.so'",
            "sphincs pkcs11 keygen -a SLH-DSA-SHA2-128s 'pkcs11:token=Release;object=release-2027' --pub release.pub",
            "sphincs sign -k 'pkcs11:token=Release;object=release-2027' app.tar.gz   # asks for the token's PIN",
        ],
    ),
    (
        "pkcs11 list",
        &["SPHINCS_PKCS11_MODULE=/usr/lib/softhsm/libsofthsm2.so sphincs pkcs11 list pkcs11:token=Release"],
    ),
    (
        "pkcs11 keygen",
        &["sphincs pkcs11 keygen -a SLH-DSA-SHAKE-128f 'pkcs11:token=Release;object=fw;id=%01?module-path=/opt/hsm/pkcs11.so' --pub fw.pub"],
    ),
    (
        "pkcs11 import",
        &["sphincs pkcs11 import -k release.key 'pkcs11:token=Release;object=release?pin-source=/run/secrets/pin'"],
    ),
    (
        "pkcs11 openpgp",
        &[
            "sphincs pkcs11 openpgp 'pkcs11:token=Release;object=pgp' --userid 'Release <release@example.org>' -o release.cert",
            "sphincs sop sign 'pkcs11:token=Release;object=pgp' <app.tar.gz >app.tar.gz.asc",
        ],
    ),
    (
        "key encrypt",
        &[
            "sphincs key encrypt plain.pem -o key.pem   # asks for the new passphrase twice",
            "sphincs --passphrase-file pass.txt key encrypt plain.pem -o key.pem",
        ],
    ),
    (
        "key decrypt",
        &[
            "sphincs key decrypt key.pem -o plain.pem",
            "sphincs --passphrase-file pass.txt key decrypt key.pem -o plain.pem",
        ],
    ),
    (
        "key passwd",
        &[
            "sphincs key passwd key.pem   # the old passphrase once, the new one twice",
            "sphincs --passphrase-file old.txt key passwd key.pem --new-passphrase-file new.txt",
        ],
    ),
    (
        "key show",
        &[
            "sphincs key show key.pem",
            "sphincs key show release.pem   # a certificate: its subject key",
            "sphincs key show -a SLH-DSA-SHAKE-128f raw.key",
        ],
    ),
    (
        "key expire",
        &[
            "sphincs key expire alice.key 2y   # two years from now",
            "sphincs key expire alice.key 2028-12-31",
            "sphincs key expire alice.key never",
        ],
    ),
    (
        "key revoke",
        &[
            "sphincs key revoke alice.key --signature-only -o alice.rev   # on day one; keep it apart",
            "sphincs key revoke alice.key --reason superseded --message 'moved to bob.key' -o alice-revoked.asc",
            "sphincs key revoke alice.cert --revocation alice.rev -o alice-revoked.asc   # the key is lost",
        ],
    ),
    (
        "key add-subkey",
        &[
            "sphincs key add-subkey release.key --expires 1y",
            "sphincs sop extract-cert < release.key > release.cert   # publish it again",
        ],
    ),
    (
        "key export-subkeys",
        &["sphincs key export-subkeys release.key -o daily.key   # release.key goes offline"],
    ),
    (
        "key retire-subkey",
        &["sphincs key retire-subkey release.key openpgp4fpr:D54E0307021169F7B88BEB2B76E3AAD0E114BE1A8F982D74DBA9CA51D03537F4"],
    ),
    (
        "git",
        &[
            "sphincs git setup --key ~/.sphincs/git.key --cert ~/.sphincs/git.pem --trust ca.pem",
        ],
    ),
    (
        "git setup",
        &[
            "sphincs git setup --key ~/.sphincs/git.key --cert ~/.sphincs/git.pem --trust ca.pem",
            "sphincs git setup --key ~/.sphincs/git.key --cert ~/.sphincs/git.pem --chain inter.pem --trust ca.pem --global",
            "git commit -S -m \"signed\"   # then git verify-commit HEAD",
            "sphincs git setup --openpgp --key alice.key --trust bob.cert   # git's default format, OpenPGP",
            "sphincs git setup --openpgp --trust release-signer.cert       # a clone that only verifies",
            "sphincs git setup --trust ca.pem                               # X.509: a clone that only verifies",
        ],
    ),
    (
        "git trust",
        &[
            "sphincs git trust list",
            "sphincs git trust add new-ca.pem",
            "sphincs git trust remove old-ca.pem",
        ],
    ),
    (
        "git trust list",
        &[
            "sphincs git trust list",
            "sphincs git trust list --openpgp --global",
        ],
    ),
    (
        "git trust add",
        &[
            "sphincs git trust add new-ca.pem          # beside the CAs already trusted",
            "sphincs git trust add --openpgp bob.cert",
        ],
    ),
    (
        "git trust remove",
        &[
            "sphincs git trust remove old-ca.pem",
            "sphincs git trust remove 3F2A…            # by a certificate's SHA-256 fingerprint",
        ],
    ),
    (
        "agent",
        &[
            "sphincs agent start --ttl 30m && sphincs agent add ~/.sphincs/git.key",
            "git rebase -S main   # every commit signed, the passphrase asked once",
        ],
    ),
    (
        "agent start",
        &[
            "sphincs agent start               # keys held 10 minutes each",
            "sphincs agent start --ttl 2h",
            "sphincs agent start --foreground  # under a service manager",
        ],
    ),
    (
        "agent add",
        &[
            "sphincs agent add ~/.sphincs/git.key   # asks for its passphrase, once",
            "sphincs agent add --ttl 1h alice.key   # an OpenPGP secret key",
        ],
    ),
    ("agent list", &["sphincs agent list"]),
    ("agent lock", &["sphincs agent lock   # wipe every key; the agent keeps running"]),
    ("agent stop", &["sphincs agent stop"]),
    (
        "cosign",
        &[
            "sphincs cosign -k repo.key dists/stable/InRelease   # adds ours to GnuPG's signature block",
            "sphincs cosign -k repo.key -s dists/stable/Release.gpg dists/stable/Release",
        ],
    ),
    (
        "gpgv",
        &[
            "sphincs gpgv --keyring ./repo.asc --status-fd 1 dists/stable/InRelease",
            "sphincs gpgv --keyring ./repo.gpg Release.gpg Release   # also run as sphincs-gpgv",
            "echo 'APT::Key::GPGVCommand \"/usr/local/bin/sphincs-gpgv\";' > /etc/apt/apt.conf.d/90sphincs",
        ],
    ),
    (
        "gpg",
        &[
            "sphincs gpg --import repo.key   # into ~/.gnupg/sphincs (or --homedir, GNUPGHOME)",
            "sphincs gpg -u repo@example.org --clearsign -o InRelease Release",
            "sphincs gpg -u repo@example.org -abs -o Release.gpg Release",
            "debsign -p sphincs-gpg -k repo@example.org hello_1.0.dsc",
        ],
    ),
    (
        "sop",
        &[
            "(umask 077; sphincs sop generate-key \"Alice <alice@example.org>\" > alice.key)",
            "sphincs sop sign alice.key < app.tar.gz > app.tar.gz.asc",
        ],
    ),
    ("sop version", &["sphincs sop version --extended"]),
    ("sop list-profiles", &["sphincs sop list-profiles generate-key"]),
    (
        "sop generate-key",
        &[
            "(umask 077; sphincs sop generate-key \"Alice <alice@example.org>\" > alice.key)",
            "(umask 077; sphincs sop generate-key --profile=slh-dsa-shake-128f --with-key-password=pass.txt Bob > bob.key)",
        ],
    ),
    (
        "sop change-key-password",
        &["sphincs sop change-key-password --old-key-password=old.txt --new-key-password=new.txt < bob.key > bob2.key"],
    ),
    ("sop extract-cert", &["sphincs sop extract-cert < alice.key > alice.cert"]),
    (
        "sop revoke-key",
        &["sphincs sop revoke-key < alice.key > alice-revoked.cert   # publish it"],
    ),
    (
        "sop sign",
        &[
            "sphincs sop sign alice.key < app.tar.gz > app.tar.gz.asc",
            "sphincs sop sign --as=text alice.key < notes.txt > notes.txt.asc",
        ],
    ),
    ("sop verify", &["sphincs sop verify app.tar.gz.asc alice.cert < app.tar.gz"]),
    ("sop inline-sign", &["sphincs sop inline-sign --as=clearsigned alice.key < Release > InRelease"]),
    ("sop inline-verify", &["sphincs sop inline-verify alice.cert < InRelease > Release"]),
    ("sop inline-detach", &["sphincs sop inline-detach --signatures-out=Release.asc < InRelease > Release"]),
    ("sop armor", &["sphincs sop armor < alice.key.bin > alice.key"]),
    ("sop dearmor", &["sphincs sop dearmor < alice.cert > alice.cert.bin"]),
];

/// The examples of the subcommand at `path` ("keygen", "cert show").
pub fn examples(path: &str) -> &'static [&'static str] {
    EXAMPLES
        .iter()
        .find(|(p, _)| *p == path)
        .map_or(&[], |(_, e)| e)
}

/// The command grammar with every subcommand's examples as its
/// `after_long_help` (shown by `sphincs VERB --help`).
pub fn command() -> clap::Command {
    fn attach(cmd: clap::Command, prefix: &str) -> clap::Command {
        let names: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        names.into_iter().fold(cmd, |cmd, name| {
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix} {name}")
            };
            cmd.mut_subcommand(&name, |sub| {
                let lines = examples(&path);
                let sub = if lines.is_empty() {
                    sub
                } else {
                    let mut text = String::from("Examples:");
                    for line in lines {
                        text.push_str("\n  ");
                        text.push_str(line);
                    }
                    sub.after_long_help(text)
                };
                attach(sub, &path)
            })
        })
    }
    attach(<crate::args::Cli as clap::CommandFactory>::command(), "")
}

/// The grammar the manual pages describe: built, without clap's `help`
/// subcommand (which has no page of its own).
fn man_command() -> clap::Command {
    let mut cmd = command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Text for a roff line: backslashes, hyphens and a leading dot or quote
/// escaped.
fn roff_escape(line: &str) -> String {
    let mut out = String::new();
    if line.starts_with('.') || line.starts_with('\'') {
        out.push_str("\\&");
    }
    for c in line.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            _ => out.push(c),
        }
    }
    out
}

/// sphincs(1): the top-level page, as clap_mangen renders it.
pub fn top_page() -> Result<Vec<u8>, CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(man_command())
        .render(&mut out)
        .map_err(render_failed)?;
    Ok(out)
}

fn render_failed(e: std::io::Error) -> CliError {
    CliError::Failed(format!("cannot render the manual page: {e}"))
}

/// The page of one subcommand (`path` as in `EXAMPLES`): clap_mangen's
/// sections, then EXAMPLES and SEE ALSO.
fn sub_page(cmd: &clap::Command, path: &str, parent: &str) -> Result<Vec<u8>, CliError> {
    let man =
        clap_mangen::Man::new(cmd.clone()).source(concat!("sphincs ", env!("CARGO_PKG_VERSION")));
    let mut out = Vec::new();
    man.render_title(&mut out).map_err(render_failed)?;
    man.render_name_section(&mut out).map_err(render_failed)?;
    man.render_synopsis_section(&mut out)
        .map_err(render_failed)?;
    man.render_description_section(&mut out)
        .map_err(render_failed)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)
            .map_err(render_failed)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut out)
            .map_err(render_failed)?;
    }
    let lines = examples(path);
    if !lines.is_empty() {
        out.extend_from_slice(b".SH EXAMPLES\n.nf\n");
        for line in lines {
            out.extend_from_slice(roff_escape(line).as_bytes());
            out.push(b'\n');
        }
        out.extend_from_slice(b".fi\n");
    }
    out.extend_from_slice(b".SH \"SEE ALSO\"\n");
    let mut see = vec!["sphincs(1)".to_string()];
    if parent != "sphincs" {
        see.push(format!("{parent}(1)"));
    }
    out.extend_from_slice(roff_escape(&see.join(", ")).as_bytes());
    out.push(b'\n');
    Ok(once_preamble(&out))
}

/// The page with clap_mangen's two-line preamble (which each section it
/// renders alone starts with) kept only at the top.
fn once_preamble(page: &[u8]) -> Vec<u8> {
    const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    let text = String::from_utf8_lossy(page);
    let rest = text.replace(PREAMBLE, "");
    format!("{PREAMBLE}{rest}").into_bytes()
}

/// Every page: (file name, roff), sphincs.1 first, then each visible
/// subcommand's, nested ones as sphincs-cert-show.1.
pub fn all_pages() -> Result<Vec<(String, Vec<u8>)>, CliError> {
    fn walk(
        cmd: &clap::Command,
        path: &str,
        page: &str,
        pages: &mut Vec<(String, Vec<u8>)>,
    ) -> Result<(), CliError> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let sub_path = if path.is_empty() {
                sub.get_name().to_string()
            } else {
                format!("{path} {}", sub.get_name())
            };
            let sub_name = format!("{page}-{}", sub.get_name());
            // Each page names itself (NAME, SYNOPSIS) by its full name.
            let named = sub
                .clone()
                .display_name(sub_name.clone())
                .bin_name(sub_path_bin(&sub_path));
            pages.push((format!("{sub_name}.1"), sub_page(&named, &sub_path, page)?));
            walk(sub, &sub_path, &sub_name, pages)?;
        }
        Ok(())
    }
    fn sub_path_bin(path: &str) -> String {
        format!("sphincs {path}")
    }
    let cmd = man_command();
    let mut pages = vec![("sphincs.1".to_string(), top_page()?)];
    walk(&cmd, "", "sphincs", &mut pages)?;
    Ok(pages)
}

/// `sphincs man --dir DIR`: writes every page into DIR (created if
/// missing); an existing page is replaced only with `force`.
pub fn write_all(dir: &Path, force: bool) -> Result<(), CliError> {
    let pages = all_pages()?;
    std::fs::create_dir_all(dir).map_err(|e| CliError::file(dir, e))?;
    for (name, _) in &pages {
        write::check_writable(&dir.join(name), force)?;
    }
    for (name, roff) in &pages {
        write::write_output(&dir.join(name), roff, false, force)?;
    }
    crate::say::status(&format!(
        "{}: {} manual pages (sphincs.1 and one per subcommand)",
        quote::name(dir),
        pages.len()
    ))
}
