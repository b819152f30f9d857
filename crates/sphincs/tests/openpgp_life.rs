//! A key's life after its first day (issue 49): expiry, revocation (hard
//! and soft, made at once or kept apart), signing subkeys added and
//! retired, revoked User IDs, keyrings of concatenated armored
//! certificates, and the defects found there: a subkey that outlived its
//! primary, back-dated signatures by an expired key, verification work
//! that multiplied signatures by certifications, back-signatures in the
//! unhashed area, duplicate creation times, and keys that cannot sign
//! reported as a verification failure.

use sphincs::openpgp::{
    self, armor, Cert, DetachedSigner, DetachedVerifier, ErrorKind, Keyring, Mode, Outcome, Reason,
    Signature, UnlockedKey, Window,
};

const T0: u32 = 1_800_000_000;
const DAY: u32 = 86_400;

fn new_key(uids: &[&str]) -> Cert {
    let uids: Vec<String> = uids.iter().map(|u| u.to_string()).collect();
    openpgp::generate("SLH-DSA-SHAKE-128f".parse().unwrap(), &uids, T0, None).unwrap()
}

fn primary(c: &Cert) -> sphincs::any::AnySigningKey {
    openpgp::unlock_primary(c, &[]).unwrap()
}

/// A public certificate as a verifier receives it (written and read back).
fn public(c: &Cert) -> Cert {
    Cert::parse_all(&c.to_bytes(false)).unwrap().remove(0)
}

fn sign_at(c: &Cert, data: &[u8], created: u32, now: u64) -> Vec<Signature> {
    let key = openpgp::unlock_signing_key(c, &[], now).unwrap();
    let mut s = DetachedSigner::new(vec![key], Mode::Binary, created).unwrap();
    s.update(data);
    s.finish(1).unwrap()
}

/// A signature over `data` dated `created` by a chosen key of `c` (the
/// primary, or the `sub`th subkey), whatever its state: a signer that
/// back-dates, or one that ignores its key's expiry.
fn sign_by(c: &Cert, sub: Option<usize>, data: &[u8], created: u32) -> Vec<Signature> {
    let part = match sub {
        None => &c.primary,
        Some(i) => &c.subkeys[i].key,
    };
    let tag = match sub {
        None => openpgp::packet::tag::SECRET_KEY,
        Some(_) => openpgp::packet::tag::SECRET_SUBKEY,
    };
    let key = part.secret.as_ref().unwrap().signing_key(tag, &[]).unwrap();
    let mut s = DetachedSigner::new(
        vec![UnlockedKey {
            public: part.public.clone(),
            key: Box::new(key),
        }],
        Mode::Binary,
        created,
    )
    .unwrap();
    s.update(data);
    s.finish(1).unwrap()
}

fn window(now: u64, keys_valid_now: bool) -> Window {
    Window {
        not_before: None,
        not_after: Some(now + 300),
        now,
        keys_valid_now,
    }
}

fn outcome(certs: &[Cert], sigs: Vec<Signature>, data: &[u8], w: &Window) -> Outcome {
    let mut v = DetachedVerifier::new(sigs);
    v.update(data);
    v.finish_each(&Keyring::new(certs, w.now), w).remove(0).1
}

fn is_good(o: &Outcome) -> bool {
    matches!(o, Outcome::Good(_))
}

#[test]
fn expiry_set_later_is_honoured_and_judged_now_where_trust_is_granted() {
    let key = new_key(&["Alice <alice@example.org>"]);
    let expires = u64::from(T0 + 10 * DAY);
    let key = key
        .with_expiry(&primary(&key), Some(expires), T0 + DAY)
        .unwrap();
    let cert = public(&key);
    assert_eq!(
        cert.primary_info(u64::from(T0 + 2 * DAY)).unwrap().expires,
        Some(expires)
    );
    // Signed on day 5, checked on day 5: good either way.
    let sigs = sign_at(&key, b"data", T0 + 5 * DAY, u64::from(T0 + 5 * DAY));
    let day5 = u64::from(T0 + 5 * DAY);
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        sigs.clone(),
        b"data",
        &window(day5, true)
    )));
    // Checked on day 20: RFC 9580 (SOP) keeps it good; a verdict that
    // grants trust now reports the key expired.
    let day20 = u64::from(T0 + 20 * DAY);
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        sigs.clone(),
        b"data",
        &window(day20, false)
    )));
    assert!(matches!(
        outcome(
            std::slice::from_ref(&cert),
            sigs,
            b"data",
            &window(day20, true)
        ),
        Outcome::KeyExpired(_)
    ));
    // The defect: an expired key back-dates a signature to day 5 on day 20.
    let backdated = sign_by(&key, None, b"new data", T0 + 5 * DAY);
    assert!(matches!(
        outcome(
            std::slice::from_ref(&cert),
            backdated,
            b"new data",
            &window(day20, true)
        ),
        Outcome::KeyExpired(_)
    ));
    // An expired key cannot sign (KEY_CANNOT_SIGN, not a verification code).
    let e = openpgp::unlock_signing_key(&key, &[], day20).unwrap_err();
    assert_eq!(e.kind, ErrorKind::KeyCannotSign);
    // Extended again: valid on day 20.
    let key = key
        .with_expiry(&primary(&key), None, T0 + 15 * DAY)
        .unwrap();
    assert_eq!(public(&key).primary_info(day20).unwrap().expires, None);
    assert!(openpgp::unlock_signing_key(&key, &[], day20).is_ok());
}

#[test]
fn a_subkey_lives_no_longer_than_its_primary() {
    let key = new_key(&["Alice <alice@example.org>"]);
    let p = primary(&key);
    let key = key
        .with_expiry(&p, Some(u64::from(T0 + 10 * DAY)), T0 + 1)
        .unwrap();
    // The subkey's own binding says it lives a year.
    let (key, sub) = key
        .with_signing_subkey(
            &p,
            "SLH-DSA-SHAKE-128f".parse().unwrap(),
            Some(u64::from(T0 + 365 * DAY)),
            None,
            T0 + 2,
        )
        .unwrap();
    let cert = public(&key);
    let day20 = u64::from(T0 + 20 * DAY);
    let infos = cert.signing_keys(day20).unwrap();
    let info = infos.iter().find(|i| i.key.fingerprint() == sub).unwrap();
    assert_eq!(
        info.expires,
        Some(u64::from(T0 + 10 * DAY)),
        "capped by the primary's"
    );
    // Signed on day 3 by the subkey (the newest signing key is used).
    let day3 = u64::from(T0 + 3 * DAY);
    let sigs = sign_at(&key, b"x", T0 + 3 * DAY, day3);
    assert_eq!(sigs[0].issuer_fingerprint(), Some(sub));
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        sigs.clone(),
        b"x",
        &window(day3, true)
    )));
    // Day 20: a signature dated day 20 is refused, at signing time too.
    let late = sign_by(&key, Some(0), b"x", T0 + 20 * DAY);
    assert!(matches!(
        outcome(
            std::slice::from_ref(&cert),
            late,
            b"x",
            &window(day20, false)
        ),
        Outcome::KeyExpired(_)
    ));
    assert_eq!(
        openpgp::unlock_signing_key(&key, &[], day20)
            .unwrap_err()
            .kind,
        ErrorKind::KeyCannotSign
    );
}

#[test]
fn revocations_hard_and_soft_and_kept_apart() {
    let key = new_key(&["Alice <alice@example.org>"]);
    let p = primary(&key);
    let day1 = u64::from(T0 + DAY);
    let day3 = u64::from(T0 + 3 * DAY);
    let sigs = sign_at(&key, b"r", T0 + DAY, day1);
    // A revocation certificate made on day 0 and kept apart (armored).
    let rev = key
        .revocation(&p, Reason::Compromised, "lost laptop", T0)
        .unwrap();
    let rev_text = armor::encode(
        armor::Kind::Signature,
        &openpgp::signatures_to_bytes(&[rev]),
    );
    let cert = public(&key);
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        sigs.clone(),
        b"r",
        &window(day3, false)
    )));
    // Published on day 3: merged into the certificate, nothing is good.
    let rev = openpgp::read_signatures(rev_text.as_bytes())
        .unwrap()
        .remove(0);
    assert_eq!(openpgp::revocation_reason(&rev), Reason::Compromised);
    let revoked = public(&cert.with_revocation(rev, day3).unwrap());
    assert!(revoked.primary_info(day3).unwrap().revoked);
    for judged_now in [false, true] {
        assert!(matches!(
            outcome(
                std::slice::from_ref(&revoked),
                sigs.clone(),
                b"r",
                &window(day3, judged_now)
            ),
            Outcome::KeyRevoked(_)
        ));
    }
    // Someone else's revocation is not merged.
    let other = new_key(&["Mallory"]);
    let forged = other
        .revocation(&primary(&other), Reason::Compromised, "", T0)
        .unwrap();
    assert!(cert.with_revocation(forged, day3).is_err());
    // A soft revocation (superseded) on day 2: the day-1 signature stays
    // good under RFC 9580's reading, not where trust is granted now.
    let soft = key
        .revocation(&p, Reason::Superseded, "new key", T0 + 2 * DAY)
        .unwrap();
    let superseded = public(&cert.with_revocation(soft, day3).unwrap());
    let info = superseded.primary_info(day3).unwrap();
    assert_eq!(
        (info.revoked, info.retired),
        (false, Some(u64::from(T0 + 2 * DAY)))
    );
    assert!(is_good(&outcome(
        std::slice::from_ref(&superseded),
        sigs.clone(),
        b"r",
        &window(day3, false)
    )));
    assert!(matches!(
        outcome(
            std::slice::from_ref(&superseded),
            sigs,
            b"r",
            &window(day3, true)
        ),
        Outcome::KeyRevoked(_)
    ));
}

#[test]
fn subkeys_rotate_and_a_retired_subkeys_old_signatures_stay_good_under_sop() {
    let key = new_key(&["Release <release@example.org>"]);
    let p = primary(&key);
    let alg = "SLH-DSA-SHAKE-128f".parse().unwrap();
    let (key, first) = key
        .with_signing_subkey(&p, alg, None, None, T0 + 1)
        .unwrap();
    let day2 = u64::from(T0 + 2 * DAY);
    let old = sign_at(&key, b"v1", T0 + 2 * DAY, day2);
    assert_eq!(old[0].issuer_fingerprint(), Some(first));
    // Rotation: a second subkey, the first retired on day 5.
    let (key, second) = key
        .with_signing_subkey(&p, alg, None, None, T0 + 4 * DAY)
        .unwrap();
    let key = key
        .with_subkey_revoked(&p, &first, Reason::Retired, "rotated", T0 + 5 * DAY)
        .unwrap();
    let day6 = u64::from(T0 + 6 * DAY);
    let new = sign_at(&key, b"v2", T0 + 6 * DAY, day6);
    assert_eq!(
        new[0].issuer_fingerprint(),
        Some(second),
        "the newest usable subkey signs"
    );
    // The primary kept offline: the day-to-day key has no primary secret,
    // and still signs with its subkey.
    let daily = Cert::parse_all(&key.without_primary_secret().to_bytes(true))
        .unwrap()
        .remove(0);
    assert!(daily.primary.secret.is_none() && daily.is_secret());
    let from_daily = sign_at(&daily, b"v3", T0 + 6 * DAY, day6);
    assert_eq!(from_daily[0].issuer_fingerprint(), Some(second));
    assert_eq!(
        openpgp::unlock_primary(&daily, &[]).unwrap_err().kind,
        ErrorKind::KeyCannotSign
    );
    let cert = public(&key);
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        new,
        b"v2",
        &window(day6, true)
    )));
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        from_daily,
        b"v3",
        &window(day6, true)
    )));
    assert!(is_good(&outcome(
        std::slice::from_ref(&cert),
        old.clone(),
        b"v1",
        &window(day6, false)
    )));
    assert!(matches!(
        outcome(std::slice::from_ref(&cert), old, b"v1", &window(day6, true)),
        Outcome::KeyRevoked(_)
    ));
    // A compromised subkey: nothing it signed is good.
    let key = key
        .with_subkey_revoked(&p, &second, Reason::Compromised, "", T0 + 7 * DAY)
        .unwrap();
    let day8 = u64::from(T0 + 8 * DAY);
    let cert = public(&key);
    let v2 = sign_by(&key, Some(1), b"v2", T0 + 6 * DAY);
    assert!(matches!(
        outcome(&[cert], v2, b"v2", &window(day8, false)),
        Outcome::KeyRevoked(_)
    ));
    // Only the primary key remains to sign.
    let (s, tag) = key.signing_secret(day8).unwrap();
    assert_eq!(
        (s.public.clone(), tag),
        (key.primary.public.clone(), openpgp::packet::tag::SECRET_KEY)
    );
}

#[test]
fn a_revoked_user_id_no_longer_names_the_signer() {
    let key = new_key(&["Old Name <old@example.org>", "New Name <new@example.org>"]);
    let day1 = u64::from(T0 + DAY);
    assert_eq!(
        public(&key).primary_user_id(day1).unwrap(),
        "Old Name <old@example.org>"
    );
    let key = key
        .with_user_id_revoked(
            &primary(&key),
            b"Old Name <old@example.org>",
            "left",
            T0 + DAY,
        )
        .unwrap();
    let cert = public(&key);
    let day2 = u64::from(T0 + 2 * DAY);
    assert_eq!(
        cert.valid_user_ids(day2),
        vec!["New Name <new@example.org>".to_string()]
    );
    let sigs = sign_at(&key, b"u", T0 + 2 * DAY, day2);
    match outcome(&[cert], sigs, b"u", &window(day2, true)) {
        Outcome::Good(v) => assert_eq!(v.user_id.as_deref(), Some("New Name <new@example.org>")),
        o => panic!("{o:?}"),
    }
}

#[test]
fn keyrings_of_concatenated_armored_certificates_are_read_whole() {
    let a = new_key(&["A"]);
    let b = new_key(&["B"]);
    let arm = |c: &Cert| armor::encode(armor::Kind::PublicKey, &c.to_bytes(false));
    // `cat a.asc b.asc > KEYS`, with text between as Apache KEYS files have.
    let keys = format!(
        "{}\npub   slh-dsa 2026-11-28 [SC]\n      B's key\n\n{}",
        arm(&a),
        arm(&b)
    );
    let certs = openpgp::read_certs(keys.as_bytes()).unwrap();
    let fprs: Vec<_> = certs.iter().map(Cert::fingerprint).collect();
    assert_eq!(fprs, vec![a.fingerprint(), b.fingerprint()]);
    let now = u64::from(T0 + 1);
    let sigs = sign_at(&b, b"k", T0 + 1, now);
    assert!(is_good(&outcome(&certs, sigs, b"k", &window(now, true))));
    // CRLF line endings read the same.
    let crlf = keys.replace('\n', "\r\n");
    assert_eq!(openpgp::read_certs(crlf.as_bytes()).unwrap().len(), 2);
    // A signature block after the keys is not silently taken for keys.
    let sig = armor::encode(armor::Kind::Signature, &[0xc2, 0]);
    let mixed = format!("{}{sig}", arm(&a));
    assert!(openpgp::read_certs(mixed.as_bytes()).is_err());
    // A damaged second block fails the whole input.
    let broken = format!("{}-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nA!\n", arm(&a));
    assert!(openpgp::read_certs(broken.as_bytes()).is_err());
}

#[test]
fn a_back_signature_in_the_unhashed_area_binds_and_duplicate_creation_times_are_refused() {
    let key = new_key(&["A"]);
    let p = primary(&key);
    let alg = "SLH-DSA-SHAKE-128f".parse().unwrap();
    let (key, sub) = key
        .with_signing_subkey(&p, alg, None, None, T0 + 1)
        .unwrap();
    let now = u64::from(T0 + 2);
    assert!(key
        .signing_keys(now)
        .unwrap()
        .iter()
        .any(|k| k.key.fingerprint() == sub && k.can_sign));
    // Re-made with the back-signature moved to the unhashed area (as some
    // implementations write it): the binding is re-signed, the back-
    // signature unchanged.
    let binding = &key.subkeys[0].signatures[0];
    let back = binding
        .hashed
        .iter()
        .find(|s| s.kind == openpgp::subpacket_kind::EMBEDDED_SIGNATURE)
        .unwrap()
        .clone();
    let extra: Vec<_> = binding
        .hashed
        .iter()
        .filter(|s| {
            ![
                openpgp::subpacket_kind::EMBEDDED_SIGNATURE,
                openpgp::subpacket_kind::CREATION_TIME,
                openpgp::subpacket_kind::ISSUER_FINGERPRINT,
            ]
            .contains(&s.kind)
        })
        .cloned()
        .collect();
    let mut s = openpgp::Signing::start(
        openpgp::sig_type::SUBKEY_BINDING,
        &key.primary.public,
        T0 + 1,
        extra,
    )
    .unwrap();
    s.update(&key.primary.public.hashed_form());
    s.update(&key.subkeys[0].key.public.hashed_form());
    let mut rebound = s.finish(&p, 1).unwrap();
    rebound.unhashed.push(back);
    let mut moved = key.clone();
    moved.subkeys[0].signatures = vec![rebound.clone()];
    let moved = public(&moved);
    assert!(moved
        .signing_keys(now)
        .unwrap()
        .iter()
        .any(|k| k.key.fingerprint() == sub && k.can_sign));
    // Without any back-signature the subkey may not sign.
    rebound.unhashed.clear();
    let mut none = key.clone();
    none.subkeys[0].signatures = vec![rebound];
    assert!(public(&none)
        .signing_keys(now)
        .unwrap()
        .iter()
        .any(|k| k.key.fingerprint() == sub && !k.can_sign));

    // Two hashed creation times: refused when read.
    let sigs = sign_at(&key, b"d", T0 + 2, now);
    let mut body = sigs[0].body();
    // The hashed area starts at octet 8 (v6: version, type, algorithms,
    // four-octet length); append a second creation time subpacket to it.
    let len = u32::from_be_bytes(body[4..8].try_into().unwrap()) as usize;
    let extra = [5u8, 2, 0x6b, 0, 0, 0];
    body.splice(8 + len..8 + len, extra);
    body[4..8].copy_from_slice(&((len + extra.len()) as u32).to_be_bytes());
    let e = Signature::parse(&body).unwrap_err();
    assert!(e.message.contains("creation time twice"), "{e}");
}

#[test]
fn a_key_without_a_valid_self_signature_cannot_sign() {
    let mut key = new_key(&["A"]);
    key.signatures.clear();
    key.user_ids[0].signatures[0].material[10] ^= 1;
    let e = openpgp::unlock_signing_key(&key, &[], u64::from(T0 + 1)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::KeyCannotSign, "{e}");
}

/// Verification work is linear in the input: 10× the signatures and 10×
/// the certifications cost about 10× the time, never 100×. (A ratio with
/// generous bounds, fastest of three, so the machine's drift cancels.)
#[test]
fn verification_cost_is_linear_in_signatures_plus_certifications() {
    let key = new_key(&["Alice <alice@example.org>"]);
    let now = u64::from(T0 + 1);
    let sig = sign_at(&key, b"m", T0 + 1, now).remove(0);
    let cert_with = |n: usize| {
        let mut c = public(&key);
        let cert_sig = c.user_ids[0].signatures[0].clone();
        c.user_ids[0].signatures = vec![cert_sig; n];
        // As many certifications that do not verify.
        let mut bad = c.user_ids[0].signatures[0].clone();
        bad.material[20] ^= 1;
        c.user_ids[0].signatures.extend(std::iter::repeat_n(bad, n));
        c.signatures.clear(); // the User ID certifications bind the key
        c
    };
    let run = |n: usize| {
        let cert = cert_with(n);
        let sigs = vec![sig.clone(); n];
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                let mut v = DetachedVerifier::new(sigs.clone());
                v.update(b"m");
                let (good, _) = v.finish(
                    &Keyring::new(std::slice::from_ref(&cert), now),
                    &window(now, true),
                );
                assert_eq!(good.len(), n);
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let small = run(4);
    let large = run(40);
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    // Linear: about 10×; the old signatures × certifications: about 100×.
    assert!(
        ratio < 35.0,
        "10× the input cost {ratio:.1}× the time ({small:?} → {large:?})"
    );
}

/// The key-life fixtures that tests/interop/openpgp.sh gives every peer
/// (crates/sphincs/tests/data/openpgp-life/): certificates and signatures
/// over "life\n" dated in the past, so that expiry and revocation can be
/// judged by programs that sign only at their own clock. Each case is
/// `NAME.cert` and `NAME.sig`, and its verdict (what RFC 9580's reading
/// and a judge at this machine's clock both say) is in its name's prefix:
/// `good-` or `bad-`. Remade by `cargo test --test openpgp_life --
/// --ignored remake_interop_fixtures`; checked here against ours.
const LIFE_DATA: &[u8] = b"life\n";
const F0: u32 = 1_735_689_600; // 2025-01-01

fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openpgp-life")
}

fn life_fixtures() -> Vec<(&'static str, Cert, Vec<Signature>)> {
    let alg = "SLH-DSA-SHAKE-128f".parse().unwrap();
    let sign_with =
        |c: &Cert, sub: Option<usize>, created: u32| sign_by(c, sub, LIFE_DATA, created);
    let key = |uids: &[&str]| {
        let uids: Vec<String> = uids.iter().map(|u| u.to_string()).collect();
        openpgp::generate(alg, &uids, F0, None).unwrap()
    };
    let mut out = Vec::new();
    // A signing subkey, no expiry: every peer accepts (the binding and its
    // back-signature as we write them).
    let k = key(&["Life Good <good@example.org>"]);
    let (k, _) = k
        .with_signing_subkey(
            &openpgp::unlock_primary(&k, &[]).unwrap(),
            alg,
            None,
            None,
            F0 + 60,
        )
        .unwrap();
    out.push(("good-subkey", public(&k), sign_with(&k, Some(0), F0 + 120)));
    // The primary expired on day 30; a signature dated day 40.
    let k = key(&["Life Expired <expired@example.org>"]);
    let k = k
        .with_expiry(
            &openpgp::unlock_primary(&k, &[]).unwrap(),
            Some(u64::from(F0 + 30 * DAY)),
            F0 + 60,
        )
        .unwrap();
    out.push((
        "bad-expired-primary",
        public(&k),
        sign_with(&k, None, F0 + 40 * DAY),
    ));
    // The primary expired on day 30; its subkey's binding says day 400; a
    // signature by the subkey dated day 40.
    let k = key(&["Life Subkey <subkey@example.org>"]);
    let p = openpgp::unlock_primary(&k, &[]).unwrap();
    let k = k
        .with_expiry(&p, Some(u64::from(F0 + 30 * DAY)), F0 + 60)
        .unwrap();
    let (k, _) = k
        .with_signing_subkey(&p, alg, Some(u64::from(F0 + 400 * DAY)), None, F0 + 120)
        .unwrap();
    out.push((
        "bad-subkey-of-expired-primary",
        public(&k),
        sign_with(&k, Some(0), F0 + 40 * DAY),
    ));
    // Hard-revoked (compromised) on day 20; a signature dated day 10.
    let k = key(&["Life Revoked <revoked@example.org>"]);
    let p = openpgp::unlock_primary(&k, &[]).unwrap();
    let rev = k
        .revocation(&p, Reason::Compromised, "", F0 + 20 * DAY)
        .unwrap();
    let k2 = k.with_revocation(rev, u64::from(F0 + 20 * DAY)).unwrap();
    out.push((
        "bad-revoked-key",
        public(&k2),
        sign_with(&k, None, F0 + 10 * DAY),
    ));
    // A subkey hard-revoked on day 20; its signature dated day 10.
    let k = key(&["Life Subkey Revoked <subrev@example.org>"]);
    let p = openpgp::unlock_primary(&k, &[]).unwrap();
    let (k, sub) = k.with_signing_subkey(&p, alg, None, None, F0 + 60).unwrap();
    let sig = sign_with(&k, Some(0), F0 + 10 * DAY);
    let k = k
        .with_subkey_revoked(&p, &sub, Reason::Compromised, "", F0 + 20 * DAY)
        .unwrap();
    out.push(("bad-revoked-subkey", public(&k), sig));
    // A revoked User ID: the key still signs (the verdict is good); ours
    // no longer names the holder by it.
    let k = key(&[
        "Life Old Name <old@example.org>",
        "Life New Name <new@example.org>",
    ]);
    let k = k
        .with_user_id_revoked(
            &openpgp::unlock_primary(&k, &[]).unwrap(),
            b"Life Old Name <old@example.org>",
            "",
            F0 + 60,
        )
        .unwrap();
    out.push((
        "good-revoked-user-id",
        public(&k),
        sign_with(&k, None, F0 + 120),
    ));
    out
}

#[test]
#[ignore = "remakes the interop fixtures (random keys): run by hand"]
fn remake_interop_fixtures() {
    let dir = fixture_dir();
    std::fs::create_dir_all(&dir).unwrap();
    for (name, cert, sigs) in life_fixtures() {
        let c = armor::encode(armor::Kind::PublicKey, &cert.to_bytes(false));
        let s = armor::encode(armor::Kind::Signature, &openpgp::signatures_to_bytes(&sigs));
        std::fs::write(dir.join(format!("{name}.cert")), c).unwrap();
        std::fs::write(dir.join(format!("{name}.sig")), s).unwrap();
    }
}

#[test]
fn our_verdicts_on_the_interop_fixtures() {
    let dir = fixture_dir();
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".cert"))
        else {
            continue;
        };
        let certs = openpgp::read_certs(&std::fs::read(&path).unwrap()).unwrap();
        let sigs =
            openpgp::read_signatures(&std::fs::read(dir.join(format!("{name}.sig"))).unwrap())
                .unwrap();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        for judged_now in [false, true] {
            let o = outcome(&certs, sigs.clone(), LIFE_DATA, &window(now, judged_now));
            assert_eq!(
                is_good(&o),
                name.starts_with("good-"),
                "{name} ({judged_now}): {o:?}"
            );
            if let Outcome::Good(v) = &o {
                assert!(
                    !v.user_id.as_deref().unwrap_or("").contains("Old Name"),
                    "{name}: {v:?}"
                );
            }
        }
        seen += 1;
    }
    assert_eq!(seen, 6, "the six fixtures");
}
