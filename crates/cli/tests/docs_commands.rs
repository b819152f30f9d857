//! The command examples of the docs/ pages, run as a new user would copy
//! them: each ```sh block of a page, in an empty directory (with the files a
//! reader is assumed to have, e.g. the `app.tar.gz` to sign), with the built
//! `sphincs` first on PATH, under `sh -e -x`. Every block of every page is
//! either run here or listed in `NOT_RUN_HERE` with the suite that runs the
//! same commands, so a new example cannot go untried unnoticed.

mod common;

use std::path::Path;
use std::process::Command;

use common::Scratch;

/// Blocks run elsewhere (or not runnable as a test), by page and index among
/// the page's ```sh blocks, with the reason.
const NOT_RUN_HERE: &[(&str, usize, &str)] = &[
    (
        "pki.md",
        0,
        "asks for passphrases at a terminal: encrypted_keys.rs runs these verbs with --passphrase-file",
    ),
    ("git.md", 0, "needs a git repository and identity: tests/interop/git-openpgp.sh runs this flow with Debian's git"),
    ("git.md", 1, "needs a git repository and identity: tests/interop/git.sh runs this flow with Debian's git"),
    ("git.md", 2, "asks for a passphrase at a terminal and needs a git repository: tests/interop/git.sh runs agent start/add, rebase -S, lock and stop; agent.rs the rest"),
    ("gpg.md", 1, "configures the machine's apt: tests/interop/apt.sh runs apt-get update with this setting in a temporary root"),
    ("gpg.md", 2, "needs devscripts and dpkg-dev: tests/interop/apt.sh runs debsign and dpkg-source so"),
    ("gpg.md", 4, "needs a GnuPG key: tests/interop/apt.sh signs with Debian's gpg, cosigns, and runs apt-get update with both gpgv programs"),
    ("openpgp.md", 3, "needs a git repository and identity: tests/interop/git-openpgp.sh runs this flow with Debian's git"),
    ("openssl.md", 0, "install-provider and OpenSSL: tests/interop/provider.sh"),
    ("openssl.md", 1, "OpenSSL with the provider: tests/interop/provider.sh"),
    ("openssl.md", 2, "OpenSSL s_server/s_client: tests/interop/provider.sh"),
    ("openssl.md", 3, "HashSLH-DSA keys through the provider: tests/interop/provider.sh"),
    ("openssl.md", 4, "the provider suite's own command: CI runs it"),
    ("sp800-230.md", 0, "keygen of these sets builds the whole tree (minutes): sp800_230.rs signs from a fixture key"),
    ("sp800-230.md", 1, "needs block 0's key: sp800_230_keys.rs checks the fingerprint against this digest"),
    ("embedded.md", 0, "the emulated Cortex-M4 run: .ci/embedded.sh"),
    ("ct-and-fuzzing.md", 0, "valgrind: .ci/ct-valgrind.sh"),
    ("ct-and-fuzzing.md", 1, "the dudect timing run: a measurement of minutes, not a test"),
    ("ct-and-fuzzing.md", 2, "the dudect timing runs: measurements of minutes, not tests"),
    ("ct-and-fuzzing.md", 3, "cargo-fuzz: .ci/fuzz-smoke.sh"),
    ("c.md", 0, "building and installing libsphincs: crates/capi/tests/run.sh"),
    ("pkcs11.md", 0, "cargo builds and tests of the module: `cargo test -p sphincs-pkcs11` is the suite"),
    ("pkcs11.md", 1, "needs a PKCS#11 module with a set-up token: crates/cli/tests/pkcs11_keys.rs runs these commands against ours"),
    ("pkcs11.md", 2, "needs OpenSSL 3.5 and pkcs11-provider 1.3: tests/interop/pkcs11-provider.sh runs these commands"),
];

/// Commands of a run block left out: benchmarks are not tests.
fn runnable(line: &str) -> bool {
    !line.trim_start().starts_with("sphincs bench")
}

/// The bodies of a page's ```sh blocks, in order.
fn sh_blocks(page: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        match (&mut current, line) {
            (None, "```sh") => current = Some(String::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(body), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "a ```sh block is not closed");
    blocks
}

fn docs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

fn page_blocks(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(docs_dir().join(name)).unwrap();
    sh_blocks(&text)
}

/// Runs `script` under `sh -e -x` in `dir` with the built CLI first on PATH;
/// returns its standard output, failing the test with the trace otherwise.
fn run_block(dir: &Path, what: &str, script: &str) -> String {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sphincs")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let file = dir.join(format!(".{}.sh", what.replace(['/', ' '], "-")));
    std::fs::write(&file, script).unwrap();
    let out = Command::new("sh")
        .args(["-e", "-x"])
        .arg(&file)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("SPHINCS_BACKEND")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- script\n{script}--- stdout\n{stdout}--- stderr (sh -x)\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A block with its benchmark lines left out, after a prelude.
fn script(prelude: &str, block: &str) -> String {
    let body: String = block
        .lines()
        .filter(|l| runnable(l))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        body.lines().any(|l| l.starts_with("sphincs ")),
        "a block with no sphincs command:\n{block}"
    );
    format!("{prelude}{body}")
}

/// Runs block `i` of docs/`page` in `d` after the shell line `prelude`,
/// returning what it printed.
fn run_page_block(d: &Scratch, page: &str, i: usize, prelude: &str) -> String {
    let block = &page_blocks(page)[i];
    run_block(
        &d.0,
        &format!("docs/{page} block {i}"),
        &script(prelude, block),
    )
}

#[test]
fn cli_page_signs_and_verifies_as_shown() {
    let d = Scratch::new("cli-md");
    let out = run_page_block(&d, "cli.md", 0, "echo 'the release' > app.tar.gz\n");
    assert!(out.contains("app.tar.gz: valid signature"), "{out}");
    assert!(d.path("app.tar.gz.sig").is_file());
}

#[test]
fn pki_page_builds_a_ca_certificates_and_cms_as_shown() {
    let d = Scratch::new("pki-md");
    let out = run_page_block(&d, "pki.md", 1, "echo 'the release' > app.tar.gz\n");
    assert!(d.path("app.tar.gz.p7s").is_file(), "{out}");
    // The extensions block re-issues the certificate with the first block's
    // CA and key, then signs and verifies again.
    let out = run_page_block(&d, "pki.md", 2, "");
    assert!(out.contains("CMS signature OK"), "{out}");
    assert!(out.contains("chain: OK"), "{out}");
}

#[test]
fn gpg_page_signs_a_repository_and_a_release_as_shown() {
    let d = Scratch::new("gpg-md");
    let out = run_page_block(
        &d,
        "gpg.md",
        0,
        "printf 'Origin: Example\\nSuite: stable\\n' > Release\n",
    );
    assert!(out.contains("[GNUPG:] GOODSIG "), "{out}");
    assert!(out.contains("[GNUPG:] VALIDSIG "), "{out}");
    assert!(d
        .read("InRelease")
        .starts_with(b"-----BEGIN PGP SIGNED MESSAGE-----"));
    assert!(d
        .read("Release.gpg")
        .starts_with(b"-----BEGIN PGP SIGNATURE-----"));
    assert_eq!(
        d.read("archive.gpg")[0],
        0xc6,
        "a binary v6 public key first"
    );
    let out = run_page_block(&d, "gpg.md", 3, "echo 'the release' > app-1.0.tar.gz\n");
    // (The block runs under sh -e: its `--verify` succeeded.)
    assert!(
        d.read("app-1.0.tar.gz.asc")
            .starts_with(b"-----BEGIN PGP SIGNATURE-----"),
        "{out}"
    );
}

#[test]
fn sphincs256_page_runs_as_shown() {
    let d = Scratch::new("sphincs256-md");
    let out = run_page_block(&d, "sphincs256.md", 0, "echo 'an old file' > file\n");
    assert!(out.contains("valid signature"), "{out}");
}

#[test]
fn openpgp_page_makes_keys_signs_and_verifies_as_shown() {
    let d = Scratch::new("openpgp-md");
    run_page_block(&d, "openpgp.md", 0, "");
    assert!(d.path("alice.cert").is_file());
    let out = run_page_block(&d, "openpgp.md", 1, "echo 'the release' > app.tar.gz\n");
    assert!(
        out.contains("app.tar.gz: valid signature by \"Alice <alice@example.org>\""),
        "{out}"
    );
    assert!(out.contains("openpgp4fpr:"), "{out}");
    assert!(d.path("app.tar.gz.asc").is_file());
    let out = run_page_block(
        &d,
        "openpgp.md",
        2,
        "printf 'Origin: Example\\n' > Release\n",
    );
    assert!(out.contains(" mode:binary "), "{out}");
    assert_eq!(d.read("Release.checked"), b"Origin: Example\n");
    // A key's life: the release signed by the subkey from the key without
    // its primary secret, verified, the subkey shown with its state.
    let out = run_page_block(&d, "openpgp.md", 4, "echo 'release 2.0' > app-2.0.tar.gz\n");
    assert!(
        out.contains("app-2.0.tar.gz: valid signature by \"Release Team <release@example.org>\""),
        "{out}"
    );
    assert!(out.contains("(signs: yes, expires: "), "{out}");
    assert!(d
        .read("release.rev")
        .starts_with(b"-----BEGIN PGP SIGNATURE-----"));
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(d.path("release.key"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o077, 0, "umask 077 made release.key private");
}

/// The pages' blocks run above, by page and index.
const RUN_HERE: &[(&str, usize)] = &[
    ("gpg.md", 0),
    ("gpg.md", 3),
    ("openpgp.md", 0),
    ("openpgp.md", 1),
    ("openpgp.md", 2),
    ("openpgp.md", 4),
    ("cli.md", 0),
    ("pki.md", 1),
    ("pki.md", 2),
    ("sphincs256.md", 0),
];

#[test]
fn every_block_is_run_here_or_named_with_where_it_runs() {
    let mut unaccounted = Vec::new();
    for entry in std::fs::read_dir(docs_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".md") {
            continue;
        }
        for i in 0..page_blocks(&name).len() {
            let here = RUN_HERE.contains(&(name.as_str(), i));
            let elsewhere = NOT_RUN_HERE.iter().any(|(p, j, _)| *p == name && *j == i);
            assert!(!(here && elsewhere), "{name} block {i} is in both lists");
            if !here && !elsewhere {
                unaccounted.push(format!("{name} block {i}"));
            }
        }
    }
    assert!(
        unaccounted.is_empty(),
        "```sh blocks neither run by docs_commands.rs nor listed in NOT_RUN_HERE: {unaccounted:?}"
    );
    // And no entry names a block that no longer exists.
    for (page, i) in RUN_HERE
        .iter()
        .copied()
        .chain(NOT_RUN_HERE.iter().map(|(p, i, _)| (*p, *i)))
    {
        assert!(i < page_blocks(page).len(), "{page} has no ```sh block {i}");
    }
}

#[test]
fn finds_sh_blocks_only() {
    let page = "x\n```text\nno\n```\n```sh\na\nb\n```\n```rust\nno\n```\n```sh\nc\n```\n";
    assert_eq!(
        sh_blocks(page),
        vec!["a\nb\n".to_string(), "c\n".to_string()]
    );
}
