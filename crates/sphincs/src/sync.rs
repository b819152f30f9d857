//! The few threading primitives the tree code uses (`scope`, `Mutex`,
//! `Condvar`): `std`'s with the `std` feature; without it, one-thread
//! stand-ins with the same shape, so the algorithm code is the same in both
//! builds. Without `std`, a spawned job runs at once on the caller's thread,
//! so a job that takes tasks from a shared queue takes all of them in order,
//! as the one-thread path does; no job ever waits for another.

#[cfg(feature = "std")]
pub(crate) use std::sync::{Condvar, Mutex, MutexGuard};
#[cfg(feature = "std")]
pub(crate) use std::thread::scope;

#[cfg(not(feature = "std"))]
pub(crate) use single::{scope, Condvar, Mutex, MutexGuard};

#[cfg(not(feature = "std"))]
mod single {
    use core::cell::{RefCell, RefMut};
    use core::convert::Infallible;
    use core::marker::PhantomData;

    /// Runs `f` with a scope whose `spawn` runs each job at once.
    pub(crate) fn scope<T>(f: impl FnOnce(&Scope) -> T) -> T {
        f(&Scope)
    }

    /// See [`scope`].
    pub(crate) struct Scope;

    impl Scope {
        /// Runs `job` now, on this thread.
        pub(crate) fn spawn(&self, job: impl FnOnce()) {
            job();
        }
    }

    /// A lock with one thread: a `RefCell`.
    pub(crate) struct Mutex<T>(RefCell<T>);

    /// What [`Mutex::lock`] gives.
    pub(crate) type MutexGuard<'a, T> = RefMut<'a, T>;

    /// `std`'s poisoning, which cannot happen with one thread.
    pub(crate) struct Poisoned<G>(Infallible, PhantomData<G>);

    impl<G> Poisoned<G> {
        pub(crate) fn into_inner(self) -> G {
            match self.0 {}
        }
    }

    impl<T> Mutex<T> {
        pub(crate) const fn new(value: T) -> Self {
            Mutex(RefCell::new(value))
        }

        pub(crate) fn lock(&self) -> Result<MutexGuard<'_, T>, Poisoned<MutexGuard<'_, T>>> {
            Ok(self.0.borrow_mut())
        }

        #[allow(dead_code)]
        pub(crate) fn into_inner(self) -> Result<T, Poisoned<T>> {
            Ok(self.0.into_inner())
        }
    }

    /// A condition variable with one thread: nothing else can make a
    /// condition true while we wait, so a wait is a bug in the caller.
    pub(crate) struct Condvar;

    impl Condvar {
        pub(crate) const fn new() -> Self {
            Condvar
        }

        pub(crate) fn notify_all(&self) {}

        pub(crate) fn wait<'a, T>(
            &self,
            _guard: MutexGuard<'a, T>,
        ) -> Result<MutexGuard<'a, T>, Poisoned<MutexGuard<'a, T>>> {
            unreachable!("one thread takes the tasks in order: a task never waits")
        }
    }
}
