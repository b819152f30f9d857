//! The step loop of the SHA-256 WOTS+ chain kernels (`f_chains_avx2_x8`,
//! `f_chains_avx512_x16`, wasm32's `f_chains_simd128_x4`), shared as a
//! macro over the vector width: how a step's blocks are built in registers
//! from the ADRSc words, the hash addresses and the previous values exists
//! in one place; each kernel supplies its vector operations and its 64
//! rounds, as the Keccak kernels do for `keccak_rounds!`.

/// The body of a chain kernel over vectors of L 32-bit lanes, with the
/// kernel's arguments `$seed: &[u32; 8]`, `$tmpl: &[u32; 16]`,
/// `$head: &[[u32; L]; 5]`, `$hash: &[u32; L]`, `$vals: &mut [[u32; L]; NW]`
/// and `$steps: u32` (their meaning: `sha256_avx512::f_chains_avx512_x16`),
/// `$nw` the kernel's `NW`. The operations, named by their functions:
/// `$set1(i32)` (broadcast), `$load(ptr)` and `$store(ptr, v)` (unaligned),
/// `$and`, `$or`, `$add` (32-bit lanes), `$srli::<16>`, `$slli::<16>`, and
/// `$rounds(v: [V; 8], w: [V; 16]) -> [V; 8]` (no feed-forward). Expanded
/// inside the kernel's function: on x86-64 an `unsafe fn` whose target
/// features the operations need; on wasm32 a safe one (SIMD128 is a
/// build-time feature there).
macro_rules! sha256_chain_steps {
    (
        $seed:ident, $tmpl:ident, $head:ident, $hash:ident, $vals:ident, $steps:ident, $nw:ident;
        $set1:ident, $load:ident, $store:ident, $and:ident, $or:ident, $add:ident,
        $srli:ident, $slli:ident, $rounds:ident
    ) => {{
        // Plain loops, not closures: a closure does not inherit the
        // kernel's target features, so its intrinsics would not inline.
        let mut init = [$set1(0); 8];
        for (r, &x) in init.iter_mut().zip($seed) {
            *r = $set1(x as i32);
        }
        let mut padding = [$set1(0); 16];
        for (r, &x) in padding.iter_mut().zip($tmpl) {
            *r = $set1(x as i32);
        }
        let mut adrs = [$set1(0); 5];
        for (r, x) in adrs.iter_mut().zip($head) {
            // SAFETY: `x` is a borrowed array of one vector's lanes (L u32s,
            // all readable); the load needs no alignment.
            *r = unsafe { $load(x.as_ptr().cast()) };
        }
        let word4 = $and(adrs[4], $set1(0xffff_0000_u32 as i32));
        // SAFETY: as above.
        let mut hs = unsafe { $load($hash.as_ptr().cast()) };
        let mut v = [$set1(0); $nw];
        for (r, x) in v.iter_mut().zip($vals.iter()) {
            // SAFETY: as above.
            *r = unsafe { $load(x.as_ptr().cast()) };
        }
        for _ in 0..$steps {
            // Words 0-3: ADRSc; 4: its chain address's low half and the
            // hash address's high half; 5: the hash address's low half and
            // the value's first two bytes; then the value shifted by two
            // bytes, and the template's padding and length.
            let mut w = padding;
            w[..4].copy_from_slice(&adrs[..4]);
            w[4] = $or(word4, $srli::<16>(hs));
            let mut carry = $slli::<16>(hs);
            for (i, x) in v.iter().enumerate() {
                w[5 + i] = $or(carry, $srli::<16>(*x));
                carry = $slli::<16>(*x);
            }
            w[5 + $nw] = $or(carry, padding[5 + $nw]);
            let out = $rounds(init, w);
            for (x, (o, i)) in v.iter_mut().zip(out.into_iter().zip(init)) {
                *x = $add(o, i);
            }
            hs = $add(hs, $set1(1));
        }
        for (dst, x) in $vals.iter_mut().zip(v) {
            // SAFETY: `dst` is a mutably borrowed array of one vector's lanes
            // (L u32s, all writable); the store needs no alignment.
            unsafe { $store(dst.as_mut_ptr().cast(), x) };
        }
    }};
}
pub(super) use sha256_chain_steps;
