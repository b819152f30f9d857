//! SLH-DSA itself (FIPS 205 §9–§10): key generation, the internal signing and
//! verification functions over M', and the external ones that build M' from a
//! message, a context string and, for HashSLH-DSA, a pre-hash.

use core::sync::atomic::AtomicBool;

#[cfg(feature = "alloc")]
use crate::prelude::*;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::address::{Adrs, AdrsType};
use crate::bits::to_int;
use crate::ct_check::declassify;
use crate::error::Error;
use crate::fors::fors_pk_from_sig;
use crate::hash::{Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash};
use crate::hypertree::ht_verify;
use crate::message::{MessageSource, Prefixed, SamePasses};
#[cfg(feature = "alloc")]
use crate::message::{PendingVerify, PreHasher};
use crate::params::{Algorithm, Instance, ParameterSet, Params, MAX_M, MAX_N};
use crate::parts::{node, PublicParts};
use crate::prehash::{PreHash, MAX_PREHASH_LEN};
use crate::sign_trees::fors_and_ht_sign;
#[cfg(feature = "alloc")]
use crate::sign_trees::{finish_trees, task_count, task_len, tree_task};
use crate::tree_cache::{root_and_cache, uses_cache, SharedCache};

/// `SK.seed ‖ SK.prf` and the public key; wiped on drop. A key of a
/// one-tree set (draft SP 800-230) may also hold its tree cache (public).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct SecretParts {
    pub sk_seed: Node,
    pub sk_prf: Node,
    pub pk: PublicParts,
    #[zeroize(skip)]
    pub cache: Option<SharedCache>,
}

impl SecretParts {
    /// Splits raw `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (length already checked).
    pub fn from_raw(sk: &[u8]) -> Self {
        let n = sk.len() / 4;
        SecretParts {
            sk_seed: node(&sk[..n]),
            sk_prf: node(&sk[n..2 * n]),
            pk: PublicParts::from_raw(&sk[2 * n..]),
            cache: None,
        }
    }

    #[cfg(feature = "alloc")]
    pub fn to_raw(&self, n: usize) -> zeroize::Zeroizing<Vec<u8>> {
        let mut out = zeroize::Zeroizing::new(Vec::with_capacity(4 * n));
        for part in [
            &self.sk_seed,
            &self.sk_prf,
            &self.pk.pk_seed,
            &self.pk.pk_root,
        ] {
            out.extend_from_slice(&part[..n]);
        }
        out
    }
}

/// `slh_keygen_internal` (Algorithm 18) on raw seeds of n bytes each.
#[cfg(feature = "alloc")]
pub(crate) fn keygen_parts<P: Instance>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    threads: usize,
) -> Result<SecretParts, Error> {
    let never = AtomicBool::new(false);
    keygen_parts_with_progress::<P>(sk_seed, sk_prf, pk_seed, threads, &|_, _| {}, &never)
}

/// [`keygen_parts`], calling `progress(done, total)` while a one-tree set
/// (draft SP 800-230) computes its tree, which it keeps as the key's cache;
/// [`Error::Cancelled`] if `stop` is set before that tree is done.
pub(crate) fn keygen_parts_with_progress<P: Instance>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<SecretParts, Error> {
    let p = P::PARAMS;
    for (what, x) in [
        ("SK.seed", sk_seed),
        ("SK.prf", sk_prf),
        ("PK.seed", pk_seed),
    ] {
        if x.len() != p.n {
            return Err(Error::InvalidLength {
                what,
                algorithm: P::NAME,
                expected: p.n,
                got: x.len(),
            });
        }
    }
    let t = P::Hash::new(p.n, pk_seed, Some(sk_seed));
    let (mut pk_root, cache) = root_and_cache::<P>(&t, pk_seed, threads, progress, stop)?;
    // Public: PK.root is half of the public key.
    declassify(&mut pk_root[..p.n]);
    Ok(SecretParts {
        sk_seed: node(sk_seed),
        sk_prf: node(sk_prf),
        pk: PublicParts {
            pk_seed: node(pk_seed),
            pk_root,
        },
        cache,
    })
}

/// Whether `PK.root` of a secret key is the root its seeds give, compared
/// in constant time. A one-tree set (draft SP 800-230) keeps the tree it
/// computed as the key's cache when the roots match.
pub(crate) fn root_matches<P: Instance>(sk: &mut SecretParts, threads: usize) -> bool {
    let n = P::PARAMS.n;
    let t = P::Hash::new(n, &sk.pk.pk_seed[..n], Some(&sk.sk_seed[..n]));
    let never = AtomicBool::new(false);
    // Only a stop request fails, and nobody can set `never`.
    let Ok((root, cache)) =
        root_and_cache::<P>(&t, &sk.pk.pk_seed[..n], threads, &|_, _| {}, &never)
    else {
        return false;
    };
    let mut matches = [root[..n].ct_eq(&sk.pk.pk_root[..n]).unwrap_u8()];
    // Public: the caller is told whether the key loads (one bit, nothing of the root).
    declassify(&mut matches);
    if matches[0] == 1 {
        sk.cache = sk.cache.take().or(cache);
    }
    matches[0] == 1
}

/// The digest of `H_msg` split as in Algorithms 19 and 20: `md`, `idx_tree`, `idx_leaf`.
fn split_digest(p: &Params, digest: &[u8]) -> (usize, u64, u32) {
    let md_len = p.md_bytes();
    let tree_end = md_len + p.tree_idx_bytes();
    let tree_bits = p.h - p.hp;
    let tree_mask = if tree_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << tree_bits) - 1
    };
    let idx_tree = to_int(&digest[md_len..tree_end]) & tree_mask;
    let idx_leaf =
        (to_int(&digest[tree_end..tree_end + p.leaf_idx_bytes()]) & ((1u64 << p.hp) - 1)) as u32;
    (md_len, idx_tree, idx_leaf)
}

/// `H_msg(R, PK.seed, PK.root, M)` of a streamed M. Not inlined: its
/// hash state is gone before the trees are verified (a frame of its own,
/// not a share of the caller's).
#[inline(never)]
pub(crate) fn h_msg<P: Instance>(
    t: &P::Hash,
    r: &[u8],
    pk_root: &[u8],
    msg: &mut dyn MessageSource,
) -> Result<[u8; MAX_M], Error> {
    let mut h = t.h_msg(r, pk_root);
    msg.feed(&mut |b| h.absorb(b))?;
    let mut digest = [0u8; MAX_M];
    h.finish(&mut digest[..P::PARAMS.m]);
    Ok(digest)
}

/// `slh_sign_internal` (Algorithm 19): signs M' (streamed twice) into `sig`,
/// which must be exactly the signature length.
pub(crate) fn sign_parts<P: Instance>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    opt_rand: &[u8],
    sig: &mut [u8],
    threads: usize,
) -> Result<(), Error> {
    let p = P::PARAMS;
    let n = p.n;
    debug_assert_eq!(sig.len(), p.sig_bytes());
    let t = P::Hash::new(n, &sk.pk.pk_seed[..n], Some(&sk.sk_seed[..n]));
    let (r, digest) = randomizer_and_digest::<P>(&t, sk, msg, opt_rand)?;
    let (md_len, idx_tree, idx_leaf) = split_digest(&p, &digest);

    let (r_out, rest) = sig.split_at_mut(n);
    r_out.copy_from_slice(&r[..n]);
    let (sig_fors, sig_ht) = rest.split_at_mut(p.fors_sig_bytes());
    fors_and_ht_sign::<P>(
        &t,
        &digest[..md_len],
        idx_tree,
        idx_leaf,
        sig_fors,
        sig_ht,
        threads,
        cache_nodes::<P>(sk),
    )
}

/// The start of `slh_sign_internal` (Algorithm 19): `R = PRF_msg(SK.prf,
/// opt_rand, M')` and `H_msg(R, PK.seed, PK.root, M')`, M' streamed twice.
fn randomizer_and_digest<P: Instance>(
    t: &P::Hash,
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    opt_rand: &[u8],
) -> Result<(Node, [u8; MAX_M]), Error> {
    let n = P::PARAMS.n;
    let mut prf = t.prf_msg(&sk.sk_prf[..n], opt_rand);
    msg.feed(&mut |b| prf.absorb(b))?;
    let mut r = prf.finish();
    // Public: R is the first n bytes of the signature (and so is the digest made from it).
    declassify(&mut r[..n]);
    let digest = h_msg::<P>(t, &r[..n], &sk.pk.pk_root[..n], msg)?;
    Ok((r, digest))
}

/// The kept nodes of a one-tree set's key (draft SP 800-230), if it has a
/// cache of its own public key.
fn cache_nodes<P: Instance>(sk: &SecretParts) -> Option<&[Node]> {
    sk.cache
        .as_ref()
        .filter(|c| c.belongs_to::<P>(&sk.pk))
        .map(|c| c.nodes())
}

/// [`sign_parts`], and with `fault_hardened` the whole computation a second
/// time into a buffer of its own, the two compared in constant time. On a
/// mismatch both buffers are wiped and [`Error::FaultDetected`] returned, so
/// a signature computed under a fault is never released (the countermeasure
/// of Genêt, TCHES 2023, against the grafting-tree attack; verifying before
/// release does not stop it). Costs twice the time and, in hardened mode
/// only, one more allocation of the signature's length. Every read of a
/// message that could change (not a slice) must match the first in length
/// and SHA-256, else [`Error::MessageChanged`] (see [`SamePasses`]).
pub(crate) fn sign_parts_checked<P: Instance>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    opt_rand: &[u8],
    sig: &mut [u8],
    threads: usize,
    fault_hardened: bool,
) -> Result<(), Error> {
    // Every pass of both computations must read the message the first read.
    let msg = &mut SamePasses::new(msg);
    sign_parts::<P>(sk, msg, opt_rand, sig, threads)?;
    if uses_cache(&P::PARAMS) && !verify_parts::<P>(&sk.pk, msg, sig)? {
        // A one-tree set's signature is always verified before release (it
        // costs microseconds): a fault, or a secret key that does not
        // match its public key, never yields a signature that fails.
        sig.zeroize();
        return Err(if sk.cache.is_some() {
            Error::FaultDetected
        } else {
            Error::KeyMismatch
        });
    }
    if !fault_hardened {
        return Ok(());
    }
    second_computation_agrees::<P>(sk, msg, opt_rand, sig, threads)
}

/// The second computation of [`sign_parts_checked`] into a buffer of its
/// own, compared with `sig` in constant time; `sig` is wiped unless they agree.
#[cfg(feature = "alloc")]
fn second_computation_agrees<P: Instance>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    opt_rand: &[u8],
    sig: &mut [u8],
    threads: usize,
) -> Result<(), Error> {
    let mut second = Zeroizing::new(vec![0u8; sig.len()]);
    if let Err(e) = sign_parts::<P>(sk, msg, opt_rand, &mut second, threads) {
        sig.zeroize();
        return Err(e);
    }
    if bool::from(sig.ct_eq(&second[..])) {
        Ok(())
    } else {
        sig.zeroize();
        Err(Error::FaultDetected)
    }
}

/// Without a heap there is no room for the second signature: fault-hardened
/// signing is unsupported (`sig` is wiped).
#[cfg(not(feature = "alloc"))]
#[allow(clippy::extra_unused_type_parameters)] // the same signature as with `alloc`
fn second_computation_agrees<P: Instance>(
    _sk: &SecretParts,
    _msg: &mut dyn MessageSource,
    _opt_rand: &[u8],
    sig: &mut [u8],
    _threads: usize,
) -> Result<(), Error> {
    sig.zeroize();
    Err(Error::Unsupported {
        family: "the core without the alloc feature",
        what: "fault-hardened signing (it needs a second signature buffer)",
    })
}

/// Test-only fault injection: flips one bit of the FORS root in the k-th
/// [`sign_parts`] call from now on this thread.
#[cfg(test)]
pub(crate) mod fault_injection {
    use std::cell::Cell;

    thread_local! {
        /// 0: disarmed; k: the k-th `sign_parts` call from now is faulted.
        static COUNTDOWN: Cell<u32> = const { Cell::new(0) };
    }

    /// Faults the `nth` (1-based) signing computation from now; 0 disarms.
    pub fn arm(nth: u32) {
        COUNTDOWN.with(|c| c.set(nth));
    }

    /// Counts one computation; true if it is the armed one.
    pub(crate) fn fires() -> bool {
        COUNTDOWN.with(|c| match c.get() {
            0 => false,
            1 => {
                c.set(0);
                true
            }
            k => {
                c.set(k - 1);
                false
            }
        })
    }
}

/// `slh_verify_internal` (Algorithm 20) over a streamed M'.
pub(crate) fn verify_parts<P: Instance>(
    pk: &PublicParts,
    msg: &mut dyn MessageSource,
    sig: &[u8],
) -> Result<bool, Error> {
    let n = P::PARAMS.n;
    if sig.len() != P::PARAMS.sig_bytes() {
        return Ok(false);
    }
    let t = P::Hash::new(n, &pk.pk_seed[..n], None);
    let digest = h_msg::<P>(&t, &sig[..n], &pk.pk_root[..n], msg)?;
    let mut ok = [false];
    verify_digested::<P, 1>(&t, &pk.pk_root[..n], &[sig], &[digest], &mut ok);
    Ok(ok[0])
}

/// Signatures under one key that [`verify_external_many`] checks side by
/// side: the WOTS+ chains of eight signatures' layers in one F batch fill
/// every kernel's lanes, and so do their FORS paths, T_l calls and climbs.
#[cfg(feature = "alloc")]
pub(crate) const VERIFY_LANES: usize = 8;

/// The tree part of `slh_verify_internal` (Algorithm 20), after `H_msg`, for
/// up to `G` signatures under one key: `ok[j]` says whether `sigs[j]` (of
/// the right length) verifies with digest `digests[j]`. Not inlined, like
/// [`h_msg`]: the two phases' buffers never share one frame.
#[inline(never)]
fn verify_digested<P: Instance, const G: usize>(
    t: &P::Hash,
    pk_root: &[u8],
    sigs: &[&[u8]],
    digests: &[[u8; MAX_M]],
    ok: &mut [bool],
) {
    let p = P::PARAMS;
    let g = sigs.len();
    let mut fors_sigs: [&[u8]; G] = [&[]; G];
    let mut ht_sigs: [&[u8]; G] = [&[]; G];
    let mut mds: [&[u8]; G] = [&[]; G];
    let mut adrs = [Adrs::new(); G];
    let mut trees = [0u64; G];
    let mut leaves = [0u32; G];
    for j in 0..g {
        let (md_len, idx_tree, idx_leaf) = split_digest(&p, &digests[j]);
        (fors_sigs[j], ht_sigs[j]) = sigs[j][p.n..].split_at(p.fors_sig_bytes());
        mds[j] = &digests[j][..md_len];
        adrs[j].set_tree_address(idx_tree);
        adrs[j].set_type_and_clear(AdrsType::ForsTree);
        adrs[j].set_key_pair_address(idx_leaf);
        (trees[j], leaves[j]) = (idx_tree, idx_leaf);
    }
    let mut pk_fors = [[0u8; MAX_N]; G];
    fors_pk_from_sig::<P, G>(t, &fors_sigs[..g], &mds[..g], &adrs[..g], &mut pk_fors[..g]);
    ht_verify::<P, G>(
        t,
        &pk_fors[..g],
        &ht_sigs[..g],
        &trees[..g],
        &leaves[..g],
        pk_root,
        ok,
    );
}

/// `slh_verify_internal` (Algorithm 20) for `count` signatures under the key
/// `pk`: `digest(i, t)` checks item i and returns its signature (of the
/// right length) and `H_msg` digest, or the item's error. The digests come
/// one by one; the trees of up to [`VERIFY_LANES`] signatures at a time are
/// climbed side by side. `out[i]`: `Ok(())`, [`Error::InvalidSignature`], or
/// the item's error.
#[cfg(feature = "alloc")]
pub(crate) fn verify_many<'a, P: Instance>(
    pk: &PublicParts,
    count: usize,
    out: &mut [Result<(), Error>],
    mut digest: impl FnMut(usize, &P::Hash) -> Result<(&'a [u8], [u8; MAX_M]), Error>,
) {
    let n = P::PARAMS.n;
    let t = P::Hash::new(n, &pk.pk_seed[..n], None);
    let mut sigs: [&[u8]; VERIFY_LANES] = [&[]; VERIFY_LANES];
    let mut digests = [[0u8; MAX_M]; VERIFY_LANES];
    let mut which = [0usize; VERIFY_LANES];
    let mut g = 0;
    for i in 0..count {
        out[i] = digest(i, &t).map(|(sig, d)| {
            (sigs[g], digests[g], which[g]) = (sig, d, i);
            g += 1;
        });
        if g == VERIFY_LANES || (i + 1 == count && g > 0) {
            let mut ok = [false; VERIFY_LANES];
            verify_digested::<P, VERIFY_LANES>(
                &t,
                &pk.pk_root[..n],
                &sigs[..g],
                &digests[..g],
                &mut ok[..g],
            );
            for j in 0..g {
                out[which[j]] = if ok[j] {
                    Ok(())
                } else {
                    Err(Error::InvalidSignature)
                };
            }
            g = 0;
        }
    }
}

/// The longest M' prefix: domain byte, context length, context, OID, PH(M).
const MAX_PREFIX: usize = 2 + 255 + 11 + MAX_PREHASH_LEN;

/// Runs `f` on M' for an external signing or verification call (Algorithms 22–25):
/// `0 ‖ |ctx| ‖ ctx ‖ M` for pure, `1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)` with a pre-hash.
pub(crate) fn with_m_prime<R>(
    ctx: &[u8],
    prehash: Option<PreHash>,
    msg: &mut dyn MessageSource,
    f: impl FnOnce(&mut dyn MessageSource) -> Result<R, Error>,
) -> Result<R, Error> {
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong(ctx.len()));
    }
    match prehash {
        // Pure: `0 ‖ |ctx|`, ctx and M fed in turn, nothing copied (no
        // buffer stays on the stack while the trees are verified).
        None => f(&mut Prefixed {
            prefix: &[0, ctx.len() as u8],
            inner: &mut Prefixed {
                prefix: ctx,
                inner: msg,
            },
        }),
        Some(ph) => with_prehashed_m_prime(ctx, ph, msg, f),
    }
}

/// [`with_m_prime`] with a pre-hash: M' is built whole (at most
/// `MAX_PREFIX` bytes), in a frame of its own.
#[inline(never)]
fn with_prehashed_m_prime<R>(
    ctx: &[u8],
    ph: PreHash,
    msg: &mut dyn MessageSource,
    f: impl FnOnce(&mut dyn MessageSource) -> Result<R, Error>,
) -> Result<R, Error> {
    let (digest, dlen) = ph.digest(msg)?;
    let (prefix, len) = prehashed_m_prime(ctx, ph, &digest[..dlen]);
    f(&mut &prefix[..len])
}

/// `Ok(())` if `got` is `alg`'s signature length, else
/// [`Error::InvalidSignatureLength`].
pub(crate) fn check_signature_len(alg: Algorithm, got: usize) -> Result<(), Error> {
    let expected = alg.params().sig_bytes();
    if got == expected {
        return Ok(());
    }
    Err(Error::InvalidSignatureLength {
        algorithm: alg,
        expected,
        got,
    })
}

/// HashSLH-DSA's M' (Algorithms 23 and 25) from a digest the caller made
/// with `ph`: `1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)`, handed to `f`. A context over
/// 255 bytes is [`Error::ContextTooLong`], a digest that is not `ph`'s
/// output length [`Error::InvalidLength`].
#[cfg(feature = "alloc")]
pub(crate) fn with_digest_m_prime<R>(
    ctx: &[u8],
    ph: PreHash,
    digest: &[u8],
    f: impl FnOnce(&mut dyn MessageSource) -> Result<R, Error>,
) -> Result<R, Error> {
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong(ctx.len()));
    }
    if digest.len() != ph.output_len() {
        return Err(Error::InvalidLength {
            what: "pre-hash digest",
            algorithm: ph.name(),
            expected: ph.output_len(),
            got: digest.len(),
        });
    }
    let (prefix, len) = prehashed_m_prime(ctx, ph, digest);
    f(&mut &prefix[..len])
}

/// Algorithm 23 on a digest the caller made with `ph` (the pre-hash step
/// done elsewhere, e.g. a PKCS#11 application's `CKM_HASH_SLH_DSA`).
#[cfg(feature = "alloc")]
pub(crate) fn sign_digest<P: ParameterSet>(
    sk: &SecretParts,
    digest: &[u8],
    ctx: &[u8],
    ph: PreHash,
    addrnd: Option<&[u8]>,
    threads: usize,
    fault_hardened: bool,
) -> Result<Vec<u8>, Error> {
    let n = P::PARAMS.n;
    let r = Zeroizing::new(opt_rand(addrnd, n, &sk.pk)?);
    let mut sig = vec![0u8; P::PARAMS.sig_bytes()];
    with_digest_m_prime(ctx, ph, digest, |m| {
        sign_parts_checked::<P>(sk, m, &r[..n], &mut sig, threads, fault_hardened)
    })?;
    Ok(sig)
}

/// Algorithm 25 on a digest the caller made with `ph`: `Ok(())` if valid.
#[cfg(feature = "alloc")]
pub(crate) fn verify_digest<P: ParameterSet>(
    pk: &PublicParts,
    digest: &[u8],
    sig: &[u8],
    ctx: &[u8],
    ph: PreHash,
) -> Result<(), Error> {
    check_signature_len(P::ALGORITHM, sig.len())?;
    if with_digest_m_prime(ctx, ph, digest, |m| verify_parts::<P>(pk, m, sig))? {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// `1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)` (Algorithms 23 and 25) in a buffer of
/// the longest, and its length; `ctx` is at most 255 bytes.
fn prehashed_m_prime(ctx: &[u8], ph: PreHash, digest: &[u8]) -> ([u8; MAX_PREFIX], usize) {
    let mut prefix = [0u8; MAX_PREFIX];
    prefix[0] = 1;
    prefix[1] = ctx.len() as u8;
    prefix[2..2 + ctx.len()].copy_from_slice(ctx);
    let mut len = 2 + ctx.len();
    prefix[len..len + 11].copy_from_slice(&ph.oid_der());
    len += 11;
    prefix[len..len + digest.len()].copy_from_slice(digest);
    (prefix, len + digest.len())
}

/// `slh_verify_internal` (Algorithm 20) with M' pushed in pieces:
/// `H_msg` absorbs them as they come, the trees are checked at the end.
#[cfg(feature = "alloc")]
struct PendingHMsg<P: Instance> {
    pk: PublicParts,
    sig: Vec<u8>,
    h: <P::Hash as TweakableHash>::HMsg,
}

#[cfg(feature = "alloc")]
impl<P: Instance> PendingVerify for PendingHMsg<P> {
    fn absorb(&mut self, piece: &[u8]) {
        self.h.absorb(piece);
    }

    fn finish(self: Box<Self>) -> bool {
        let n = P::PARAMS.n;
        let PendingHMsg { pk, sig, h } = *self;
        let mut digest = [0u8; MAX_M];
        h.finish(&mut digest[..P::PARAMS.m]);
        let t = P::Hash::new(n, &pk.pk_seed[..n], None);
        let mut ok = [false];
        verify_digested::<P, 1>(&t, &pk.pk_root[..n], &[&sig], &[digest], &mut ok);
        ok[0]
    }

    fn clone_box(&self) -> Box<dyn PendingVerify> {
        Box::new(PendingHMsg::<P> {
            pk: self.pk,
            sig: self.sig.clone(),
            h: self.h.clone(),
        })
    }
}

/// Starts [`PendingHMsg`]: `H_msg(R, PK.seed, PK.root, ·)` with R the
/// signature's first n bytes. The caller has checked the signature's length.
#[cfg(feature = "alloc")]
pub(crate) fn pending_internal<P: Instance>(
    pk: &PublicParts,
    sig: &[u8],
) -> Box<dyn PendingVerify> {
    let n = P::PARAMS.n;
    debug_assert_eq!(sig.len(), P::PARAMS.sig_bytes());
    let t = P::Hash::new(n, &pk.pk_seed[..n], None);
    let h = t.h_msg(&sig[..n], &pk.pk_root[..n]);
    Box::new(PendingHMsg::<P> {
        pk: *pk,
        sig: sig.to_vec(),
        h,
    })
}

/// HashSLH-DSA's M' pushed in pieces: `PH(M)` absorbs them, and M' (at most
/// `MAX_PREFIX` bytes) goes to the inner verification at the end.
#[cfg(feature = "alloc")]
struct PendingPreHashed {
    ph: PreHash,
    hasher: PreHasher,
    ctx: [u8; 255],
    ctx_len: usize,
    inner: Box<dyn PendingVerify>,
}

#[cfg(feature = "alloc")]
impl PendingVerify for PendingPreHashed {
    fn absorb(&mut self, piece: &[u8]) {
        self.hasher.update(piece);
    }

    fn finish(self: Box<Self>) -> bool {
        let PendingPreHashed {
            ph,
            hasher,
            ctx,
            ctx_len,
            mut inner,
        } = *self;
        let (digest, dlen) = hasher.finish();
        let (m_prime, len) = prehashed_m_prime(&ctx[..ctx_len], ph, &digest[..dlen]);
        inner.absorb(&m_prime[..len]);
        inner.finish()
    }

    fn clone_box(&self) -> Box<dyn PendingVerify> {
        Box::new(PendingPreHashed {
            ph: self.ph,
            hasher: self.hasher.clone(),
            ctx: self.ctx,
            ctx_len: self.ctx_len,
            inner: self.inner.clone_box(),
        })
    }
}

/// [`verify_external`] with the message pushed in pieces afterwards
/// (Algorithms 24 and 25): the same length and context checks, up front.
#[cfg(feature = "alloc")]
pub(crate) fn pending_external<P: ParameterSet>(
    pk: &PublicParts,
    sig: &[u8],
    ctx: &[u8],
    prehash: Option<PreHash>,
) -> Result<Box<dyn PendingVerify>, Error> {
    check_signature_len(P::ALGORITHM, sig.len())?;
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong(ctx.len()));
    }
    let mut inner = pending_internal::<P>(pk, sig);
    Ok(match prehash {
        None => {
            inner.absorb(&[0, ctx.len() as u8]);
            inner.absorb(ctx);
            inner
        }
        Some(ph) => {
            let mut copy = [0u8; 255];
            copy[..ctx.len()].copy_from_slice(ctx);
            Box::new(PendingPreHashed {
                ph,
                hasher: PreHasher::new(ph),
                ctx: copy,
                ctx_len: ctx.len(),
                inner,
            })
        }
    })
}

/// Checks caller-supplied `addrnd` and returns opt_rand: addrnd, or PK.seed when absent.
pub(crate) fn opt_rand(addrnd: Option<&[u8]>, n: usize, pk: &PublicParts) -> Result<Node, Error> {
    match addrnd {
        None => Ok(pk.pk_seed),
        Some(r) if r.len() == n => Ok(node(r)),
        Some(r) => Err(Error::InvalidRandomnessLength {
            expected: n,
            got: r.len(),
        }),
    }
}

/// Algorithms 22/23 over a streamed message.
#[cfg(feature = "alloc")]
pub(crate) fn sign_external<P: ParameterSet>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    ctx: &[u8],
    prehash: Option<PreHash>,
    addrnd: Option<&[u8]>,
    threads: usize,
    fault_hardened: bool,
) -> Result<Vec<u8>, Error> {
    let mut sig = vec![0u8; P::PARAMS.sig_bytes()];
    sign_external_into::<P>(
        sk,
        msg,
        ctx,
        prehash,
        addrnd,
        threads,
        fault_hardened,
        &mut sig,
    )?;
    Ok(sig)
}

/// Algorithms 22/23 into `sig`, which must be exactly the signature length
/// ([`Error::InvalidSignatureLength`] otherwise).
#[allow(clippy::too_many_arguments)]
pub(crate) fn sign_external_into<P: ParameterSet>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    ctx: &[u8],
    prehash: Option<PreHash>,
    addrnd: Option<&[u8]>,
    threads: usize,
    fault_hardened: bool,
    sig: &mut [u8],
) -> Result<(), Error> {
    check_signature_len(P::ALGORITHM, sig.len())?;
    let n = P::PARAMS.n;
    let r = Zeroizing::new(opt_rand(addrnd, n, &sk.pk)?);
    with_m_prime(ctx, prehash, msg, |m| {
        sign_parts_checked::<P>(sk, m, &r[..n], sig, threads, fault_hardened)
    })
}

/// Algorithm 19 on a byte string, returning the signature.
#[cfg(feature = "alloc")]
pub(crate) fn sign_internal_vec<P: ParameterSet>(
    sk: &SecretParts,
    m: &[u8],
    addrnd: Option<&[u8]>,
) -> Result<Vec<u8>, Error> {
    let n = P::PARAMS.n;
    let r = Zeroizing::new(opt_rand(addrnd, n, &sk.pk)?);
    let mut sig = vec![0u8; P::PARAMS.sig_bytes()];
    sign_parts_checked::<P>(sk, &mut &m[..], &r[..n], &mut sig, 1, false)?;
    Ok(sig)
}

/// Bytes of the plan of a signature split into tree tasks
/// ([`plan_external`]): `R ‖ digest`, n + m.
#[cfg(feature = "alloc")]
pub(crate) const fn plan_len(p: &Params) -> usize {
    p.n + p.m
}

/// The first step of a signature split into tree tasks (Algorithms 22/23,
/// and Algorithm 19 up to its digest): `R ‖ digest` ([`plan_len`] bytes),
/// made as [`sign_external`] makes them. With `fault_hardened` it is
/// computed twice and the two compared ([`Error::FaultDetected`] if they
/// differ); the trees are the caller's to compute twice.
#[cfg(feature = "alloc")]
pub(crate) fn plan_external<P: ParameterSet>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    ctx: &[u8],
    prehash: Option<PreHash>,
    addrnd: Option<&[u8]>,
    fault_hardened: bool,
) -> Result<Vec<u8>, Error> {
    let n = P::PARAMS.n;
    let r = Zeroizing::new(opt_rand(addrnd, n, &sk.pk)?);
    let mut plan = vec![0u8; plan_len(&P::PARAMS)];
    with_m_prime(ctx, prehash, msg, |m| {
        // Every pass must read the message the first read.
        let m = &mut SamePasses::new(m);
        write_plan::<P>(sk, m, &r[..n], &mut plan)?;
        if fault_hardened {
            let mut second = [0u8; MAX_N + MAX_M];
            let second = &mut second[..plan.len()];
            write_plan::<P>(sk, m, &r[..n], second)?;
            if !bool::from(plan.ct_eq(second)) {
                plan.zeroize();
                return Err(Error::FaultDetected);
            }
        }
        Ok(())
    })?;
    Ok(plan)
}

/// `R ‖ digest` of M' into `plan`, of [`plan_len`] bytes.
#[cfg(feature = "alloc")]
fn write_plan<P: Instance>(
    sk: &SecretParts,
    msg: &mut dyn MessageSource,
    opt_rand: &[u8],
    plan: &mut [u8],
) -> Result<(), Error> {
    let p = P::PARAMS;
    let t = P::Hash::new(p.n, &sk.pk.pk_seed[..p.n], Some(&sk.sk_seed[..p.n]));
    let (r, digest) = randomizer_and_digest::<P>(&t, sk, msg, opt_rand)?;
    let (r_out, d_out) = plan.split_at_mut(p.n);
    r_out.copy_from_slice(&r[..p.n]);
    d_out.copy_from_slice(&digest[..p.m]);
    Ok(())
}

/// A plan's R and digest ([`Error::InvalidLength`] for a plan of another
/// length than [`plan_len`]).
#[cfg(feature = "alloc")]
fn read_plan<P: Instance>(plan: &[u8]) -> Result<(&[u8], &[u8]), Error> {
    let expected = plan_len(&P::PARAMS);
    if plan.len() != expected {
        return Err(Error::InvalidLength {
            what: "signing plan",
            algorithm: P::NAME,
            expected,
            got: plan.len(),
        });
    }
    Ok(plan.split_at(P::PARAMS.n))
}

/// [`Error::InvalidTask`]: `what` (a task index, a number of task outputs)
/// is `got`, which does not fit the set's tasks.
#[cfg(feature = "alloc")]
fn invalid_task<P: ParameterSet>(what: &'static str, got: usize) -> Error {
    Error::InvalidTask {
        what,
        algorithm: P::ALGORITHM,
        tasks: task_count(&P::PARAMS),
        got,
    }
}

/// Task `i` of the signature `plan` is the start of
/// ([`crate::sign_trees::tree_task`]): the tree's part of the signature,
/// then its root.
#[cfg(feature = "alloc")]
pub(crate) fn sign_task<P: ParameterSet>(
    sk: &SecretParts,
    plan: &[u8],
    i: usize,
) -> Result<Vec<u8>, Error> {
    let p = P::PARAMS;
    let n = p.n;
    let (_, digest) = read_plan::<P>(plan)?;
    if i >= task_count(&p) {
        return Err(invalid_task::<P>("task index", i));
    }
    let (md_len, idx_tree, idx_leaf) = split_digest(&p, digest);
    let t = P::Hash::new(n, &sk.pk.pk_seed[..n], Some(&sk.sk_seed[..n]));
    let mut out = vec![0u8; task_len(&p, i)];
    tree_task::<P>(
        &t,
        &digest[..md_len],
        idx_tree,
        idx_leaf,
        cache_nodes::<P>(sk),
        i,
        &mut out,
    )?;
    Ok(out)
}

/// The signature `plan` is the start of, from every task's output in task
/// order ([`sign_task`]): R, the trees' parts, the FORS key and each
/// layer's WOTS+ signature ([`crate::sign_trees::finish_trees`]). The
/// signature is verified before it is returned (a fraction of the cost of
/// signing): outputs of another plan or key, or a root that is not its
/// tree's, give [`Error::InvalidSignature`] and no signature.
#[cfg(feature = "alloc")]
pub(crate) fn sign_finish<P: ParameterSet>(
    sk: &SecretParts,
    plan: &[u8],
    outputs: &[&[u8]],
) -> Result<Vec<u8>, Error> {
    let p = P::PARAMS;
    let n = p.n;
    let (r, digest) = read_plan::<P>(plan)?;
    if outputs.len() != task_count(&p) {
        return Err(invalid_task::<P>("number of task outputs", outputs.len()));
    }
    for (i, out) in outputs.iter().enumerate() {
        let expected = task_len(&p, i);
        if out.len() != expected {
            return Err(Error::InvalidLength {
                what: if i < p.d {
                    "XMSS task output"
                } else {
                    "FORS task output"
                },
                algorithm: P::NAME,
                expected,
                got: out.len(),
            });
        }
    }
    let (md_len, idx_tree, idx_leaf) = split_digest(&p, digest);
    let mut sig = vec![0u8; p.sig_bytes()];
    let (r_out, rest) = sig.split_at_mut(n);
    r_out.copy_from_slice(r);
    let (sig_fors, sig_ht) = rest.split_at_mut(p.fors_sig_bytes());
    let t = P::Hash::new(n, &sk.pk.pk_seed[..n], Some(&sk.sk_seed[..n]));
    finish_trees::<P>(
        &t,
        &digest[..md_len],
        idx_tree,
        idx_leaf,
        outputs,
        sig_fors,
        sig_ht,
    );
    let t = P::Hash::new(n, &sk.pk.pk_seed[..n], None);
    let mut full = [0u8; MAX_M];
    full[..p.m].copy_from_slice(digest);
    let mut ok = [false];
    verify_digested::<P, 1>(&t, &sk.pk.pk_root[..n], &[&sig], &[full], &mut ok);
    if ok[0] {
        Ok(sig)
    } else {
        sig.zeroize();
        Err(Error::InvalidSignature)
    }
}

/// Algorithms 24/25 over a streamed message: `Ok(())` if valid.
pub(crate) fn verify_external<P: ParameterSet>(
    pk: &PublicParts,
    msg: &mut dyn MessageSource,
    sig: &[u8],
    ctx: &[u8],
    prehash: Option<PreHash>,
) -> Result<(), Error> {
    check_signature_len(P::ALGORITHM, sig.len())?;
    if with_m_prime(ctx, prehash, msg, |m| verify_parts::<P>(pk, m, sig))? {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

#[cfg(test)]
mod fault_tests {
    use super::fault_injection::arm;
    use super::*;
    use crate::keys::{SignOptions, SigningKey};
    use crate::params::{Sha2_128f, Shake128f};
    use crate::rand::Randomness;
    use crate::{Algorithm, DynSigningKey};

    fn key<P: ParameterSet>() -> SigningKey<P> {
        let n = P::PARAMS.n;
        SigningKey::from_seeds(&[1; MAX_N][..n], &[2; MAX_N][..n], &[3; MAX_N][..n]).unwrap()
    }

    /// `sign_parts_checked` for a SHAKE-128f key with the fixed randomness
    /// 3…3, on `threads` threads, hardened or not.
    fn sign_128f(
        sk: &SigningKey<Shake128f>,
        msg: &mut dyn MessageSource,
        sig: &mut [u8],
        threads: usize,
        hardened: bool,
    ) -> Result<(), Error> {
        let n = Shake128f::PARAMS.n;
        sign_parts_checked::<Shake128f>(sk.parts(), msg, &[3; 16][..n], sig, threads, hardened)
    }

    fn opts(hardened: bool) -> SignOptions<'static> {
        SignOptions {
            context: b"ctx",
            randomness: Randomness::Deterministic,
            fault_hardened: hardened,
            ..Default::default()
        }
    }

    fn hardened_equals_normal_and_catches_faults<P: ParameterSet>() {
        let sk = key::<P>();
        let vk = sk.verifying_key();
        let msg = b"fault";
        arm(0);
        let normal = sk.sign(msg, &opts(false)).unwrap().to_vec();
        let hardened = sk.sign(msg, &opts(true)).unwrap().to_vec();
        assert_eq!(normal, hardened, "{}", P::ALGORITHM);
        vk.verify(msg, &hardened, b"ctx", None).unwrap();

        // The hook really corrupts: unhardened, the faulted signature is
        // released and does not verify.
        arm(1);
        let faulty = sk.sign(msg, &opts(false)).unwrap().to_vec();
        assert_ne!(faulty, normal);
        assert_eq!(
            vk.verify(msg, &faulty, b"ctx", None),
            Err(Error::InvalidSignature)
        );

        // Hardened: a fault in either computation is caught, nothing released.
        for nth in [1, 2] {
            arm(nth);
            assert_eq!(
                sk.sign(msg, &opts(true)).unwrap_err(),
                Error::FaultDetected,
                "{} fault in computation {nth}",
                P::ALGORITHM
            );
        }
        // The hook fired once and disarmed: signing works again.
        assert_eq!(sk.sign(msg, &opts(true)).unwrap().to_vec(), normal);
    }

    #[test]
    fn hardened_signing_shake_128f() {
        hardened_equals_normal_and_catches_faults::<Shake128f>();
    }

    #[test]
    fn hardened_signing_sha2_128f() {
        hardened_equals_normal_and_catches_faults::<Sha2_128f>();
    }

    #[test]
    fn mismatch_wipes_the_signature_buffer() {
        let sk = key::<Shake128f>();
        let mut sig = vec![0u8; Shake128f::PARAMS.sig_bytes()];
        arm(2);
        let r = sign_128f(&sk, &mut &b"m"[..], &mut sig, 2, true);
        assert_eq!(r, Err(Error::FaultDetected));
        assert!(sig.iter().all(|&b| b == 0), "the first signature was wiped");
        // Unfaulted, the same call fills the buffer.
        sign_128f(&sk, &mut &b"m"[..], &mut sig, 1, true).unwrap();
        assert!(sig.iter().any(|&b| b != 0));
    }

    /// A message source whose bytes differ from the first read on.
    struct Shifting {
        reads: u8,
        len_change: bool,
    }

    impl MessageSource for Shifting {
        fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
            self.reads += 1;
            match (self.reads, self.len_change) {
                (1, _) => sink(b"first message"),
                (_, false) => sink(b"other message"),
                (_, true) => sink(b"first message, longer"),
            }
            Ok(())
        }
    }

    #[test]
    fn a_message_that_changes_between_passes_is_refused() {
        let sk = key::<Shake128f>();
        let mut sig = vec![0u8; Shake128f::PARAMS.sig_bytes()];
        arm(0);
        for (len_change, hardened) in [(false, false), (true, false), (false, true)] {
            let mut src = Shifting {
                reads: 0,
                len_change,
            };
            let r = sign_128f(&sk, &mut src, &mut sig, 1, hardened);
            assert_eq!(r, Err(Error::MessageChanged), "{len_change} {hardened}");
        }
        // A source that reads the same each time signs as the slice does.
        struct Steady;
        impl MessageSource for Steady {
            fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
                sink(b"same ");
                sink(b"bytes");
                Ok(())
            }
        }
        let mut want = vec![0u8; sig.len()];
        sign_128f(&sk, &mut Steady, &mut sig, 1, true).unwrap();
        sign_128f(&sk, &mut &b"same bytes"[..], &mut want, 1, false).unwrap();
        assert_eq!(sig, want);
    }

    #[test]
    fn sign_split_verifies_before_release() {
        let sk =
            DynSigningKey::from_seeds(Algorithm::Shake128f, &[1; 16], &[2; 16], &[3; 16]).unwrap();
        arm(0);
        let plan = sk.sign_plan(b"split", &opts(false)).unwrap();
        let outputs: Vec<_> = (0..sk.sign_task_count())
            .map(|i| sk.sign_task(&plan, i).unwrap())
            .collect();
        let parts: Vec<&[u8]> = outputs.iter().map(Vec::as_slice).collect();
        // A fault in the FORS key the bottom layer signs: not released.
        arm(1);
        assert_eq!(sk.sign_finish(&plan, &parts), Err(Error::InvalidSignature));
        // The hook disarmed: the same outputs finish as `sign` signs.
        assert_eq!(
            sk.sign_finish(&plan, &parts).unwrap(),
            sk.sign(b"split", &opts(false)).unwrap()
        );
    }

    #[test]
    fn dynamic_api_honours_fault_hardened() {
        let sk =
            DynSigningKey::from_seeds(Algorithm::Shake128f, &[1; 16], &[2; 16], &[3; 16]).unwrap();
        let ph = SignOptions {
            prehash: Some(PreHash::Sha2_256),
            randomness: Randomness::Given(&[9; 16]),
            ..opts(true)
        };
        arm(0);
        let good = sk.sign(b"dyn", &ph).unwrap();
        assert_eq!(
            good,
            sk.sign(
                b"dyn",
                &SignOptions {
                    fault_hardened: false,
                    ..ph
                }
            )
            .unwrap()
        );
        arm(2);
        assert_eq!(sk.sign(b"dyn", &ph).unwrap_err(), Error::FaultDetected);
        arm(1);
        let faulty = sk.sign(b"dyn", &opts(false)).unwrap();
        assert!(sk
            .verifying_key()
            .verify(b"dyn", &faulty, b"ctx", None)
            .is_err());
        // Hedged hardened signing draws opt_rand once: both computations agree.
        let hedged = SignOptions {
            randomness: Randomness::Hedged,
            ..opts(true)
        };
        let sig = sk.sign(b"dyn", &hedged).unwrap();
        sk.verifying_key()
            .verify(b"dyn", &sig, b"ctx", None)
            .unwrap();
    }
}
