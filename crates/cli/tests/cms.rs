//! `sphincs cms sign|verify` end to end: attached and detached, PEM and DER,
//! streamed content, exit codes and bad input.

mod common;
use common::{run, sphincs, Scratch};

#[test]
fn sign_and_verify() {
    let s = Scratch::new("cms");
    let (k, c) = (s.p("k.pem"), s.p("c.pem"));
    sphincs(&["keygen", "-a", "shake-128f", "-o", &k]).ok();
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "CN=CMS signer",
        "-o",
        &c,
    ])
    .ok();
    // Larger than the 64 KiB read buffer, so the content is streamed in pieces.
    let data: Vec<u8> = (0..300_000u32).map(|i| (i % 253) as u8).collect();
    let msg = s.write("msg", &data);
    let (att, det) = (s.p("att.der"), s.p("det.pem"));
    sphincs(&["cms", "sign", "-k", &k, "--cert", &c, &msg, "-o", &att]).ok();
    let der = s.read("att.der");
    assert_eq!(der[0], 0x30);
    assert!(
        der.windows(data.len()).any(|w| w == data),
        "content embedded"
    );
    let out = sphincs(&["cms", "verify", &att]).ok().text();
    assert!(
        out.contains("CMS signature OK: signed by CN=CMS signer (SHAKE-128, attached"),
        "{out}"
    );
    run(&format!(
        "cms sign -k {k} --cert {c} --detached --pem {msg} -o {det}"
    ))
    .ok();
    assert!(s.read("det.pem").starts_with(b"-----BEGIN CMS-----\n"));
    assert!(s.read("det.pem").len() < 100_000, "detached: no content");
    sphincs(&["cms", "verify", "--content", &msg, "--cert", &c, &det]).ok();
    // Another signer's certificate given: the signature cannot be checked
    // with it (exit 2), which is not the same as invalid (exit 1).
    let (k2, c2) = (s.p("k2.pem"), s.p("c2.pem"));
    sphincs(&["keygen", "-a", "shake-128f", "-o", &k2]).ok();
    run(&format!(
        "cert self-signed -k {k2} --subject CN=Other -o {c2}"
    ))
    .ok();
    sphincs(&["cms", "verify", "--cert", &c2, &att])
        .usage_error("cannot check: ")
        .usage_error("not the one");
    // Another digest on request; too weak refused.
    let sha3 = s.p("sha3.der");
    sphincs(&[
        "cms", "sign", "-k", &k, "--cert", &c, "--digest", "sha3-256", &msg, "-o", &sha3,
    ])
    .ok();
    let out = sphincs(&["cms", "verify", &sha3]).ok().text();
    assert!(out.contains("SHA3-256"), "{out}");
    let x = s.p("x");
    sphincs(&[
        "cms", "sign", "-k", &k, "--cert", &c, "--digest", "sha2-224", &msg, "-o", &x,
    ])
    .usage_error("too weak");

    // Detached without content; wrong content: digest mismatch, exit 1.
    sphincs(&["cms", "verify", &det]).usage_error("give the content file");
    let other = s.write("other", b"other content");
    sphincs(&["cms", "verify", "--content", &other, &det]).invalid("message digest");
    // A tampered signature: exit 1.
    let mut bad = der.clone();
    *bad.last_mut().unwrap() ^= 1;
    let bad = s.write("bad.der", &bad);
    sphincs(&["cms", "verify", &bad]).invalid("does not verify");
    // Truncated, garbage, a certificate instead of CMS: exit 2.
    let cut = s.write("cut.der", &der[..der.len() / 3]);
    sphincs(&["cms", "verify", &cut]).usage_error("not a valid CMS ContentInfo");
    sphincs(&["cms", "verify", &other]).usage_error("neither PEM");
    sphincs(&["cms", "verify", &c]).usage_error("\"CERTIFICATE\"");
    // A HashSLH-DSA key cannot sign CMS (RFC 9814 is pure SLH-DSA).
    let (hk, hc) = (s.p("h.pem"), s.p("hc.pem"));
    run(&format!("keygen -a shake-128f --prehash shake-128 -o {hk}")).ok();
    run(&format!("cert self-signed -k {hk} --subject CN=h -o {hc}")).ok();
    sphincs(&["cms", "sign", "-k", &hk, "--cert", &hc, &msg, "-o", &x]).usage_error("pure SLH-DSA");
    // The key must be the certificate's.
    sphincs(&["cms", "sign", "-k", &hk, "--cert", &c, &msg, "-o", &x]).usage_error("");
    assert!(!s.path("x").exists());
    let names: Vec<_> = std::fs::read_dir(&s.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        !names.iter().any(|n| n.to_string_lossy().ends_with(".tmp")),
        "{names:?}"
    );
}

#[test]
fn verify_chain_with_ca() {
    let s = Scratch::new("cms-ca");
    let d = s.p("");
    for k in ["root", "int", "leaf", "other"] {
        run(&format!("keygen -a shake-128f -o {d}/{k}.key")).ok();
    }
    run(&format!(
        "cert self-signed -k {d}/root.key --subject CN=Root --ca -o {d}/root.pem"
    ))
    .ok();
    run(&format!(
        "cert self-signed -k {d}/other.key --subject CN=Other --ca -o {d}/other.pem"
    ))
    .ok();
    run(&format!(
        "cert self-signed -k {d}/root.key --subject CN=Root --ca --not-before 2020-01-01 --not-after 2021-01-01 -o {d}/old-root.pem"
    ))
    .ok();
    run(&format!(
        "cert request -k {d}/leaf.key --subject CN=Signer --eku codeSigning -o {d}/leaf.csr"
    ))
    .ok();
    run(&format!(
        "cert issue --ca-key {d}/root.key --ca-cert {d}/root.pem {d}/leaf.csr --copy-extensions -o {d}/leaf.pem"
    ))
    .ok();
    let content = s.write("msg.txt", b"release 1.0\n");
    run(&format!(
        "cms sign -k {d}/leaf.key --cert {d}/leaf.pem {content} -o {d}/msg.p7s"
    ))
    .ok();

    let out = run(&format!("cms verify {d}/msg.p7s")).ok().text();
    assert!(out.contains("chain not checked"), "{out}");
    let out = run(&format!("cms verify --ca {d}/root.pem {d}/msg.p7s"))
        .ok()
        .text();
    assert!(
        out.contains("CMS signature OK: signed by CN=Signer"),
        "{out}"
    );
    assert!(out.contains("  chain: OK to CN=Root\n"), "{out}");
    assert!(out.contains("    CN=Root (trust anchor)"), "{out}");
    assert!(!out.contains("not checked"), "{out}");
    // A bundle, and --ca repeated, both find the anchor.
    let mut bundle = s.read("other.pem");
    bundle.extend(s.read("root.pem"));
    s.write("bundle.pem", &bundle);
    run(&format!("cms verify --ca {d}/bundle.pem {d}/msg.p7s")).ok();
    run(&format!(
        "cms verify --ca {d}/other.pem --ca {d}/root.pem {d}/msg.p7s"
    ))
    .ok();
    // No path to the given anchor: cannot check (2).
    let out = run(&format!("cms verify --ca {d}/other.pem {d}/msg.p7s")).code(2);
    assert!(
        out.stderr.contains("cannot check: ")
            && out.stderr.contains("chain: no chain to a trust anchor"),
        "{}",
        out.stderr
    );
    // A path that fails its checks (the anchor expired): invalid (1).
    run(&format!("cms verify --ca {d}/old-root.pem {d}/msg.p7s")).invalid(
        "chain: certificate \"CN=Signer\" (issued by \"CN=Root\"): the issuer certificate expired",
    );
    // Unreadable --ca files are errors (2), not a silent "not checked".
    s.write("junk.pem", b"not a certificate\n");
    run(&format!("cms verify --ca {d}/junk.pem {d}/msg.p7s")).usage_error("no certificate found");
    run(&format!("cms verify --ca {d}/missing.pem {d}/msg.p7s")).code(2);
    // A bad signature stays invalid (1) with --ca.
    let mut der = s.read("msg.p7s");
    let n = der.len();
    der[n - 1] ^= 1;
    s.write("bad.p7s", &der);
    run(&format!("cms verify --ca {d}/root.pem {d}/bad.p7s")).invalid("does not verify");
}

#[test]
fn sign_with_chain_then_verify_to_the_root() {
    let s = Scratch::new("cms-chain");
    let d = s.p("");
    for k in ["root", "int", "leaf"] {
        run(&format!("keygen -a shake-128f -o {d}/{k}.key")).ok();
    }
    run(&format!(
        "cert self-signed -k {d}/root.key --subject CN=Root --ca --path-len 1 -o {d}/root.pem"
    ))
    .ok();
    run(&format!(
        "cert request -k {d}/int.key --subject CN=Int --ca -o {d}/int.csr"
    ))
    .ok();
    run(&format!(
        "cert issue --ca-key {d}/root.key --ca-cert {d}/root.pem {d}/int.csr --copy-extensions --ca -o {d}/int.pem"
    ))
    .ok();
    run(&format!(
        "cert request -k {d}/leaf.key --subject CN=Signer -o {d}/leaf.csr"
    ))
    .ok();
    run(&format!(
        "cert issue --ca-key {d}/int.key --ca-cert {d}/int.pem {d}/leaf.csr -o {d}/leaf.pem"
    ))
    .ok();
    let content = s.write("msg.txt", b"release 2.0\n");
    // Without the intermediate in the SignedData there is no path: 2.
    run(&format!(
        "cms sign -k {d}/leaf.key --cert {d}/leaf.pem {content} -o {d}/bare.p7s"
    ))
    .ok();
    run(&format!("cms verify --ca {d}/root.pem {d}/bare.p7s")).code(2);
    // --chain embeds it (a duplicate of the signer's certificate is left out).
    run(&format!(
        "cms sign -k {d}/leaf.key --cert {d}/leaf.pem --chain {d}/int.pem --chain {d}/leaf.pem {content} -o {d}/full.p7s"
    ))
    .ok();
    let out = run(&format!("cms verify --ca {d}/root.pem {d}/full.p7s"))
        .ok()
        .text();
    assert!(out.contains("  chain: OK to CN=Root\n"), "{out}");
    assert!(
        out.contains("    CN=Signer\n    CN=Int\n    CN=Root (trust anchor)"),
        "{out}"
    );
    // A --chain file that holds no certificate is an error before signing.
    s.write("junk.pem", b"junk");
    run(&format!(
        "cms sign -k {d}/leaf.key --cert {d}/leaf.pem --chain {d}/junk.pem {content} -o {d}/x.p7s"
    ))
    .usage_error("no certificate found");
    assert!(!s.path("x.p7s").exists());
}
