//! Declassification points for constant-time checking (`crates/ct-check`).
//!
//! A constant-time checker (valgrind memcheck with the secret key marked
//! undefined) reports every branch and memory index that depends on secret
//! data. Some values computed from secrets are public by construction: the
//! signature reveals them, or the verifier recomputes them from public inputs.
//! The signing code hands each such value to `declassify` right where it is
//! computed, before anything branches on it; the checker's hook marks it
//! defined again.
//!
//! Without the `ct-check` feature `declassify` is an empty inline function
//! and the hook does not exist: the default build contains none of this.

/// The hook a checker installs: called with each value that is public by
/// construction. The slice is `&mut` so that the compiler reloads the value
/// from memory after the call instead of reusing a register copy, which a
/// memory-level checker would still see as secret.
#[cfg(feature = "ct-check")]
pub type DeclassifyHook = fn(&mut [u8]);

#[cfg(feature = "ct-check")]
static HOOK: std::sync::OnceLock<DeclassifyHook> = std::sync::OnceLock::new();

/// Installs the declassification hook (once per process; later calls are
/// ignored and return `false`). For constant-time test harnesses only.
#[cfg(feature = "ct-check")]
#[doc(hidden)]
pub fn set_declassify_hook(hook: DeclassifyHook) -> bool {
    HOOK.set(hook).is_ok()
}

/// Marks `x`, computed from secret data, as public by construction.
#[cfg(feature = "ct-check")]
pub(crate) fn declassify(x: &mut [u8]) {
    if let Some(hook) = HOOK.get() {
        hook(x);
    }
}

/// Marks `x`, computed from secret data, as public by construction (a no-op
/// without the `ct-check` feature).
#[cfg(not(feature = "ct-check"))]
#[inline(always)]
pub(crate) fn declassify(_x: &mut [u8]) {}
