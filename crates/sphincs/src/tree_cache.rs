//! The tree cache of a one-tree set (draft SP 800-230, d = 1): the nodes at
//! height [`CACHE_LEVEL`] of the single XMSS tree, computed once when a key is
//! made or loaded, so that a signature recomputes one subtree of
//! `2^CACHE_LEVEL` leaves instead of all `2^h'` (FIPS 205 Algorithms 9–10 on
//! kept nodes). The nodes are public (any signature reveals some of them);
//! the cache is still checked before use, and every signature of these sets
//! is verified before it is returned.
//!
//! Serialized form (all lengths fixed by the set):
//! `magic ‖ len(name) ‖ name ‖ level ‖ PK.seed ‖ PK.root ‖ nodes (n bytes
//! each) ‖ SHA-256 of everything before`.

#[cfg(feature = "alloc")]
use crate::prelude::*;
#[cfg(feature = "alloc")]
use sha2::{Digest, Sha256};

use crate::address::Adrs;
use core::sync::atomic::AtomicBool;

use crate::error::Error;
use crate::hash::Node;
#[cfg(feature = "alloc")]
use crate::hash::TweakableHash;
use crate::params::{Instance, Params};
use crate::parts::PublicParts;
#[cfg(feature = "alloc")]
use crate::xmss::{xmss_auth_path_from_level, xmss_level, xmss_root_from_level};

/// Height of the kept nodes: 2^7 leaves per signature (about 9k–17k WOTS+
/// chain steps, a few thousandths of the FORS work), and at most
/// 2^15 nodes (512 KiB at n = 16 and 32, 384 KiB at n = 24) per key.
pub const CACHE_LEVEL: usize = 7;

#[cfg(feature = "alloc")]
const MAGIC: &[u8; 16] = b"SLH-DSA-TREES\x00\x00\x01";

/// The kept nodes of one key's XMSS tree.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeCache {
    name: &'static str,
    pk: PublicParts,
    nodes: Vec<Node>,
}

/// Number of kept nodes for a set.
#[cfg(feature = "alloc")]
fn node_count(p: &Params) -> usize {
    1 << (p.hp - CACHE_LEVEL)
}

/// Whether set `P` signs from a tree cache (a single XMSS tree, d = 1).
pub(crate) const fn uses_cache(p: &Params) -> bool {
    p.d == 1 && p.hp > CACHE_LEVEL
}

fn top_adrs(p: &Params) -> Adrs {
    let mut adrs = Adrs::new();
    adrs.set_layer_address(p.d as u32 - 1);
    adrs
}

/// A key's cache as its secret parts hold it (shared by clones of the key).
#[cfg(feature = "alloc")]
pub(crate) type SharedCache = alloc::sync::Arc<TreeCache>;

/// Without a heap there is no cache: a one-tree set's key computes its tree
/// whenever it signs. The type has no values (`Option<SharedCache>` is
/// always `None`), so the code that would use one is the same.
#[cfg(not(feature = "alloc"))]
pub(crate) enum TreeCache {}

/// See the `alloc` definition.
#[cfg(not(feature = "alloc"))]
pub(crate) type SharedCache = &'static TreeCache;

#[cfg(not(feature = "alloc"))]
impl TreeCache {
    pub(crate) fn nodes(&self) -> &[Node] {
        match *self {}
    }

    #[allow(clippy::extra_unused_type_parameters)] // the same signature as with `alloc`
    pub(crate) fn belongs_to<P: Instance>(&self, _pk: &PublicParts) -> bool {
        match *self {}
    }
}

/// `PK.root` of the key with these seeds (Algorithm 18) and, with a heap, the
/// tree cache of a one-tree set, built on `threads` threads with
/// `progress(done, total)` calls. Setting `stop` from another thread ends
/// the build of a one-tree set's cache within a round of its nodes, as
/// [`Error::Cancelled`]: that tree is the only part of a key that takes long
/// (a minute or more); the other sets' few hundred leaves run to the end.
pub(crate) fn root_and_cache<P: Instance>(
    t: &P::Hash,
    pk_seed: &[u8],
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<(Node, Option<SharedCache>), Error> {
    let p = P::PARAMS;
    #[cfg(feature = "alloc")]
    if uses_cache(&p) {
        let (cache, root) = TreeCache::build::<P>(t, pk_seed, threads, progress, stop)?;
        return Ok((root, Some(SharedCache::new(cache))));
    }
    let _ = (pk_seed, progress, stop);
    Ok((crate::xmss::xmss_root::<P>(t, &top_adrs(&p), threads), None))
}

#[cfg(feature = "alloc")]
impl TreeCache {
    /// Computes the cache of the key with these seeds on `threads` threads,
    /// calling `progress(done, total)` as nodes complete, and returns it with
    /// the tree's root (`PK.root`, Algorithm 18); [`Error::Cancelled`] once
    /// `stop` is set (the nodes left unfinished are never used).
    pub(crate) fn build<P: Instance>(
        t: &P::Hash,
        pk_seed: &[u8],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        stop: &AtomicBool,
    ) -> Result<(TreeCache, Node), Error> {
        let p = P::PARAMS;
        let total = node_count(&p);
        let mut nodes = vec![[0u8; crate::params::MAX_N]; total];
        let done = core::sync::atomic::AtomicUsize::new(0);
        let step = |k: usize| {
            let d = done.fetch_add(k, core::sync::atomic::Ordering::Relaxed) + k;
            progress(d, total);
        };
        xmss_level::<P>(
            t,
            &top_adrs(&p),
            CACHE_LEVEL,
            &mut nodes,
            threads,
            &step,
            stop,
        );
        if stop.load(core::sync::atomic::Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let root = xmss_root_from_level::<P>(t, &top_adrs(&p), CACHE_LEVEL, &nodes);
        let mut pk = PublicParts {
            pk_seed: [0u8; crate::params::MAX_N],
            pk_root: root,
        };
        pk.pk_seed[..p.n].copy_from_slice(&pk_seed[..p.n]);
        Ok((
            TreeCache {
                name: P::NAME,
                pk,
                nodes,
            },
            root,
        ))
    }

    /// Checks the secret seed `sk_seed` of the key with `pk_seed` against the cache (which [`Self::from_bytes`]
    /// checked against PK.root): the subtree of leaf 0, `2^CACHE_LEVEL`
    /// leaves computed from SK.seed (milliseconds), must give the kept node.
    /// A key whose SK.seed is not the one the tree was made with is
    /// [`Error::KeyMismatch`], as recomputing the whole tree would find.
    pub(crate) fn check_secret<P: Instance>(
        &self,
        sk_seed: &Node,
        pk_seed: &Node,
    ) -> Result<(), Error> {
        let p = P::PARAMS;
        let t = P::Hash::new(p.n, &pk_seed[..p.n], Some(&sk_seed[..p.n]));
        let mut auth = vec![0u8; p.hp * p.n];
        match xmss_auth_path_from_level::<P>(
            &t,
            0,
            &top_adrs(&p),
            CACHE_LEVEL,
            &self.nodes,
            &mut auth,
        ) {
            Some(_) => Ok(()),
            None => Err(Error::KeyMismatch),
        }
    }

    /// The kept nodes.
    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Whether this cache was made for the public key `pk` of set `P`.
    pub(crate) fn belongs_to<P: Instance>(&self, pk: &PublicParts) -> bool {
        let n = P::PARAMS.n;
        self.name == P::NAME
            && self.pk.pk_seed[..n] == pk.pk_seed[..n]
            && self.pk.pk_root[..n] == pk.pk_root[..n]
    }

    /// Size of the serialized cache of set `P`, in bytes.
    pub fn serialized_len(p: &Params, name: &str) -> usize {
        MAGIC.len() + 1 + name.len() + 1 + 2 * p.n + node_count(p) * p.n + 32
    }

    /// The serialized cache (see the module documentation).
    pub fn to_bytes(&self, p: &Params) -> Vec<u8> {
        let n = p.n;
        let mut out = Vec::with_capacity(Self::serialized_len(p, self.name));
        out.extend_from_slice(MAGIC);
        out.push(self.name.len() as u8);
        out.extend_from_slice(self.name.as_bytes());
        out.push(CACHE_LEVEL as u8);
        out.extend_from_slice(&self.pk.pk_seed[..n]);
        out.extend_from_slice(&self.pk.pk_root[..n]);
        for node in &self.nodes {
            out.extend_from_slice(&node[..n]);
        }
        let sum = Sha256::digest(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// Reads a serialized cache for the key `pk` of set `P`, refusing one
    /// that is truncated or padded, corrupted, of another set, level or key,
    /// or whose nodes do not hash to `PK.root`.
    pub(crate) fn from_bytes<P: Instance>(bytes: &[u8], pk: &PublicParts) -> Result<Self, Error> {
        let p = P::PARAMS;
        let n = p.n;
        let bad = |why: String| Error::TreeCache(format!("for {}: {why}", P::NAME));
        if !uses_cache(&p) {
            return Err(bad("this set keeps no tree cache".into()));
        }
        let expected = Self::serialized_len(&p, P::NAME);
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a tree cache (wrong magic bytes)".into()));
        }
        let name_len = bytes[MAGIC.len()] as usize;
        let name = bytes.get(MAGIC.len() + 1..MAGIC.len() + 1 + name_len);
        if name != Some(P::NAME.as_bytes()) {
            let found = name.map_or("(truncated)".into(), |b| {
                String::from_utf8_lossy(b).into_owned()
            });
            return Err(bad(format!("it was made for {found}")));
        }
        if bytes.len() != expected {
            return Err(bad(format!(
                "{} bytes; expected {expected} (truncated or padded)",
                bytes.len()
            )));
        }
        let (body, sum) = bytes.split_at(expected - 32);
        if Sha256::digest(body).as_slice() != sum {
            return Err(bad("checksum mismatch (corrupted)".into()));
        }
        let mut at = MAGIC.len() + 1 + name_len;
        if body[at] as usize != CACHE_LEVEL {
            return Err(bad(format!("level {}; expected {CACHE_LEVEL}", body[at])));
        }
        at += 1;
        let cached_pk = PublicParts::from_raw(&body[at..at + 2 * n]);
        if cached_pk.pk_seed[..n] != pk.pk_seed[..n] || cached_pk.pk_root[..n] != pk.pk_root[..n] {
            return Err(bad("it belongs to another key".into()));
        }
        at += 2 * n;
        let nodes: Vec<Node> = body[at..]
            .chunks_exact(n)
            .map(|c| {
                let mut node = [0u8; crate::params::MAX_N];
                node[..n].copy_from_slice(c);
                node
            })
            .collect();
        let t = P::Hash::new(n, &pk.pk_seed[..n], None);
        let root = xmss_root_from_level::<P>(&t, &top_adrs(&p), CACHE_LEVEL, &nodes);
        if root[..n] != pk.pk_root[..n] {
            return Err(bad(
                "its nodes do not hash to the key's PK.root (wrong or stale)".into(),
            ));
        }
        Ok(TreeCache {
            name: P::NAME,
            pk: *pk,
            nodes,
        })
    }
}
