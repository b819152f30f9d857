//! A cycle counter for benchmarks: the time-stamp counter on x86-64.
//!
//! On current x86-64 processors the TSC ticks at a constant rate (the base
//! clock), not at the core's actual clock, so under turbo or power saving
//! a "cycle" here is a unit of wall time, not a core cycle. It is still the
//! unit the SPHINCS+ and SUPERCOP literature reports.

/// The current value of the CPU's cycle counter, or `None` where this build
/// has none (every target other than x86-64).
pub fn cycle_counter() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC is part of the x86-64 baseline (every x86-64 CPU has
        // it); it reads a counter and touches no memory.
        let t = unsafe { core::arch::x86_64::_rdtsc() };
        Some(t)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::cycle_counter;

    #[test]
    fn counts_up_on_x86_64() {
        if cfg!(target_arch = "x86_64") {
            let a = cycle_counter().unwrap();
            let b = cycle_counter().unwrap();
            assert!(b >= a);
        } else {
            assert_eq!(cycle_counter(), None);
        }
    }
}
