//! The SLH-DSA test image for a Cortex-M4F, on the core built without std
//! or a heap (every set; the minimal one-set image is the C bootloader of
//! `crates/embedded-capi/example`). Started by qemu-system-arm (`-M
//! mps2-an386`, semihosting, `-icount shift=0`), it verifies the fixed
//! signatures of `vectors/` (SLH-DSA-SHA2-128s, SHAKE-128f, SHA2-192s and
//! SHAKE-256s),
//! checks that a copy with one bit flipped is rejected, measures the peak
//! stack of each verification by painting the free RAM below the stack
//! pointer first, and does the same for a verification under every FIPS 205
//! and SP 800-230 set (of an all-zero signature, rejected), holding each to
//! its limit and counting its instructions with SysTick. It also signs the
//! message with the SHAKE-128f vector's key through `sign_into` (no heap,
//! one thread) and checks that the signature is the checked-in one, and
//! that signing under a draft SP 800-230 set is refused (no heap, so no
//! tree cache). It exits through semihosting with status 0 only if every
//! check held.
//!
//! The startup is minimal: a vector table, a reset handler that turns on the
//! FPU (the target is hard-float) and sets up `.data` and `.bss`, and a fault
//! handler that reports and exits. `unsafe` here is the board's: startup,
//! semihosting calls, the stack paint and SysTick.
#![no_std]
#![no_main]

use core::fmt::Write;

use sphincs::{Error, ParameterSet, VerifyingKey};

const MESSAGE: &[u8] = include_bytes!("../vectors/message.txt");
const SHA2_128S_PK: &[u8] = include_bytes!("../vectors/sha2-128s.pk");
const SHA2_128S_SIG: &[u8; 7856] = include_bytes!("../vectors/sha2-128s.sig");
const SHAKE_128F_PK: &[u8] = include_bytes!("../vectors/shake-128f.pk");
const SHAKE_128F_SIG: &[u8; 17088] = include_bytes!("../vectors/shake-128f.sig");
const SHA2_192S_PK: &[u8] = include_bytes!("../vectors/sha2-192s.pk");
const SHA2_192S_SIG: &[u8; 16224] = include_bytes!("../vectors/sha2-192s.sig");
const SHAKE_256S_PK: &[u8] = include_bytes!("../vectors/shake-256s.pk");
const SHAKE_256S_SIG: &[u8; 29792] = include_bytes!("../vectors/shake-256s.sig");

/// The verify stack limits (issue 42): 2.5 KiB for the 128-bit FIPS 205
/// sets, 4 KiB for the 192- and 256-bit ones and every SP 800-230 set.
const STACK_LIMIT_128: usize = 2560;
const STACK_LIMIT: usize = 4096;

// ---------------------------------------------------------------- startup

core::arch::global_asm!(
    ".section .text.reset,\"ax\",%progbits",
    ".global reset",
    ".type reset,%function",
    ".thumb_func",
    "reset:",
    // CPACR: full access to CP10 and CP11 (the FPU) before any Rust code,
    // which the hard-float ABI lets use FPU registers.
    "    ldr r0, =0xE000ED88",
    "    ldr r1, [r0]",
    "    orr r1, r1, #0xF00000",
    "    str r1, [r0]",
    "    dsb",
    "    isb",
    "    b start",
    ".ltorg",
);

extern "C" {
    fn reset() -> !;
    static mut _sdata: u32;
    static mut _edata: u32;
    static _sidata: u32;
    static mut _sbss: u32;
    static mut _ebss: u32;
}

/// The reset vector; the initial stack pointer before it comes from link.x.
#[link_section = ".vector_table.reset"]
#[used]
static RESET: unsafe extern "C" fn() -> ! = reset;

/// NMI, HardFault, MemManage, BusFault, UsageFault, four reserved, SVCall,
/// DebugMonitor, reserved, PendSV, SysTick: all report and exit (none is
/// expected; no interrupt is enabled).
#[link_section = ".vector_table.exceptions"]
#[used]
static EXCEPTIONS: [unsafe extern "C" fn() -> !; 14] = [fault; 14];

unsafe extern "C" fn fault() -> ! {
    let _ = writeln!(Console::new(), "embedded-verify: FAIL: CPU fault");
    exit(102)
}

/// Called by `reset`: `.data` from its load image, `.bss` zeroed, then [`run`].
#[no_mangle]
unsafe extern "C" fn start() -> ! {
    // SAFETY: the linker script defines these symbols as word-aligned
    // bounds of .data (and its load image in flash) and of .bss, which no
    // Rust code has touched yet; copying and zeroing them word by word is
    // the C runtime's startup.
    unsafe {
        let (mut dst, end) = (&raw mut _sdata, &raw mut _edata);
        let mut src = &raw const _sidata;
        while dst < end {
            dst.write_volatile(src.read());
            dst = dst.add(1);
            src = src.add(1);
        }
        let (mut dst, end) = (&raw mut _sbss, &raw mut _ebss);
        while dst < end {
            dst.write_volatile(0);
            dst = dst.add(1);
        }
    }
    let ok = run(&mut Console::new());
    exit(if ok { 0 } else { 1 })
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let _ = writeln!(Console::new(), "embedded-verify: FAIL: panic: {info}");
    exit(101)
}

// ------------------------------------------------------------ semihosting

const SYS_WRITE0: usize = 0x04;
const SYS_EXIT_EXTENDED: usize = 0x20;
const ADP_STOPPED_APPLICATION_EXIT: usize = 0x20026;

/// One semihosting call: `bkpt 0xab` with the operation in r0 and its
/// argument in r1; the host's answer comes back in r0.
fn semihost(op: usize, arg: usize) -> usize {
    let ret;
    // SAFETY: the debugger (qemu's semihosting) handles the breakpoint and
    // reads only what `arg` points to for `op`, which the callers keep alive
    // across the call; no register but r0 changes.
    unsafe {
        core::arch::asm!("bkpt #0xab", inout("r0") op => ret, in("r1") arg, options(nostack));
    }
    ret
}

/// Ends the program with `code` as qemu's exit status.
fn exit(code: usize) -> ! {
    let block = [ADP_STOPPED_APPLICATION_EXIT, code];
    semihost(SYS_EXIT_EXTENDED, block.as_ptr() as usize);
    loop {
        core::hint::spin_loop();
    }
}

/// Text out through semihosting (`SYS_WRITE0`), a line at a time.
struct Console {
    buf: [u8; 128],
    len: usize,
}

impl Console {
    fn new() -> Self {
        Console {
            buf: [0; 128],
            len: 0,
        }
    }

    fn flush(&mut self) {
        if self.len > 0 {
            self.buf[self.len] = 0;
            semihost(SYS_WRITE0, self.buf.as_ptr() as usize);
            self.len = 0;
        }
    }
}

impl Write for Console {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len == self.buf.len() - 1 {
                self.flush();
            }
            self.buf[self.len] = b;
            self.len += 1;
            if b == b'\n' {
                self.flush();
            }
        }
        Ok(())
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.flush();
    }
}

// ------------------------------------------------------------ stack paint

const PAINT: u32 = 0x5AA5_C33C;

fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register; touches no memory.
    unsafe { core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack)) };
    sp
}

/// Runs `f` and returns what it returns with the deepest stack it used, in
/// bytes below this function's stack pointer: the free RAM between the end of
/// `.bss` and the stack pointer is painted first, and after `f` the lowest
/// word no longer painted marks the peak.
#[inline(never)]
fn peak_stack<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let sp = stack_pointer() & !3;
    // Only the address of the linker's symbol is taken (no access).
    let bottom = (&raw const _ebss) as usize;
    // SAFETY: [bottom, sp) is RAM that belongs to no Rust object: above it
    // are this function's frame and its callers', below it the statics; no
    // interrupt is enabled that could use it meanwhile. Volatile accesses
    // keep the paint and the scan in place.
    unsafe {
        let mut p = bottom as *mut u32;
        while (p as usize) < sp - 64 {
            p.write_volatile(PAINT);
            p = p.add(1);
        }
    }
    let r = core::hint::black_box(f)();
    // SAFETY: as above; `f` has returned, so the words are only read.
    let lowest = unsafe {
        let mut p = bottom as *const u32;
        while (p as usize) < sp - 64 && p.read_volatile() == PAINT {
            p = p.add(1);
        }
        p as usize
    };
    (r, sp - lowest)
}

// ------------------------------------------------------------ the checks

#[inline(never)]
fn verify<P: ParameterSet>(vk: &VerifyingKey<P>, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
    vk.verify(msg, sig, b"", None)
}

/// Verifies `sig` (must be valid) and a copy with one bit flipped (must be
/// rejected); prints both results and the peak stack.
fn check_vector<P: ParameterSet, const L: usize, const LIMIT: usize>(
    out: &mut Console,
    pk: &[u8],
    sig: &[u8; L],
) -> bool {
    let name = P::NAME;
    let vk = match VerifyingKey::<P>::from_bytes(pk) {
        Ok(vk) => vk,
        Err(e) => {
            let _ = writeln!(out, "{name}: FAIL: public key: {e}");
            return false;
        }
    };
    let (good, stack) = peak_stack(|| verify(&vk, MESSAGE, sig));
    let mut tampered = *sig;
    tampered[L / 2] ^= 0x01;
    let (bad, _) = peak_stack(|| verify(&vk, MESSAGE, &tampered));
    let ok = good.is_ok() && bad == Err(Error::InvalidSignature);
    let _ = writeln!(
        out,
        "{name}: fixed signature {}, tampered copy {}; verify stack {stack} bytes",
        if good.is_ok() { "valid" } else { "REJECTED" },
        if bad.is_err() { "rejected" } else { "ACCEPTED" },
    );
    ok && stack_within_limit::<P>(out, stack, LIMIT)
}

fn stack_within_limit<P: ParameterSet>(out: &mut Console, stack: usize, limit: usize) -> bool {
    if stack > limit {
        let _ = writeln!(out, "{}: FAIL: stack {stack} > {limit} bytes", P::NAME);
    }
    stack <= limit
}

/// The peak stack and the instruction count of verifying under set `P`
/// (an all-zero key and signature: the same hash calls as any but for the
/// WOTS+ chain lengths, which follow the digest; rejected), held to
/// `LIMIT` bytes of stack.
fn stack_of<P: ParameterSet, const LIMIT: usize>(out: &mut Console, cal: &Calibration) -> bool {
    static ZEROS: [u8; sphincs::MAX_SIGNATURE_LEN] = [0; sphincs::MAX_SIGNATURE_LEN];
    let p = P::PARAMS;
    let vk = match VerifyingKey::<P>::from_bytes(&ZEROS[..p.pk_bytes()]) {
        Ok(vk) => vk,
        Err(e) => {
            let _ = writeln!(out, "{}: FAIL: public key: {e}", P::NAME);
            return false;
        }
    };
    let ((r, ticks), stack) = peak_stack(|| {
        let start = systick::start();
        let r = verify(&vk, MESSAGE, &ZEROS[..p.sig_bytes()]);
        (r, systick::ticks_since(start))
    });
    let _ = writeln!(out, "stack {:<22} {stack:>6} bytes", P::NAME);
    match ticks {
        Some(t) => {
            let _ = writeln!(
                out,
                "instructions {:<22} {:>10}",
                P::NAME,
                cal.instructions(t)
            );
        }
        None => {
            let _ = writeln!(out, "{}: FAIL: SysTick wrapped while counting", P::NAME);
            return false;
        }
    }
    if r != Err(Error::InvalidSignature) {
        let _ = writeln!(out, "{}: FAIL: a zero signature gave {r:?}", P::NAME);
        return false;
    }
    stack_within_limit::<P>(out, stack, LIMIT)
}

// --------------------------------------------------- instruction counts

/// SysTick, the Cortex-M's 24-bit down-counter on the processor clock.
/// Under `qemu-system-arm -icount shift=0` the emulated clock advances one
/// nanosecond per executed instruction and the AN386's 25 MHz clock ticks
/// every 40 of them, so ticks count instructions (within one tick); on a
/// real chip they would count cycles.
mod systick {
    const CSR: *mut u32 = 0xE000_E010 as *mut u32;
    const RVR: *mut u32 = 0xE000_E014 as *mut u32;
    const CVR: *mut u32 = 0xE000_E018 as *mut u32;
    const COUNTFLAG: u32 = 1 << 16;

    /// Restarts the counter from its top, no interrupt; returns its value.
    pub fn start() -> u32 {
        // SAFETY: the SysTick registers of the Cortex-M system control
        // space, always present; no other code uses SysTick, and no
        // interrupt is enabled (TICKINT stays 0).
        unsafe {
            RVR.write_volatile(0x00FF_FFFF);
            CVR.write_volatile(0);
            CSR.write_volatile(0b101); // processor clock, enabled
                                       // The first tick loads the reload value; wait for it.
            let mut now = CVR.read_volatile();
            while now == 0 {
                now = CVR.read_volatile();
            }
            let _ = CSR.read_volatile(); // clears COUNTFLAG
            now
        }
    }

    /// Ticks since `start`, or `None` if the counter wrapped meanwhile.
    pub fn ticks_since(start: u32) -> Option<u32> {
        // SAFETY: as in `start`: reads of SysTick's registers.
        let (now, csr) = unsafe { (CVR.read_volatile(), CSR.read_volatile()) };
        (csr & COUNTFLAG == 0).then(|| start.wrapping_sub(now) & 0x00FF_FFFF)
    }
}

/// Instructions per SysTick tick, from a loop of known length.
struct Calibration {
    instructions: u64,
    ticks: u64,
}

impl Calibration {
    /// Two instructions per round (`subs`, `bne`).
    const ROUNDS: u32 = 1_000_000;

    fn measure() -> Option<Self> {
        let start = systick::start();
        // SAFETY: a register-only countdown loop; touches no memory.
        unsafe {
            core::arch::asm!(
                "2:",
                "subs {n}, {n}, #1",
                "bne 2b",
                n = inout(reg) Self::ROUNDS => _,
                options(nomem, nostack),
            );
        }
        let ticks = systick::ticks_since(start)?;
        (ticks > 0).then_some(Calibration {
            instructions: 2 * u64::from(Self::ROUNDS),
            ticks: u64::from(ticks),
        })
    }

    fn instructions(&self, ticks: u32) -> u64 {
        (u64::from(ticks) * self.instructions + self.ticks / 2) / self.ticks
    }
}

/// Signs the message with the SHAKE-128f vector's key (from its seeds,
/// deterministically) into a buffer with `sign_into`, the heap-free signing,
/// and checks the result is the checked-in signature byte for byte.
fn check_signing(out: &mut Console) -> bool {
    use sphincs::{Randomness, Shake128f, SignOptions, SigningKey};
    let sk = match SigningKey::<Shake128f>::from_seeds(&[0x11; 16], &[0x22; 16], &[0x33; 16]) {
        Ok(sk) => sk,
        Err(e) => {
            let _ = writeln!(out, "sign: FAIL: key from seeds: {e}");
            return false;
        }
    };
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    let mut sig = [0u8; 17088];
    let (r, stack) = peak_stack(|| sign_into(&sk, &opts, &mut sig));
    let same = r.is_ok() && sig == *SHAKE_128F_SIG;
    let _ = writeln!(
        out,
        "{}: sign_into {} the fixed signature; sign stack {stack} bytes",
        <Shake128f as sphincs::Instance>::NAME,
        match (&r, same) {
            (Ok(()), true) => "reproduces",
            (Ok(()), false) => "DIFFERS FROM",
            (Err(_), _) => "FAILED, no",
        }
    );
    if let Err(e) = r {
        let _ = writeln!(out, "sign: FAIL: {e}");
    }
    same
}

/// Without a heap there is no tree cache, so signing under a draft SP 800-230
/// set must be refused at once (not a 2^22-leaf rebuild per signature), with
/// the output buffer wiped.
fn refuses_one_tree_signing(out: &mut Console) -> bool {
    use sphincs::{Randomness, Sha2_128_24, SignOptions, SigningKey};
    let sk = match SigningKey::<Sha2_128_24>::from_bytes_unchecked(&[0x44; 64]) {
        Ok(sk) => sk,
        Err(e) => {
            let _ = writeln!(out, "sign SP 800-230: FAIL: key: {e}");
            return false;
        }
    };
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    let mut sig = [0xa5u8; 3856];
    let r = sign_into(&sk, &opts, &mut sig);
    let refused = matches!(r, Err(Error::Unsupported { .. })) && sig.iter().all(|&b| b == 0);
    let _ = writeln!(
        out,
        "{}: sign_into without a heap {}",
        <Sha2_128_24 as sphincs::Instance>::NAME,
        if refused {
            "refused, buffer wiped"
        } else {
            "FAIL: not refused cleanly"
        }
    );
    refused
}

#[inline(never)]
fn sign_into<P: ParameterSet>(
    sk: &sphincs::SigningKey<P>,
    opts: &sphincs::SignOptions<'_>,
    sig: &mut [u8],
) -> Result<(), Error> {
    sk.sign_into(MESSAGE, opts, sig)
}

fn run(out: &mut Console) -> bool {
    let _ = writeln!(
        out,
        "embedded-verify: SLH-DSA on a Cortex-M4F (no_std, no heap)"
    );
    let ok = {
        use sphincs::*;
        let mut ok =
            check_vector::<Sha2_128s, 7856, STACK_LIMIT_128>(out, SHA2_128S_PK, SHA2_128S_SIG);
        ok &= check_vector::<Shake128f, 17088, STACK_LIMIT_128>(out, SHAKE_128F_PK, SHAKE_128F_SIG);
        ok &= check_vector::<Sha2_192s, 16224, STACK_LIMIT>(out, SHA2_192S_PK, SHA2_192S_SIG);
        ok &= check_vector::<Shake256s, 29792, STACK_LIMIT>(out, SHAKE_256S_PK, SHAKE_256S_SIG);
        let Some(cal) = Calibration::measure() else {
            let _ = writeln!(out, "embedded-verify: FAIL: SysTick does not count");
            return false;
        };
        let _ = writeln!(
            out,
            "calibration: {} instructions in {} SysTick ticks",
            cal.instructions, cal.ticks
        );
        const S: usize = STACK_LIMIT_128;
        const L: usize = STACK_LIMIT;
        for f in [
            stack_of::<Sha2_128s, S>,
            stack_of::<Sha2_128f, S>,
            stack_of::<Sha2_192s, L>,
            stack_of::<Sha2_192f, L>,
            stack_of::<Sha2_256s, L>,
            stack_of::<Sha2_256f, L>,
            stack_of::<Shake128s, S>,
            stack_of::<Shake128f, S>,
            stack_of::<Shake192s, L>,
            stack_of::<Shake192f, L>,
            stack_of::<Shake256s, L>,
            stack_of::<Shake256f, L>,
            stack_of::<Sha2_128_24, L>,
            stack_of::<Sha2_192_24, L>,
            stack_of::<Sha2_256_24, L>,
            stack_of::<Shake128_24, L>,
            stack_of::<Shake192_24, L>,
            stack_of::<Shake256_24, L>,
        ] {
            ok &= f(out, &cal);
        }
        ok &= check_signing(out);
        ok &= refuses_one_tree_signing(out);
        ok
    };
    let _ = writeln!(out, "embedded-verify: {}", if ok { "ok" } else { "FAIL" });
    ok
}
