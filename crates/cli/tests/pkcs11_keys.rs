//! `sphincs` with keys in a PKCS#11 token: our own module
//! (libsphincs_pkcs11.so, built beside this test) as the token, set up
//! through its C ABI by cryptoki as a token's own tool would (label, SO
//! PIN, user PIN), then `sphincs pkcs11 keygen|import|list` and
//! `sphincs sign -k pkcs11:…`, each signature checked by `sphincs verify`
//! with the public key; a key imported from a file signs deterministically
//! byte for byte as the file does; a CA key and a signing key in the token
//! make a self-signed CA certificate, a request, the certificate issued for
//! it, and a CMS signature, each checked by `sphincs cert|cms verify`;
//! git signs a commit with a token key in both formats; an OpenPGP
//! certificate made for a token key (`sphincs pkcs11 openpgp`) is kept on
//! the token, and `sop sign` with the key's URI makes signatures that
//! `sop verify` accepts with that certificate; the agent logs in to the
//! token once (`agent add URI`) and signs through its session.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::*;
use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::session::UserType;
use cryptoki::types::AuthPin;

const SO_PIN: &str = "so-secret-1";
const USER_PIN: &str = "user-secret-1";

/// libsphincs_pkcs11.so of this build (cargo builds the workspace's cdylib
/// into the profile directory, one up from this test binary's deps/).
fn module() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps.to_path_buf(), deps.join("..")] {
        let p = dir.join("libsphincs_pkcs11.so");
        if p.exists() {
            return p;
        }
    }
    panic!(
        "libsphincs_pkcs11.so not found beside {} (cargo build -p sphincs-pkcs11)",
        exe.display()
    );
}

/// A token labelled "Release" in `dir`, with its SO and user PINs set.
fn init_token(module: &PathBuf, dir: &str) {
    // The module reads its directory at C_Initialize; this test binary runs
    // this one test, so the variable is set for it alone.
    std::env::set_var("SPHINCS_PKCS11_DIR", dir);
    let p = Pkcs11::new(module).unwrap();
    p.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK))
        .unwrap();
    let slot = p.get_slots_with_token().unwrap()[0];
    p.init_token(slot, &AuthPin::from(SO_PIN), "Release")
        .unwrap();
    let s = p.open_rw_session(slot).unwrap();
    s.login(UserType::So, Some(&AuthPin::from(SO_PIN))).unwrap();
    s.init_pin(&AuthPin::from(USER_PIN)).unwrap();
    drop(s);
    p.finalize().unwrap();
}

/// A file only its owner reads (a PIN file; others draw a warning).
fn private_file(t: &Scratch, name: &str, data: &[u8]) -> String {
    use std::os::unix::fs::PermissionsExt;
    let p = t.write(name, data);
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
    p
}

/// `git commit -S` of an empty commit with `message`, by the user of
/// `name` and `email` (`user.name=…`, `user.email=…`).
fn signed_commit<'a>(name: &'a str, email: &'a str, message: &'a str) -> [&'a str; 10] {
    [
        "-c",
        name,
        "-c",
        email,
        "commit",
        "-q",
        "-S",
        "--allow-empty",
        "-m",
        message,
    ]
}

/// A git repository for `git` and `sphincs git setup`, with no system or
/// user configuration of the host, and the token directory `dir`.
struct Repo {
    path: PathBuf,
    home: PathBuf,
    dir: String,
}

impl Repo {
    fn new(t: &Scratch, name: &str, dir: &str) -> Repo {
        let path = t.path(name);
        std::fs::create_dir_all(&path).unwrap();
        Repo {
            path,
            home: t.path(&format!("{name}-home")),
            dir: dir.to_string(),
        }
    }

    fn run(&self, cmd: &mut Command) -> std::process::Output {
        cmd.current_dir(&self.path)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join("xdg"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join("no-global"))
            .env("SPHINCS_PKCS11_DIR", &self.dir)
            .output()
            .unwrap()
    }

    /// `git ARGS`, which must succeed: its output.
    fn git(&self, args: &[&str]) -> String {
        let out = self.run(Command::new("git").args(args));
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "git {args:?}: {text}");
        text
    }
}

#[test]
fn sign_with_keys_in_a_token() {
    let t = Scratch::new("token");
    let module = module();
    let m = module.to_str().unwrap();
    let dir = t.p("token-dir");
    std::fs::create_dir_all(&dir).unwrap();
    init_token(&module, &dir);
    let env = [("SPHINCS_PKCS11_DIR", dir.as_str())];
    let pin = private_file(&t, "pin", format!("{USER_PIN}\n").as_bytes());
    let uri = |object: &str| {
        format!("pkcs11:token=Release;object={object}?module-path={m}&pin-source={pin}")
    };
    let msg = t.write("release.tar", b"the release\n");

    // A key made in the token: its public half written for verify.
    let pubf = t.p("gen.pub");
    sphincs_env(
        &[
            "pkcs11",
            "keygen",
            "-a",
            "SLH-DSA-SHA2-128f",
            &uri("gen"),
            "--pub",
            &pubf,
        ],
        &env,
    )
    .ok();
    for extra in [&[][..], &["--context", "v1"][..]] {
        let sig = t.p("gen.sig");
        let gen = uri("gen");
        let mut args = vec!["sign", "-k", &gen, "-o", &sig, "--force"];
        args.extend_from_slice(extra);
        args.push(&msg);
        sphincs_env(&args, &env).ok();
        let mut check = vec!["verify", "-p", &pubf, "-s", &sig];
        check.extend_from_slice(extra);
        check.push(&msg);
        sphincs(&check).ok();
        // Not under another context or pre-hash.
        let other = if extra.is_empty() {
            vec!["--context", "x"]
        } else {
            vec![]
        };
        let mut wrong = vec!["verify", "-p", &pubf, "-s", &sig];
        wrong.extend_from_slice(&other);
        wrong.push(&msg);
        sphincs(&wrong).code(1);
    }

    // Keys imported from files, one pure and one HashSLH-DSA (RFC 9909
    // binds a key file to one mode): the token's deterministic signatures
    // are the files', byte for byte, and verify with the files' public keys.
    for (name, set, extra) in [
        ("imported", "SLH-DSA-SHAKE-128f", &[][..]),
        (
            "hashed",
            "SLH-DSA-SHA2-128f",
            &["--prehash", "SHA2-256"][..],
        ),
    ] {
        let key = t.p(&format!("{name}.key"));
        let public = t.p(&format!("{name}.pub"));
        let mut keygen = vec!["keygen", "-a", set, "-o", &key, "--pub", &public];
        keygen.extend_from_slice(extra);
        sphincs(&keygen).ok();
        let in_token = uri(name);
        sphincs_env(&["pkcs11", "import", "-k", &key, &in_token], &env).ok();
        let (a, b) = (t.p("a.sig"), t.p("b.sig"));
        for (k, sig) in [(&in_token, &a), (&key, &b)] {
            let mut args = vec!["sign", "--deterministic", "-k", k, "-o", sig, "--force"];
            args.extend_from_slice(extra);
            args.push(&msg);
            sphincs_env(&args, &env).ok();
        }
        assert_eq!(
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            "{name}"
        );
        let mut check = vec!["verify", "-p", &public, "-s", &a];
        check.extend_from_slice(extra);
        check.push(&msg);
        sphincs(&check).ok();
    }

    // The list names the three keys, with their sets.
    let listed = sphincs_env(
        &[
            "pkcs11",
            "list",
            &format!("pkcs11:token=Release?module-path={m}"),
        ],
        &env,
    )
    .ok()
    .text();
    assert!(
        listed.contains("gen") && listed.contains("SLH-DSA-SHA2-128f"),
        "{listed}"
    );
    assert!(
        listed.contains("imported") && listed.contains("SLH-DSA-SHAKE-128f"),
        "{listed}"
    );

    // X.509 and CMS with keys in the token: the CA key ("gen") certifies
    // itself and issues a certificate for the request of the key
    // "imported", which then signs a CMS message.
    let ca = t.p("ca.pem");
    let gen = uri("gen");
    sphincs_env(
        &[
            "cert",
            "self-signed",
            "-k",
            &gen,
            "--subject",
            "CN=Token CA",
            "--ca",
            "-o",
            &ca,
        ],
        &env,
    )
    .ok();
    sphincs(&["cert", "verify", &ca]).ok();
    let (csr, leaf) = (t.p("leaf.csr"), t.p("leaf.pem"));
    let imported = uri("imported");
    sphincs_env(
        &[
            "cert",
            "request",
            "-k",
            &imported,
            "--subject",
            "CN=Token signer",
            "-o",
            &csr,
        ],
        &env,
    )
    .ok();
    sphincs_env(
        &[
            "cert",
            "issue",
            "--ca-key",
            &gen,
            "--ca-cert",
            &ca,
            &csr,
            "-o",
            &leaf,
        ],
        &env,
    )
    .ok();
    sphincs(&["cert", "verify", &leaf, "--issuer", &ca]).ok();
    let p7s = t.p("release.p7s");
    sphincs_env(
        &[
            "cms",
            "sign",
            "-k",
            &imported,
            "--cert",
            &leaf,
            "--detached",
            &msg,
            "-o",
            &p7s,
        ],
        &env,
    )
    .ok();
    sphincs(&["cms", "verify", "--ca", &ca, "--content", &msg, &p7s]).ok();
    // The certificate of another key is refused before the token signs.
    sphincs_env(
        &[
            "cms",
            "sign",
            "-k",
            &gen,
            "--cert",
            &leaf,
            &msg,
            "-o",
            &t.p("x.p7s"),
        ],
        &env,
    )
    .usage_error("not the key of the certificate");
    assert!(
        !t.path("x.p7s").exists(),
        "a refused CMS signature left a file"
    );

    // git's X.509 signing with the token's key: `git setup` records the
    // URI (checking the token's public key against the certificate), git
    // signs a commit through it and verifies it against the CA.
    let repo = Repo::new(&t, "repo", &dir);
    let (in_repo, git) = (|c: &mut Command| repo.run(c), |a: &[&str]| repo.git(a));
    git(&["init", "-q"]);
    let setup = in_repo(sphincs_command().args([
        "git", "setup", "--key", &imported, "--cert", &leaf, "--trust", &ca,
    ]));
    assert!(
        setup.status.success(),
        "{}",
        String::from_utf8_lossy(&setup.stderr)
    );
    assert_eq!(git(&["config", "sphincs.key"]).trim(), imported);
    git(&signed_commit(
        "user.name=Token signer",
        "user.email=signer@example.org",
        "signed in the token",
    ));
    let checked = git(&["verify-commit", "-v", "HEAD"]);
    assert!(
        checked.contains("GOODSIG") || checked.contains("Good signature"),
        "{checked}"
    );
    // The certificate of another key is refused at set-up.
    let wrong = in_repo(sphincs_command().args(["git", "setup", "--key", &gen, "--cert", &leaf]));
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("is not the key of the certificate"),
        "{}",
        String::from_utf8_lossy(&wrong.stderr)
    );

    // OpenPGP with a key in the token (RFC 9980 sets only): no certificate
    // kept yet, then `pkcs11 openpgp` certifies the key and keeps its
    // certificate on the token; `sop sign` and git's OpenPGP signing take
    // the URI, and what they sign verifies against the certificate.
    let pgp = uri("pgp");
    sphincs_env(
        &["pkcs11", "keygen", "-a", "SLH-DSA-SHAKE-128f", &pgp],
        &env,
    )
    .ok();
    let data = b"the release\n".as_slice();
    sphincs_with(&["sop", "sign", &pgp], Some(data), &env)
        .code(79)
        .says("keeps no OpenPGP certificate");
    let cert = t.p("pgp.cert");
    let certify = |uid: &str, out: &[&str]| {
        let mut args = vec![
            "pkcs11",
            "openpgp",
            &pgp,
            "--userid",
            uid,
            "--expires",
            "2y",
        ];
        args.extend_from_slice(out);
        sphincs_env(&args, &env).ok()
    };
    let uid = "Release <release@example.org>";
    certify(uid, &["-o", &cert]);
    let made = certify("R <r@example.org>", &[]);
    assert!(
        made.text()
            .starts_with("-----BEGIN PGP PUBLIC KEY BLOCK-----"),
        "{}",
        made.text()
    );
    // (That made a second certificate, now kept in place of the first.)
    certify(uid, &["-o", &cert, "--force"]);
    let shown = sphincs(&["key", "show", &cert]).ok().text();
    assert_has_all(
        &shown,
        &["Release <release@example.org>", "SLH-DSA-SHAKE-128f"],
    );
    let sig = sphincs_with(&["sop", "sign", &pgp], Some(data), &env).ok();
    let sig_file = t.write("release.asc", &sig.stdout);
    sphincs_in(&["sop", "verify", &sig_file, &cert], Some(data)).ok();
    sphincs_in(
        &["sop", "verify", &sig_file, &cert],
        Some(b"another release\n"),
    )
    .code(3);
    // The PIN is not shown in an error, even from pin-value.
    let with_pin = format!("pkcs11:token=Release;object=nokey?module-path={m}&pin-value=s3cret");
    let e = sphincs_with(&["sop", "sign", &with_pin], Some(data), &env).code(79);
    assert!(!e.stderr.contains("s3cret"), "{}", e.stderr);
    // git: `git setup --openpgp --key URI` records the URI; a commit signed
    // through the token verifies.
    let repo2 = Repo::new(&t, "repo2", &dir);
    let (in_repo2, git2) = (|c: &mut Command| repo2.run(c), |a: &[&str]| repo2.git(a));
    git2(&["init", "-q"]);
    let setup = in_repo2(sphincs_command().args(["git", "setup", "--openpgp", "--key", &pgp]));
    assert!(
        setup.status.success(),
        "{}",
        String::from_utf8_lossy(&setup.stderr)
    );
    assert_eq!(git2(&["config", "sphincs.openpgpKey"]).trim(), pgp);
    git2(&signed_commit(
        "user.name=Release",
        "user.email=release@example.org",
        "signed through the token, OpenPGP",
    ));
    let checked = git2(&["verify-commit", "-v", "HEAD"]);
    assert!(
        checked.contains("GOODSIG") || checked.contains("Good signature"),
        "{checked}"
    );

    // The agent: `agent add URI` has it log in to the token (the PIN read
    // here, from --passphrase-file) and keep the session; `sign -k URI`
    // and git's OpenPGP signing with no PIN source then sign through it,
    // asking for nothing. After
    // `agent lock` the same command has no PIN (no terminal here).
    let agent_dir = t.path("agent");
    std::fs::create_dir(&agent_dir).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&agent_dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let sock = format!("{}/socket", agent_dir.display());
    let agent_env = [
        ("SPHINCS_PKCS11_DIR", dir.as_str()),
        ("SPHINCS_AGENT_SOCK", sock.as_str()),
    ];
    let mut agent = sphincs_command()
        .args(["agent", "start", "--foreground", "--ttl", "5m"])
        .envs(agent_env)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while sphincs_env(&["agent", "list"], &agent_env).code != 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the agent did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let bare = format!("pkcs11:token=Release;object=gen?module-path={m}");
    let wrong_pin_file = private_file(&t, "agent-wrong-pin", b"nope\n");
    sphincs_env(
        &["--passphrase-file", &wrong_pin_file, "agent", "add", &bare],
        &agent_env,
    )
    .usage_error("PinIncorrect");
    sphincs_env(
        &[
            "--passphrase-file",
            &pin,
            "agent",
            "add",
            &bare,
            "--ttl",
            "1m",
        ],
        &agent_env,
    )
    .ok();
    let listed = sphincs_env(&["agent", "list"], &agent_env).ok().text();
    assert_has_all(&listed, &["object=gen", "SLH-DSA-SHA2-128f"]);
    let via_agent = t.p("agent.sig");
    sphincs_env(&["sign", "-k", &bare, "-o", &via_agent, &msg], &agent_env).ok();
    sphincs(&["verify", "-p", &pubf, "-s", &via_agent, &msg]).ok();
    // git's OpenPGP signing through the agent's session: the key's URI with
    // no PIN source, so nothing but the agent can sign (no terminal here).
    let bare_pgp = format!("pkcs11:token=Release;object=pgp?module-path={m}");
    // The agent is logged in to the token already (for `gen`): another of
    // its keys is not reached with a wrong PIN.
    sphincs_env(
        &[
            "--passphrase-file",
            &wrong_pin_file,
            "agent",
            "add",
            &bare_pgp,
        ],
        &agent_env,
    )
    .usage_error("logged in already, with another PIN");
    sphincs_env(
        &["--passphrase-file", &pin, "agent", "add", &bare_pgp],
        &agent_env,
    )
    .ok();
    git2(&["config", "sphincs.openpgpKey", &bare_pgp]);
    let commit = repo2.run(Command::new("git").env("SPHINCS_AGENT_SOCK", &sock).args(
        signed_commit(
            "user.name=Release",
            "user.email=release@example.org",
            "signed through the agent's token session",
        ),
    ));
    assert!(
        commit.status.success(),
        "{}",
        String::from_utf8_lossy(&commit.stderr)
    );
    let checked = git2(&["verify-commit", "-v", "HEAD"]);
    assert!(
        checked.contains("GOODSIG") || checked.contains("Good signature"),
        "{checked}"
    );
    sphincs_env(&["agent", "lock"], &agent_env).ok();
    let locked = sphincs_env(
        &["sign", "-k", &bare, "-o", &t.p("locked.sig"), &msg],
        &agent_env,
    );
    assert_ne!(locked.code, 0, "signed with no PIN and no agent");
    assert!(!t.path("locked.sig").exists());
    sphincs_env(&["agent", "stop"], &agent_env).ok();
    agent.wait().unwrap();

    // Errors: a wrong PIN, a key that is not there, no module, many files.
    let wrong_pin = private_file(&t, "wrong-pin", b"nope\n");
    let bad = format!("pkcs11:token=Release;object=gen?module-path={m}&pin-source={wrong_pin}");
    sphincs_env(&["sign", "-k", &bad, "-o", &t.p("x.sig"), &msg], &env).usage_error("C_Login");
    assert!(!t.path("x.sig").exists(), "a failed signature left a file");
    sphincs_env(
        &["sign", "-k", &uri("missing"), "-o", &t.p("x.sig"), &msg],
        &env,
    )
    .usage_error("no private key");
    sphincs_env(
        &["sign", "-k", "pkcs11:object=gen", "-o", &t.p("x.sig"), &msg],
        &[],
    )
    .usage_error("no PKCS#11 module");
    sphincs_env(&["sign", "-k", &uri("gen"), &msg, &msg], &env).usage_error("one file per run");
    sphincs(&["sign", "-k", "pkcs11:object=a;colour=red", &msg])
        .usage_error("unknown path attribute");
}
