//! `sphincs cms sign|verify` end to end: attached and detached, PEM and DER,
//! streamed content, exit codes and bad input.

mod common;
use common::{assert_has_all, assert_pem, key_and_cert, run, sphincs, Scratch};

#[test]
fn sign_and_verify() {
    let s = Scratch::new("cms");
    let (k, c) = (s.p("k.pem"), s.p("c.pem"));
    key_and_cert("shake-128f", &k, &c, &["--subject", "CN=CMS signer"]);
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
    let out = sphincs(&["cms", "verify", "--cert", &c, &att]).ok().text();
    assert!(
        out.contains("CMS signature OK: signed by CN=CMS signer (SHAKE-128, attached"),
        "{out}"
    );
    run(&format!(
        "cms sign -k {k} --cert {c} --detached --pem {msg} -o {det}"
    ))
    .ok();
    assert_pem(&s.read("det.pem"), "CMS");
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
    let out = sphincs(&["cms", "verify", "--signature-only", &sha3])
        .ok()
        .text();
    assert!(out.contains("SHA3-256"), "{out}");
    let x = s.p("x");
    sphincs(&[
        "cms", "sign", "-k", &k, "--cert", &c, "--digest", "sha2-224", &msg, "-o", &x,
    ])
    .usage_error("too weak");

    // Detached without content; wrong content: digest mismatch, exit 1.
    sphincs(&["cms", "verify", "--cert", &c, &det]).usage_error("give the content file");
    let other = s.write("other", b"other content");
    sphincs(&["cms", "verify", "--cert", &c, "--content", &other, &det]).invalid("message digest");
    // A tampered signature: exit 1.
    let mut bad = der.clone();
    *bad.last_mut().unwrap() ^= 1;
    let bad = s.write("bad.der", &bad);
    sphincs(&["cms", "verify", "--signature-only", &bad]).invalid("does not verify");
    // Truncated, garbage, a certificate instead of CMS: exit 2.
    let cut = s.write("cut.der", &der[..der.len() / 3]);
    sphincs(&["cms", "verify", "--signature-only", &cut])
        .usage_error("not a valid CMS ContentInfo");
    sphincs(&["cms", "verify", "--signature-only", &other]).usage_error("neither PEM");
    sphincs(&["cms", "verify", "--signature-only", &c]).usage_error("\"CERTIFICATE\"");
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

    // Trust is never implied: neither --ca nor --cert checks nothing.
    run(&format!("cms verify {d}/msg.p7s")).usage_error("no trust in the signer");
    let out = run(&format!("cms verify --ca {d}/root.pem {d}/msg.p7s"))
        .ok()
        .text();
    assert_has_all(
        &out,
        &[
            "CMS signature OK: signed by CN=Signer",
            "  chain: OK to CN=Root\n",
            "    CN=Root (trust anchor)",
        ],
    );
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
    assert_has_all(
        &out,
        &[
            "  chain: OK to CN=Root\n",
            "    CN=Signer\n    CN=Int\n    CN=Root (trust anchor)",
        ],
    );
    // A --chain file that holds no certificate is an error before signing.
    s.write("junk.pem", b"junk");
    run(&format!(
        "cms sign -k {d}/leaf.key --cert {d}/leaf.pem --chain {d}/junk.pem {content} -o {d}/x.p7s"
    ))
    .usage_error("no certificate found");
    assert!(!s.path("x.p7s").exists());
}

use cms::content_info::ContentInfo;
use cms::signed_data::SignedData;
use der::asn1::{ObjectIdentifier, OctetString};
use der::{Any, Decode, Encode};

/// A key and a self-signed certificate for it.
fn signer(s: &Scratch, name: &str) -> (String, String) {
    let (k, c) = (s.p(&format!("{name}.key")), s.p(&format!("{name}.pem")));
    key_and_cert("shake-128f", &k, &c, &["--subject", &format!("CN={name}")]);
    (k, c)
}

/// A signer named `name` (see [`signer`]) and `content` in `msg`, signed
/// attached into `msg.p7s`: the key, certificate, message and SignedData
/// paths.
fn signed_message(s: &Scratch, name: &str, content: &[u8]) -> [String; 4] {
    let (k, c) = signer(s, name);
    let (msg, sd) = (s.write("msg", content), s.p("msg.p7s"));
    sphincs(&["cms", "sign", "-k", &k, "--cert", &c, &msg, "-o", &sd]).ok();
    [k, c, msg, sd]
}

fn read_sd(der: &[u8]) -> SignedData {
    let ci = ContentInfo::from_der(der).unwrap();
    ci.content.decode_as::<SignedData>().unwrap()
}

/// With `SPHINCS_SEED_DIR` set, a crafted input is also copied there (the
/// fuzz targets' seed corpus is made this way: `fuzz/corpus/cms`).
fn keep_seed(path: &str, name: &str) {
    if let Some(dir) = std::env::var_os("SPHINCS_SEED_DIR") {
        std::fs::copy(path, std::path::Path::new(&dir).join(name)).unwrap();
    }
}

fn write_sd(s: &Scratch, name: &str, sd: &SignedData) -> String {
    let ci = ContentInfo {
        content_type: ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2"),
        content: Any::encode_from(sd).unwrap(),
    };
    s.write(name, &ci.to_der().unwrap())
}

/// A raw SLH-DSA signature (pure, empty context) of `data` by `key`.
fn raw_signature(s: &Scratch, key: &str, data: &[u8]) -> Vec<u8> {
    let m = s.write("raw.msg", data);
    let sig = s.p("raw.sig");
    run(&format!("sign -k {key} -o {sig} --force {m}")).ok();
    s.read("raw.sig")
}

#[test]
fn trust_is_never_implied() {
    let s = Scratch::new("cms-trust");
    let [_, c, _, sd] = signed_message(&s, "Anyone", b"who signed this?\n");
    // Any self-signed signer verified: nothing established; exit 2 and no
    // "OK" on standard output.
    let out = sphincs(&["cms", "verify", &sd]).usage_error("cannot check: ");
    assert!(out.stderr.contains("--signature-only"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    // Asked for by name: the signature alone, said so.
    let out = sphincs(&["cms", "verify", "--signature-only", &sd])
        .ok()
        .text();
    assert_has_all(
        &out,
        &[
            "CMS signature OK",
            "no trust in the signer was checked (--signature-only)",
        ],
    );
    // Pinned, or chained to an anchor (itself): trust established.
    let out = sphincs(&["cms", "verify", "--cert", &c, &sd]).ok().text();
    assert!(out.contains("signer trusted as given (--cert)"), "{out}");
    sphincs(&["cms", "verify", "--ca", &c, &sd]).ok();
    // --signature-only does not combine with a trust option.
    sphincs(&["cms", "verify", "--signature-only", "--cert", &c, &sd]).code(2);
}

#[test]
fn every_signer_has_a_line_on_stdout() {
    let s = Scratch::new("cms-signers");
    let (k1, c1) = signer(&s, "First");
    let (k2, c2) = signer(&s, "Second");
    let msg = s.write("msg", b"signed twice\n");
    let (a, b) = (s.p("a.der"), s.p("b.der"));
    sphincs(&["cms", "sign", "-k", &k1, "--cert", &c1, &msg, "-o", &a]).ok();
    sphincs(&["cms", "sign", "-k", &k2, "--cert", &c2, &msg, "-o", &b]).ok();
    let mut sd = read_sd(&s.read("a.der"));
    let second = read_sd(&s.read("b.der"));
    let mut info = second.signer_infos.0.get(0).unwrap().clone();
    let mut sig = info.signature.as_bytes().to_vec();
    sig[100] ^= 1;
    info.signature = OctetString::new(sig).unwrap();
    sd.signer_infos.0.insert(info).unwrap();
    let cert = second
        .certificates
        .as_ref()
        .unwrap()
        .0
        .get(0)
        .unwrap()
        .clone();
    sd.certificates.as_mut().unwrap().0.insert(cert).unwrap();
    let both = write_sd(&s, "both.der", &sd);
    keep_seed(&both, "seed-two-signers-one-bad-der");
    let out = sphincs(&["cms", "verify", "--signature-only", &both]).code(1);
    let text = out.text();
    assert!(
        text.contains("CMS signature OK: signed by CN=First"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("SignerInfo ")
            && l.contains(": invalid: the signature does not verify")),
        "{text}"
    );
    assert!(out.stderr.contains("invalid: "), "{}", out.stderr);
    // -q: status lines silenced, all of them.
    let out = sphincs(&["-q", "cms", "verify", "--signature-only", &both]).code(1);
    assert!(out.stdout.is_empty(), "{}", out.text());
}

/// RFC 5652 §5.3: without signed attributes, only id-data. A raw signature
/// over some bytes re-wrapped as a signed TSTInfo is refused, with --ca too.
#[test]
fn no_signed_attributes_only_for_id_data() {
    let s = Scratch::new("cms-noattrs");
    let content = b"any bytes the key once signed".to_vec();
    let [k, c, _, _] = signed_message(&s, "Signer", &content);
    let raw = raw_signature(&s, &k, &content);
    let rewrap = |econtent_type: &str, name: &str| {
        let mut sd = read_sd(&s.read("msg.p7s"));
        let mut info = sd.signer_infos.0.get(0).unwrap().clone();
        info.signed_attrs = None;
        info.signature = OctetString::new(raw.clone()).unwrap();
        sd.signer_infos.0 = Default::default();
        sd.signer_infos.0.insert(info).unwrap();
        sd.encap_content_info.econtent_type = ObjectIdentifier::new_unwrap(econtent_type);
        write_sd(&s, name, &sd)
    };
    // id-data without attributes: allowed (RFC 5652 §5.3).
    let data = rewrap("1.2.840.113549.1.7.1", "data.der");
    sphincs(&["cms", "verify", "--cert", &c, &data]).ok();
    // id-ct-TSTInfo without attributes: refused.
    let tst = rewrap("1.2.840.113549.1.9.16.1.4", "tst.der");
    keep_seed(&tst, "seed-tstinfo-without-signed-attributes-der");
    sphincs(&["cms", "verify", "--cert", &c, &tst]).invalid("no signed attributes");
    sphincs(&["cms", "verify", "--ca", &c, &tst]).invalid("no signed attributes");
}

/// Signed attributes out of DER order are refused (what is signed must be
/// what is read), as is a digest the digestAlgorithms do not list.
#[test]
fn signed_attributes_in_der_order_and_digests_listed() {
    let s = Scratch::new("cms-attrorder");
    let [k, c, _, _] = signed_message(&s, "Signer", b"content\n");
    let der = s.read("msg.p7s");
    let sd = read_sd(&der);
    let info = sd.signer_infos.0.get(0).unwrap();
    let attrs = info.signed_attrs.as_ref().unwrap();
    let mut sorted = attrs.to_der().unwrap();
    let old_sig = info.signature.as_bytes().to_vec();
    // The same attributes, last first: same length, other order.
    let mut body: Vec<u8> = Vec::new();
    for a in attrs.iter().collect::<Vec<_>>().into_iter().rev() {
        body.extend(a.to_der().unwrap());
    }
    let header_len = sorted.len() - body.len();
    let mut reordered = sorted[..header_len].to_vec();
    reordered.extend(&body);
    assert_ne!(reordered, sorted);
    let new_sig = raw_signature(&s, &k, &reordered);
    sorted[0] = 0xa0;
    reordered[0] = 0xa0;
    let replace = |hay: &mut Vec<u8>, from: &[u8], to: &[u8]| {
        let at = hay.windows(from.len()).position(|w| w == from).unwrap();
        hay[at..at + from.len()].copy_from_slice(to);
    };
    let mut bad = der.clone();
    replace(&mut bad, &sorted, &reordered);
    replace(&mut bad, &old_sig, &new_sig);
    let bad = s.write("unsorted.der", &bad);
    keep_seed(&bad, "seed-signed-attributes-out-of-order-der");
    sphincs(&["cms", "verify", "--cert", &c, &bad]).usage_error("canonical DER");

    // digestAlgorithms naming SHA3-256 while the SignerInfo uses SHAKE-128
    // (same OID length; the first occurrence is the digestAlgorithms one).
    let shake128 = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0b,
    ];
    let mut unlisted = der.clone();
    let at = unlisted.windows(11).position(|w| w == shake128).unwrap();
    unlisted[at + 10] = 0x08;
    let unlisted = s.write("unlisted.der", &unlisted);
    sphincs(&["cms", "verify", "--cert", &c, &unlisted]).usage_error("digestAlgorithms");
}
