//! Streaming signing and verification: init, any number of updates, final.
//!
//! The core reads a message through its pull-style `MessageSource`; C pushes
//! it in pieces. A *pump* joins the two without holding the message: the core
//! runs on a worker thread, reading from a channel that `update` fills, so
//! memory stays at a few 64 KiB pieces. That works for every operation that
//! reads the message once: verification (pure or pre-hash) and pre-hash
//! signing. Pure signing reads the message twice (R = PRF_msg(SK.prf,
//! opt_rand, M) must be known before H_msg(R, PK.seed, PK.root, M) can
//! start), which no single pass can do: a pure signing stream keeps the
//! message in memory (wiped when done). For bounded memory there, sign with
//! a pre-hash, or give a rewindable source to `sphincs_sign_reader`.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

use sphincs_core::{Error, MessageSource};
use zeroize::Zeroizing;

use crate::ffi::{guard, input, non_null, output, Res};
use crate::keys::{borrow, free, give, sphincs_public_key, sphincs_secret_key};
use crate::last_error::{self, Noted};
use crate::options::{sphincs_prehash, sphincs_sign_options, Options, VerifyOptions};
use crate::panic_guard::guard_value;
use crate::sign::{reads_twice, sign_source, verify_source};
use crate::status::*;

/// Size of the pieces handed to the worker.
const CHUNK: usize = 64 * 1024;

enum Piece {
    Data(Vec<u8>),
    End,
}

/// The worker's view of the message: everything sent until `End`, once.
struct ChannelSource {
    rx: Receiver<Piece>,
    read: bool,
}

impl MessageSource for ChannelSource {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        if self.read {
            return Err(Error::Io("a streamed message can be read only once".into()));
        }
        self.read = true;
        loop {
            match self.rx.recv() {
                Ok(Piece::Data(d)) => sink(&d),
                Ok(Piece::End) => return Ok(()),
                Err(_) => return Err(Error::Io("the stream was abandoned".into())),
            }
        }
    }
}

/// The C side of a pump: pieces go in, the worker's result comes out.
struct Pump {
    tx: Option<SyncSender<Piece>>,
    /// The worker's result, with the core's text of its error (noted on
    /// the worker's thread, for the caller's last error message).
    worker: Option<JoinHandle<(Res<Vec<u8>>, Noted)>>,
    pending: Vec<u8>,
}

impl Pump {
    fn start<F>(job: F) -> Res<Pump>
    where
        F: FnOnce(&mut dyn MessageSource) -> Res<Vec<u8>> + Send + 'static,
    {
        // One piece in the channel and one being hashed: bounded memory,
        // and the caller can fill the next piece meanwhile.
        let (tx, rx) = sync_channel(1);
        let worker = std::thread::Builder::new()
            .name("sphincs-stream".into())
            .spawn(move || {
                let result = job(&mut ChannelSource { rx, read: false });
                (result, last_error::take_noted())
            })
            .map_err(|_| SPHINCS_ERR_INTERNAL)?;
        Ok(Pump {
            tx: Some(tx),
            worker: Some(worker),
            pending: Vec::with_capacity(CHUNK),
        })
    }

    /// The worker's result (it has finished or is finishing).
    fn join(&mut self) -> Res<Vec<u8>> {
        self.tx = None;
        match self.worker.take() {
            Some(w) => match w.join() {
                Ok((result, noted)) => {
                    last_error::renote(noted);
                    result
                }
                Err(_) => Err(SPHINCS_ERR_INTERNAL),
            },
            None => Err(SPHINCS_ERR_BAD_STATE),
        }
    }

    fn send(&mut self, piece: Piece) -> Res {
        let tx = self.tx.as_ref().ok_or(SPHINCS_ERR_BAD_STATE)?;
        if tx.send(piece).is_err() {
            // The worker stopped early (an oversize context, a wrong-length
            // signature): its error is the answer.
            self.join()?;
            return Err(SPHINCS_ERR_INTERNAL);
        }
        Ok(())
    }

    fn update(&mut self, mut data: &[u8]) -> Res {
        while !data.is_empty() {
            let take = (CHUNK - self.pending.len()).min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() == CHUNK {
                let full = core::mem::replace(&mut self.pending, Vec::with_capacity(CHUNK));
                self.send(Piece::Data(full))?;
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Res<Vec<u8>> {
        let rest = core::mem::take(&mut self.pending);
        if !rest.is_empty() {
            self.send(Piece::Data(rest))?;
        }
        self.send(Piece::End)?;
        self.join()
    }
}

impl Drop for Pump {
    fn drop(&mut self) {
        // Dropping the sender without `End` makes the worker fail at once;
        // wait for it so no thread outlives the stream with a key copy.
        if self.worker.is_some() {
            let _ = self.join();
        }
    }
}

enum SignState {
    /// Pure signing: the message kept for the two passes.
    Buffered {
        sk: Box<sphincs_secret_key>,
        opts: Options,
        msg: Zeroizing<Vec<u8>>,
    },
    /// Pre-hash signing: read once, through the pump.
    Pumped(Pump),
    /// Finished or failed.
    Done,
}

/// A signature being computed over a message given in pieces. Free with
/// `sphincs_sign_stream_free` (also after `sphincs_sign_final`).
#[allow(non_camel_case_types)]
pub struct sphincs_sign_stream {
    state: SignState,
    sig_len: usize,
}

/// A verification over a message given in pieces. Free with `sphincs_verify_stream_free`.
#[allow(non_camel_case_types)]
pub struct sphincs_verify_stream {
    state: Option<Pump>,
}

/// The stream behind the handle `stream`, for the length of one call;
/// `SPHINCS_ERR_NULL_POINTER` for NULL.
///
/// # Safety
/// `stream` is NULL or a live stream handle that no other thread is using.
unsafe fn live<'a, T>(stream: *mut T) -> Res<&'a mut T> {
    non_null(stream)?;
    // SAFETY: not NULL, and a live handle this thread alone uses (caller's contract).
    Ok(unsafe { &mut *stream })
}

/// Starts signing a message that will be given in pieces. The stream keeps
/// its own copy of `sk` (wiped when freed) and of `opts`. With a pre-hash in
/// `opts` or a HashSLH-DSA key, memory stays bounded (a few 64 KiB pieces);
/// pure signing (FIPS 205 without pre-hash, and round 3.1) holds the message
/// until `sphincs_sign_final`, because it reads it twice (see
/// `sphincs_sign_reader` for bounded memory there); so does SPHINCS-256,
/// whose core API takes the whole message.
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_init(
    sk: *const sphincs_secret_key,
    opts: *const sphincs_sign_options,
    stream: *mut *mut sphincs_sign_stream,
) -> sphincs_status {
    guard(|| {
        non_null(stream)?;
        // SAFETY: a live key handle; `opts` NULL or valid (API contract).
        let (sk, opts) = unsafe { (borrow(sk)?, Options::read(opts)?) };
        let sig_len = sk.0.algorithm().signature_len();
        let key = Box::new(sk.clone());
        // Refused now, not at the first read: what the key's family lacks.
        key.0.check_options(&opts.core())?;
        // One pass (a pre-hash, a HashSLH-DSA key, SPHINCS-256) streams into
        // the core; two passes buffer the message until the end.
        let single_pass = !reads_twice(&key, &opts);
        let state = if single_pass {
            SignState::Pumped(Pump::start(move |src| sign_source(&key, src, &opts))?)
        } else {
            SignState::Buffered {
                sk: key,
                opts,
                msg: Zeroizing::new(Vec::new()),
            }
        };
        // SAFETY: `stream` is writable by the API contract.
        unsafe { give(stream, sphincs_sign_stream { state, sig_len }) }
    })
}

/// Adds `len` bytes of the message. After an error (NULL `data` with a
/// nonzero `len`, …) the stream is finished (`SPHINCS_ERR_BAD_STATE` from
/// then on).
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_update(
    stream: *mut sphincs_sign_stream,
    data: *const u8,
    len: usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live stream handle, used by one thread at a time (API contract).
        let s = unsafe { live(stream)? };
        if matches!(s.state, SignState::Done) {
            return Err(SPHINCS_ERR_BAD_STATE);
        }
        // SAFETY: `data` holds `len` bytes by the API contract.
        let data = match unsafe { input(data, len) } {
            Ok(d) => d,
            Err(e) => {
                // A piece that cannot be read finishes the stream: carrying on
                // would sign or verify the message without it.
                s.state = SignState::Done;
                return Err(e);
            }
        };
        let result = match &mut s.state {
            SignState::Buffered { msg, .. } => {
                // Grow by hand so a reallocation never leaves an unwiped copy behind.
                if msg.capacity() - msg.len() < data.len() {
                    let mut bigger = Zeroizing::new(Vec::with_capacity(
                        (msg.len() + data.len()).max(2 * msg.capacity()),
                    ));
                    bigger.extend_from_slice(msg);
                    *msg = bigger;
                }
                msg.extend_from_slice(data);
                Ok(())
            }
            SignState::Pumped(p) => p.update(data),
            SignState::Done => return Err(SPHINCS_ERR_BAD_STATE),
        };
        if result.is_err() {
            s.state = SignState::Done;
        }
        result
    })
}

/// Finishes the signature: writes it to `sig` (capacity `sig_cap`) and its
/// length to `*sig_len`. A too-small buffer (`SPHINCS_ERR_BUFFER_TOO_SMALL`)
/// leaves the stream usable; any other outcome finishes it.
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_final(
    stream: *mut sphincs_sign_stream,
    sig: *mut u8,
    sig_cap: usize,
    sig_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live stream handle, used by one thread at a time (API contract).
        let s = unsafe { live(stream)? };
        non_null(sig_len)?;
        if matches!(s.state, SignState::Done) {
            return Err(SPHINCS_ERR_BAD_STATE);
        }
        if sig_cap < s.sig_len {
            // SAFETY: `sig_len` is writable by the API contract.
            unsafe { sig_len.write(s.sig_len) };
            return Err(SPHINCS_ERR_BUFFER_TOO_SMALL);
        }
        let signature = match core::mem::replace(&mut s.state, SignState::Done) {
            SignState::Buffered { sk, opts, msg } => sign_source(&sk, &mut &msg[..], &opts)?,
            SignState::Pumped(mut p) => p.finish()?,
            SignState::Done => unreachable!("checked above"),
        };
        // SAFETY: `sig` holds `sig_cap` writable bytes by the API contract.
        unsafe { output(sig, sig_cap, sig_len, &signature) }
    })
}

/// Frees a signing stream (finished or not), wiping its key copy and any
/// buffered message. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_stream_free(stream: *mut sphincs_sign_stream) {
    // `guard_value`, not `guard`: a free returns no status, so it leaves the
    // thread's last error message as the failed call before it set it.
    guard_value((), || {
        // SAFETY: NULL or a live handle from this library, freed once (API contract).
        unsafe { free(stream) };
    });
}

/// Starts verifying `sig` over a message that will be given in pieces, with
/// the context and pre-hash it was made with (as `sphincs_verify`). Memory
/// stays bounded (a few 64 KiB pieces) in every mode: verification reads the
/// message once. Except for SPHINCS-256: its core API takes the whole
/// message, which the stream's worker gathers in memory.
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_init(
    pk: *const sphincs_public_key,
    sig: *const u8,
    sig_len: usize,
    context: *const u8,
    context_len: usize,
    prehash: sphincs_prehash,
    stream: *mut *mut sphincs_verify_stream,
) -> sphincs_status {
    guard(|| {
        non_null(stream)?;
        non_null(sig)?;
        // SAFETY: a live key handle; pointers hold their lengths (API contract).
        let (pk, sig, opts) = unsafe {
            (
                borrow(pk)?,
                input(sig, sig_len)?.to_vec(),
                VerifyOptions::read(context, context_len, prehash)?,
            )
        };
        let key = Box::new(pk.clone());
        let pump = Pump::start(move |src| {
            verify_source(&key, src, &sig, &opts)?;
            Ok(Vec::new())
        })?;
        // SAFETY: `stream` is writable by the API contract.
        unsafe { give(stream, sphincs_verify_stream { state: Some(pump) }) }
    })
}

/// Adds `len` bytes of the message. After an error (NULL `data` with a
/// nonzero `len`, a signature of the wrong length found before any reading,
/// …) the stream is finished (`SPHINCS_ERR_BAD_STATE` from then on).
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_update(
    stream: *mut sphincs_verify_stream,
    data: *const u8,
    len: usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live stream handle, used by one thread at a time (API contract).
        let s = unsafe { live(stream)? };
        let pump = s.state.as_mut().ok_or(SPHINCS_ERR_BAD_STATE)?;
        // SAFETY: `data` holds `len` bytes by the API contract.
        let result = unsafe { input(data, len) }.and_then(|data| pump.update(data));
        if result.is_err() {
            s.state = None;
        }
        result
    })
}

/// Finishes: `SPHINCS_OK` if the signature is valid, else the error
/// `sphincs_verify` would give. The stream is finished afterwards.
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_final(
    stream: *mut sphincs_verify_stream,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live stream handle, used by one thread at a time (API contract).
        let s = unsafe { live(stream)? };
        let mut pump = s.state.take().ok_or(SPHINCS_ERR_BAD_STATE)?;
        pump.finish().map(drop)
    })
}

/// Frees a verification stream (finished or not). NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_stream_free(stream: *mut sphincs_verify_stream) {
    // `guard_value`, not `guard`: a free returns no status, so it leaves the
    // thread's last error message as the failed call before it set it.
    guard_value((), || {
        // SAFETY: NULL or a live handle from this library, freed once (API contract).
        unsafe { free(stream) };
    });
}
