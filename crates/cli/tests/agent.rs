//! `sphincs agent`: a key unlocked once signs many times without its
//! passphrase; the signatures are the key's (deterministic ones equal the
//! key's own, byte for byte, so the message crosses the socket whole on
//! both passes); `lock`, `stop`, a key's time and SIGTERM wipe the keys; the
//! key's memory is locked; another user's client is refused.

mod common;
use common::{sphincs_command, Out, Scratch};

use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// An agent on its own socket in `s`, run in the foreground.
struct Agent {
    child: Child,
    sock: String,
}

impl Agent {
    fn start(s: &Scratch, ttl: &str) -> Agent {
        Agent::start_in(&s.path("agent"), ttl)
    }

    fn start_in(dir: &std::path::Path, ttl: &str) -> Agent {
        std::fs::create_dir(dir).unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let sock = format!("{}/socket", dir.display());
        let child = sphincs_command()
            .args(["agent", "start", "--foreground", "--ttl", ttl])
            .env("SPHINCS_AGENT_SOCK", &sock)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let a = Agent { child, sock };
        let deadline = Instant::now() + Duration::from_secs(10);
        while a.run(&["agent", "list"]).code != 0 {
            assert!(Instant::now() < deadline, "the agent did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        a
    }

    /// `sphincs ARGS` as a client of this agent, with no terminal and no
    /// passphrase source unless the arguments give one.
    fn run(&self, args: &[&str]) -> Out {
        Out::of(
            sphincs_command()
                .args(args)
                .env("SPHINCS_AGENT_SOCK", &self.sock)
                .stdin(Stdio::null())
                .output()
                .unwrap(),
        )
    }

    fn status_line(&self, field: &str) -> String {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find(|l| l.starts_with(field))
            .unwrap_or_default()
            .to_string()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn unlock_once_then_sign_without_the_passphrase() {
    let s = Scratch::new("once");
    let pass = s.write("pass", b"correct horse\n");
    std::fs::set_permissions(&pass, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (key, public) = (s.p("k.pem"), s.p("k.pub"));
    let msg = s.write("msg", &vec![0x5a; 300_000]);
    let a = Agent::start(&s, "10m");
    a.run(&[
        "keygen",
        "-a",
        "SLH-DSA-SHA2-128f",
        "--encrypt",
        "--passphrase-file",
        &pass,
        "-o",
        &key,
        "--pub",
        &public,
    ])
    .ok();

    // Without the key in the agent: no terminal, no passphrase, no signature.
    a.run(&["sign", "-k", &key, "-o", &s.p("none.sig"), &msg])
        .usage_error("passphrase");
    assert_eq!(
        a.run(&["agent", "list"]).ok().text(),
        "the agent holds no keys\n"
    );

    let added = a
        .run(&["agent", "add", "--passphrase-file", &pass, &key])
        .ok()
        .text();
    assert!(
        added.starts_with("the agent holds") && added.contains("10m"),
        "{added}"
    );
    let listed = a.run(&["agent", "list"]).ok().text();
    let fpr = a.run(&["fingerprint", &public]).ok().text();
    let fpr = fpr.split_whitespace().next().unwrap();
    assert!(
        listed.contains(fpr) && listed.contains("SLH-DSA-SHA2-128f"),
        "{listed}"
    );
    // The key's memory is locked.
    let locked = a.status_line("VmLck:");
    assert!(!locked.ends_with(" 0 kB"), "VmLck of the agent: {locked}");

    // Three signatures, no passphrase: hedged ones verify, and the
    // deterministic one is the key's own (the local key signs the same bytes).
    for i in 0..3 {
        let sig = s.p(&format!("{i}.sig"));
        a.run(&["sign", "-k", &key, "-o", &sig, &msg]).ok();
        a.run(&["verify", "-p", &public, "-s", &sig, &msg]).ok();
    }
    let (by_agent, by_file) = (s.p("agent.sig"), s.p("file.sig"));
    a.run(&[
        "sign",
        "--deterministic",
        "--context",
        "ctx",
        "-k",
        &key,
        "-o",
        &by_agent,
        &msg,
    ])
    .ok();
    sphincs_command()
        .args([
            "sign",
            "--deterministic",
            "--context",
            "ctx",
            "--passphrase-file",
            &pass,
            "-k",
            &key,
            "-o",
            &by_file,
            &msg,
        ])
        .env("SPHINCS_AGENT", "off")
        .output()
        .map(Out::of)
        .unwrap()
        .ok();
    assert_eq!(s.read("agent.sig"), s.read("file.sig"));
    // Standard input, read whole, crosses the socket twice as well.
    let piped = Out::of(
        sphincs_command()
            .args(["sign", "--deterministic", "--context", "ctx", "-k", &key])
            .env("SPHINCS_AGENT_SOCK", &a.sock)
            .stdin(std::fs::File::open(&msg).unwrap())
            .output()
            .unwrap(),
    )
    .ok();
    assert_eq!(piped.stdout, s.read("file.sig"));

    // lock wipes: signing needs the passphrase again.
    assert!(a
        .run(&["agent", "lock"])
        .ok()
        .text()
        .starts_with("wiped 1 key"));
    a.run(&["sign", "-k", &key, "-o", &s.p("after.sig"), &msg])
        .usage_error("passphrase");

    // A signing command that asks for the passphrase hands the key over.
    a.run(&[
        "sign",
        "--passphrase-file",
        &pass,
        "-k",
        &key,
        "-o",
        &s.p("asked.sig"),
        &msg,
    ])
    .ok();
    a.run(&["sign", "-k", &key, "-o", &s.p("then.sig"), &msg])
        .ok();
    a.run(&["verify", "-p", &public, "-s", &s.p("then.sig"), &msg])
        .ok();

    // A rewritten key file is another file: the agent's key is not used for it.
    let pass2 = s.write("pass2", b"battery staple\n");
    std::fs::set_permissions(&pass2, std::fs::Permissions::from_mode(0o600)).unwrap();
    a.run(&[
        "key",
        "passwd",
        "--passphrase-file",
        &pass,
        "--new-passphrase-file",
        &pass2,
        &key,
    ])
    .ok();
    a.run(&["sign", "-k", &key, "-o", &s.p("rewritten.sig"), &msg])
        .usage_error("passphrase");

    // stop wipes and ends; the socket is gone.
    a.run(&["agent", "stop"]).ok();
    let mut a = a;
    let status = a.child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(!std::path::Path::new(&a.sock).exists());
    a.run(&["agent", "list"]).usage_error("no agent runs");
}

#[test]
fn a_key_is_wiped_when_its_time_is_up_and_on_sigterm() {
    let s = Scratch::new("ttl");
    let key = s.p("k.pem");
    let mut a = Agent::start(&s, "10m");
    a.run(&["keygen", "-a", "SLH-DSA-SHAKE-128f", "-o", &key])
        .ok();
    a.run(&["agent", "add", "--ttl", "1s", &key]).ok();
    assert!(a
        .run(&["agent", "list"])
        .ok()
        .text()
        .contains("SLH-DSA-SHAKE-128f"));
    let deadline = Instant::now() + Duration::from_secs(10);
    while a.run(&["agent", "list"]).ok().text() != "the agent holds no keys\n" {
        assert!(Instant::now() < deadline, "the key outlived its time");
        std::thread::sleep(Duration::from_millis(100));
    }
    // An agent ended by SIGTERM removes its socket.
    a.run(&["agent", "add", &key]).ok();
    let pid = a.child.id().to_string();
    assert!(std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let status = a.child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(!std::path::Path::new(&a.sock).exists());
}

#[test]
fn refusals() {
    let s = Scratch::new("refusals");
    let a = Agent::start(&s, "10m");
    // A second agent on the same socket.
    a.run(&["agent", "start", "--foreground"])
        .usage_error("already listens");
    // Times out of range.
    let key = s.p("k.pem");
    a.run(&["keygen", "-a", "SLH-DSA-SHA2-128f", "-o", &key])
        .ok();
    a.run(&["agent", "add", "--ttl", "8d", &key])
        .usage_error("7d");
    a.run(&["agent", "add", "--ttl", "soon", &key])
        .usage_error("not a time");
    // A socket directory others can enter is refused by client and agent.
    let open = s.path("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    let sock = format!("{}/socket", open.display());
    let out = Out::of(
        sphincs_command()
            .args(["agent", "start", "--foreground"])
            .env("SPHINCS_AGENT_SOCK", &sock)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    );
    out.usage_error("must be 0700");
}

/// A client running as another user (nobody) reaches the socket (the
/// directory opened for the test) and is refused by the agent itself.
#[test]
fn a_client_of_another_user_is_refused() {
    let is_root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    let tools = ["/usr/bin/setpriv", "/usr/bin/python3"];
    if !is_root || !tools.iter().all(|t| std::path::Path::new(t).exists()) {
        eprintln!(
            "SKIPPED: needs root, setpriv and /usr/bin/python3 to run a client as another user"
        );
        return;
    }
    // In /tmp, which every user can pass through.
    let dir = std::path::PathBuf::from(format!("/tmp/sphincs-agent-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let a = Agent::start_in(&dir, "10m");
    // Open the way to the socket (as a careless user might), so that only
    // the agent's own check stands between the other user and the keys.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711)).unwrap();
    std::fs::set_permissions(&a.sock, std::fs::Permissions::from_mode(0o666)).unwrap();
    // A raw client: what the agent says on connection (its kind and text).
    let script = format!(
        "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect({:?})\nd=b''\nwhile True:\n  c=s.recv(4096)\n  if not c: break\n  d+=c\nsys.stdout.write(str(d[0])+' '+d[5:].decode())\n",
        a.sock
    );
    let out = std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "/usr/bin/python3",
            "-c",
            &script,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(a);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        text.starts_with("21 refused: this agent serves user 0, not 65534"),
        "{text}"
    );
}

/// An OpenPGP key is known to the agent by its signing key's fingerprint:
/// listed as `openpgp4fpr:`, and found from a copy of the key file in
/// another place or after the file was rewritten (`key expire`).
#[test]
fn an_openpgp_key_is_known_by_its_fingerprint_not_its_path() {
    let s = Scratch::new("openpgp");
    let pass = s.write("pass", b"correct horse\n");
    std::fs::set_permissions(&pass, std::fs::Permissions::from_mode(0o600)).unwrap();
    let a = Agent::start(&s, "10m");
    let key = Out::of(
        sphincs_command()
            .args([
                "sop",
                "generate-key",
                &format!("--with-key-password={pass}"),
                "A <a@example.org>",
            ])
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    )
    .ok()
    .stdout;
    let path = s.write("a.key", &key);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let fpr = a.run(&["fingerprint", &path]).ok().text();
    let fpr = fpr.split_whitespace().next().unwrap().to_string();
    assert!(fpr.starts_with("openpgp4fpr:"), "{fpr}");
    a.run(&["agent", "add", "--passphrase-file", &pass, &path])
        .ok();
    let listed = a.run(&["agent", "list"]).ok().text();
    assert!(
        listed.to_uppercase().contains(&fpr.to_uppercase()),
        "{fpr} in {listed}"
    );
    let msg = s.write("m", b"m");
    // A copy elsewhere signs from the agent, without a passphrase.
    let copy = s.write("copy.key", &key);
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o600)).unwrap();
    a.run(&["sign", "-k", &copy, &msg]).ok();
    // The file rewritten in place (a new expiry) is still the same key.
    a.run(&["--passphrase-file", &pass, "key", "expire", &path, "2y"])
        .ok();
    a.run(&["sign", "-k", &path, "--force", &msg]).ok();
    a.run(&["agent", "lock"]).ok();
    a.run(&["sign", "-k", &copy, "--force", &msg])
        .usage_error("passphrase");
}
