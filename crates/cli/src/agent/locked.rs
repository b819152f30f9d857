//! A value in memory that is never paged out: its heap allocation is locked
//! with mlock(2) for as long as it lives, and dropped (the keys of the core
//! wipe themselves when dropped) before it is unlocked and freed.
//!
//! The agent holds FIPS 205 keys only: their secret parts (`SK.seed`,
//! `SK.prf`) are inline in the key value, so locking the value's own
//! allocation locks them. (A draft SP 800-230 key's tree cache, public data,
//! lives in an allocation of its own and is not locked.)

use std::ffi::c_void;
use std::io;
use std::mem::{size_of, ManuallyDrop};

/// A value whose heap allocation is locked in memory.
pub struct Locked<T> {
    inner: Box<ManuallyDrop<T>>,
}

impl<T> Locked<T> {
    /// Moves `value` to the heap and locks it there; an error (the value
    /// dropped, so wiped) when the system refuses to lock it, e.g. beyond
    /// `ulimit -l`.
    pub fn new(value: T) -> io::Result<Locked<T>> {
        let mut inner = Box::new(ManuallyDrop::new(value));
        let ptr: *mut ManuallyDrop<T> = &mut *inner;
        // SAFETY: the range is the Box's own allocation (size_of::<T>()
        // bytes, the size of ManuallyDrop<T>), valid until `inner` is freed;
        // mlock only changes how the pages are kept, not their contents.
        let locked = unsafe { rustix::mm::mlock(ptr.cast::<c_void>(), size_of::<T>()) };
        if let Err(e) = locked {
            // SAFETY: the value was never dropped and is not used again.
            unsafe { ManuallyDrop::drop(&mut inner) };
            return Err(e.into());
        }
        Ok(Locked { inner })
    }
}

impl<T> std::ops::Deref for Locked<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> Drop for Locked<T> {
    fn drop(&mut self) {
        let ptr: *mut ManuallyDrop<T> = &mut *self.inner;
        // SAFETY: the value is dropped exactly once, here (ManuallyDrop keeps
        // the Box from dropping it again), while its pages are still locked;
        // then the range locked in `new` is unlocked, before the Box frees it.
        unsafe {
            ManuallyDrop::drop(&mut self.inner);
            let _ = rustix::mm::munlock(ptr.cast::<c_void>(), size_of::<T>());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static DROPS: AtomicUsize = AtomicUsize::new(0);

    struct Counted([u8; 64]);
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn locks_and_drops_once() {
        let before = DROPS.load(Ordering::SeqCst);
        let l = Locked::new(Counted([7; 64])).expect("a 64-byte value locks within any ulimit -l");
        assert_eq!(l.0[63], 7);
        drop(l);
        assert_eq!(DROPS.load(Ordering::SeqCst), before + 1);
    }
}
