//! What a thread count of 0 means at the bindings' boundary (the `sphincs`
//! command, Python, C): every core this process may use. One rule, here, so
//! that `--threads 0`, `threads=0` and `threads = 0` agree.

/// `n` threads, 0 meaning every core this process may use (at least 1).
/// ([`SignOptions::threads`](crate::SignOptions) itself keeps 0 = 1 thread.)
#[cfg(feature = "std")]
pub fn resolve_threads(n: usize) -> usize {
    if n == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        n
    }
}

/// Without the `std` feature there are no threads: every count is one.
#[cfg(not(feature = "std"))]
pub fn resolve_threads(_n: usize) -> usize {
    1
}

#[cfg(test)]
mod tests {
    #[test]
    fn zero_is_every_core() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(super::resolve_threads(0), cores);
        assert_eq!(super::resolve_threads(3), 3);
    }
}
