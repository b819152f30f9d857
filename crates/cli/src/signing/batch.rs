//! `sign` and `verify` over many files: `FILE.sig` beside each file (or in
//! `--out-dir` / `--sig-dir`), through the library's batch APIs on every core.
//!
//! Files are read into memory in groups of bounded total size; a file too
//! large for that is streamed on its own, with all threads inside its
//! signature. Outputs are staged and moved into place only after every
//! signature exists, so an error leaves no signature file behind. A progress
//! bar goes to standard error when it is a terminal.

use std::collections::HashSet;
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sphincs::any::{self, AnySigner, AnySigningKey, AnyVerifyItem, AnyVerifyingKey};
use sphincs::{Error, MessageSource, PreHash, SignOptions};

use crate::error::CliError;
use crate::files::quote;
use crate::files::read;
use crate::files::read::{read_file, Message};
use crate::files::write::{check_writable, stage, write_stdout, FileKeys, Staged};
use crate::signing::likely_cause;

/// Files larger than this are streamed one at a time (bounded memory).
const STREAM_ABOVE: u64 = 64 << 20;
/// Total bytes of the files held in memory at once.
const GROUP_BYTES: u64 = 256 << 20;
/// Files at or above this size get a byte-progress bar of their own.
const BIG_FILE: u64 = 256 << 20;

/// A signing key of any family with its options; the core refuses what the
/// family lacks.
pub struct Signer<'a> {
    pub key: AnySigningKey,
    pub opts: SignOptions<'a>,
}

/// A verifying key of any family, with the context and pre-hash to check
/// under (FIPS 205 only; the core refuses them for the other families).
pub struct Checker<'a> {
    pub key: AnyVerifyingKey,
    pub context: &'a [u8],
    pub prehash: Option<PreHash>,
}

impl Signer<'_> {
    fn batch(&self, msgs: &[&[u8]], threads: usize) -> Result<Vec<Vec<u8>>, Error> {
        let opts = SignOptions {
            threads,
            ..self.opts
        };
        self.key.sign_batch(msgs, &opts)
    }

    fn stream(&self, msg: &mut dyn MessageSource, threads: usize) -> Result<Vec<u8>, Error> {
        let opts = SignOptions {
            threads,
            ..self.opts
        };
        self.key.sign_stream(msg, &opts)
    }

    /// How many times signing reads the message (for the byte progress bar).
    fn passes(&self) -> u64 {
        sign_passes(&self.key, &self.opts)
    }
}

impl Checker<'_> {
    fn batch(&self, msgs: &[&[u8]], sigs: &[&[u8]], threads: usize) -> Vec<Result<(), Error>> {
        let items: Vec<AnyVerifyItem> = msgs
            .iter()
            .zip(sigs)
            .map(|(message, signature)| AnyVerifyItem {
                key: &self.key,
                message,
                signature,
                context: self.context,
                prehash: self.prehash,
            })
            .collect();
        any::verify_batch(&items, threads)
    }

    fn stream(&self, msg: &mut dyn MessageSource, sig: &[u8]) -> Result<(), Error> {
        self.key.verify_stream(msg, sig, self.context, self.prehash)
    }

    /// Verification reads the message once (H_msg), pure or pre-hashed.
    fn passes(&self) -> u64 {
        VERIFY_PASSES
    }
}

/// How many times verification reads the message: once, for H_msg.
pub const VERIFY_PASSES: u64 = 1;

/// How many times signing with `key` and `opts` reads the message: twice
/// (PRF_msg, then H_msg) when the core says so, else once.
pub fn sign_passes(key: &dyn AnySigner, opts: &SignOptions<'_>) -> u64 {
    if key.verifying_key().signing_reads_message_twice(opts) {
        2
    } else {
        1
    }
}

/// Where the signature of `file` lives: `FILE.sig`, or `DIR/NAME.sig`.
pub(crate) fn sig_path(file: &Path, dir: Option<&Path>) -> Result<PathBuf, CliError> {
    let name = file
        .file_name()
        .ok_or_else(|| CliError::file(file, "is not a file name"))?;
    let mut sig_name = name.to_os_string();
    sig_name.push(".sig");
    Ok(match dir {
        Some(d) => d.join(sig_name),
        None => file.with_file_name(sig_name),
    })
}

/// The files, refusing standard input (several outputs need several names).
fn check_files(files: &[PathBuf]) -> Result<(), CliError> {
    if files.iter().any(|f| f.as_os_str() == "-") {
        return Err(CliError::Failed(
            "standard input (-) cannot be one of several files; sign it alone".into(),
        ));
    }
    Ok(())
}

/// A file's size, or the error that reading it would give: a directory,
/// FIFO or device (what a symlink names) is refused before it is opened
/// (opening a FIFO blocks, a device may never end); [`read_file`] checks
/// the opened descriptor again.
fn size_of(path: &Path) -> Result<u64, CliError> {
    let meta = fs::metadata(path).map_err(|e| CliError::file(path, format!("cannot read: {e}")))?;
    if meta.is_dir() {
        return Err(CliError::file(path, "is a directory"));
    }
    if !meta.is_file() {
        return Err(read::not_regular_in_batch(path));
    }
    Ok(meta.len())
}

/// Consecutive runs of small files whose sizes add up to at most
/// [`GROUP_BYTES`], and each large file alone (`true`: stream it).
fn groups(sizes: &[u64]) -> Vec<(std::ops::Range<usize>, bool)> {
    let mut out = Vec::new();
    let (mut start, mut total) = (0, 0u64);
    for (i, &s) in sizes.iter().enumerate() {
        if s > STREAM_ABOVE {
            if start < i {
                out.push((start..i, false));
            }
            out.push((i..i + 1, true));
            (start, total) = (i + 1, 0);
            continue;
        }
        if total + s > GROUP_BYTES && start < i {
            out.push((start..i, false));
            (start, total) = (i, 0);
        }
        total += s;
    }
    if start < sizes.len() {
        out.push((start..sizes.len(), false));
    }
    out
}

/// A bar counting files, shown only on a terminal and for more than one file.
fn files_bar(count: usize, verb: &str) -> ProgressBar {
    if count < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(count as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{verb} {{bar:40}} {{pos}}/{{len}} files {{eta}}"))
    {
        bar.set_style(style);
    }
    bar
}

/// Set (to anything) by the tests: every byte bar is kept, hidden, whatever
/// the file's size, and its count and total are printed to standard error
/// when it ends, so a test can compare the total with the bytes read.
const REPORT_ENV: &str = "SPHINCS_PROGRESS_REPORT";

/// A bar counting the bytes hashed of one big file, on a terminal only;
/// its total is the file's size times the passes the operation reads it.
fn bytes_bar(path: &Path, size: u64, passes: u64) -> ProgressBar {
    if std::env::var_os(REPORT_ENV).is_some() {
        return ProgressBar::with_draw_target(Some(size * passes), ProgressDrawTarget::hidden());
    }
    if size < BIG_FILE || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(size * passes), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{} {{bar:40}} {{bytes}}/{{total_bytes}} {{eta}}",
        quote::name(&path)
    )) {
        bar.set_style(style);
    }
    bar
}

/// Ends a byte bar (see [`REPORT_ENV`]).
fn finish_bytes_bar(bar: &ProgressBar, path: &Path) {
    if std::env::var_os(REPORT_ENV).is_some() {
        eprintln!(
            "progress {}: {} of {} bytes",
            quote::name(&path),
            bar.position(),
            bar.length().unwrap_or(0)
        );
    }
    bar.finish_and_clear();
}

/// A message stream that advances a progress bar as it is read.
struct Ticking<'a> {
    inner: &'a mut dyn MessageSource,
    bar: &'a ProgressBar,
}

impl MessageSource for Ticking<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        let bar = self.bar;
        self.inner.feed(&mut |chunk| {
            bar.inc(chunk.len() as u64);
            sink(chunk)
        })
    }
}

/// Runs `f` on `message`'s stream, with a byte progress bar when the
/// message is a file over 256 MiB and standard error is a terminal
/// (single-file `sign` and `verify`).
pub fn with_progress<R>(
    message: &mut Message,
    file: Option<&Path>,
    passes: u64,
    f: impl FnOnce(&mut dyn MessageSource) -> R,
) -> R {
    let (Some(path), Some(size)) = (file, message.file_len()) else {
        return f(message.source());
    };
    let bar = bytes_bar(path, size, passes);
    let r = f(&mut Ticking {
        inner: message.source(),
        bar: &bar,
    });
    finish_bytes_bar(&bar, path);
    r
}

/// How many messages go to one batch call: enough to fill every thread a few
/// times over, few enough for the bar to move.
fn chunk_len(threads: usize) -> usize {
    4 * threads.max(1)
}

/// Signs every file; writes `FILE.sig` (or `out_dir/NAME.sig`) for each, all
/// or nothing. A missing `out_dir` is created (and removed again, if still
/// empty, when signing fails).
pub fn sign(
    signer: &Signer<'_>,
    files: &[PathBuf],
    out_dir: Option<&Path>,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    check_files(files)?;
    // Every signature's path is named before a directory is made for them.
    let targets = files
        .iter()
        .map(|f| sig_path(f, out_dir))
        .collect::<Result<Vec<_>, _>>()?;
    let created = match out_dir {
        Some(d) if fs::symlink_metadata(d).is_err() => {
            fs::create_dir_all(d).map_err(|e| CliError::file(d, format!("cannot create: {e}")))?;
            Some(d)
        }
        _ => None,
    };
    let result = sign_into(signer, files, &targets, force, threads);
    if let (Err(_), Some(d)) = (&result, created) {
        let _ = fs::remove_dir(d);
    }
    result
}

/// Signs `files[i]` into `targets[i]` for every i, all or nothing.
fn sign_into(
    signer: &Signer<'_>,
    files: &[PathBuf],
    targets: &[PathBuf],
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    // Each path resolved once and compared through sets: linear in the
    // number of files (comparing every pair took a minute for 1000).
    let mut keys = FileKeys::default();
    let (mut input_paths, mut input_ids) = (HashSet::new(), HashSet::new());
    for f in files {
        let (path, id) = keys.of(f);
        input_paths.insert(path);
        input_ids.extend(id);
    }
    let (mut target_paths, mut target_ids) = (HashSet::new(), HashSet::new());
    for t in targets {
        let (path, id) = keys.of(t);
        if input_paths.contains(&path) || id.is_some_and(|id| input_ids.contains(&id)) {
            return Err(CliError::file(t, "is one of the files to sign"));
        }
        if !target_paths.insert(path) || id.is_some_and(|id| !target_ids.insert(id)) {
            return Err(CliError::file(
                t,
                "would be written twice (two files of the same name)",
            ));
        }
        check_writable(t, force)?;
    }
    let sizes = files
        .iter()
        .map(|f| size_of(f))
        .collect::<Result<Vec<_>, _>>()?;
    let bar = files_bar(files.len(), "signing");
    let mut staged: Vec<Staged> = Vec::with_capacity(files.len());
    for (range, streamed) in groups(&sizes) {
        if streamed {
            let i = range.start;
            let mut message = Message::open(Some(&files[i]))?;
            let big = bytes_bar(&files[i], sizes[i], signer.passes());
            let sig = signer
                .stream(
                    &mut Ticking {
                        inner: message.source(),
                        bar: &big,
                    },
                    threads,
                )
                .map_err(|e| CliError::file(&files[i], e))?;
            finish_bytes_bar(&big, &files[i]);
            staged.push(stage(&targets[i], &sig, false)?);
            bar.inc(1);
            continue;
        }
        let contents = files[range.clone()]
            .iter()
            .map(|f| read_file(f))
            .collect::<Result<Vec<_>, _>>()?;
        let msgs: Vec<&[u8]> = contents.iter().map(Vec::as_slice).collect();
        for (k, chunk) in msgs.chunks(chunk_len(threads)).enumerate() {
            let sigs = signer.batch(chunk, threads)?;
            for (j, sig) in sigs.iter().enumerate() {
                let i = range.start + k * chunk_len(threads) + j;
                staged.push(stage(&targets[i], sig, false)?);
            }
            bar.inc(chunk.len() as u64);
        }
    }
    bar.finish_and_clear();
    commit_all(staged, targets, force)?;
    let mut out = String::new();
    for (f, t) in files.iter().zip(targets) {
        out.push_str(&format!(
            "{}: signed, {}\n",
            quote::name(&f),
            quote::name(&t)
        ));
    }
    crate::say::status(&out)
}

/// Moves every staged signature into place; if one fails, removes those
/// already moved (files that did not exist before, unless `force`).
fn commit_all(staged: Vec<Staged>, targets: &[PathBuf], force: bool) -> Result<(), CliError> {
    for (done, s) in staged.into_iter().enumerate() {
        if let Err(e) = s.commit(force) {
            if !force {
                for t in &targets[..done] {
                    let _ = fs::remove_file(t);
                }
            }
            return Err(e);
        }
    }
    Ok(())
}

/// One file's outcome in `verify`.
enum Outcome {
    Valid,
    Invalid(String),
    Failed(String),
}

/// Splits the inputs of a many-file `verify` into the messages and the
/// inputs that are another input's signature file (`dist/*` holding `x`
/// and `x.sig`): those are skipped, not checked against `x.sig.sig`.
pub fn split_signatures(files: &[PathBuf], sig_dir: Option<&Path>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let sigs: std::collections::HashSet<PathBuf> = files
        .iter()
        .filter_map(|f| sig_path(f, sig_dir).ok())
        .collect();
    files.iter().cloned().partition(|f| !sigs.contains(f))
}

/// The same split with another naming of signature files (`FILE.asc`).
pub fn split_by(
    files: &[PathBuf],
    sig_of: impl Fn(&Path) -> PathBuf,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let sigs: std::collections::HashSet<PathBuf> = files.iter().map(|f| sig_of(f)).collect();
    files.iter().cloned().partition(|f| !sigs.contains(f))
}

/// The note on standard error for the inputs [`split_signatures`] skipped.
pub fn say_skipped(skipped: &[PathBuf]) {
    if let (Some(first), false) = (skipped.first(), crate::say::quiet()) {
        eprintln!(
            "sphincs: note: skipped {} ({}{})",
            if skipped.len() == 1 {
                "1 input that is the signature file of another input".to_string()
            } else {
                format!(
                    "{} inputs that are the signature files of other inputs",
                    skipped.len()
                )
            },
            quote::name(first),
            if skipped.len() > 1 { ", …" } else { "" }
        );
    }
}

/// Verifies every file against `FILE.sig` (or `sig_dir/NAME.sig`): one line
/// per file; exit status 2 if any file could not be checked, else 1 if any
/// signature is invalid.
pub fn verify(
    checker: &Checker<'_>,
    files: &[PathBuf],
    sig_dir: Option<&Path>,
    threads: usize,
) -> Result<(), CliError> {
    check_files(files)?;
    if let Some(d) = sig_dir.filter(|d| !d.is_dir()) {
        return Err(CliError::file(
            d,
            "is not a directory (--sig-dir names where the FILE.sig files are)",
        ));
    }
    // Sizes first (a missing FILE is named, not its FILE.sig); signatures
    // and contents are read a chunk at a time, just before they are checked,
    // so memory stays at one chunk's worth however many files are named.
    let mut outcomes: Vec<Option<Outcome>> = (0..files.len()).map(|_| None).collect();
    let mut sizes = vec![0u64; files.len()];
    for (i, f) in files.iter().enumerate() {
        match size_of(f) {
            Ok(n) => sizes[i] = n,
            Err(e) => outcomes[i] = Some(unreadable(f, e)),
        }
    }
    let signature = |f: &Path| sig_path(f, sig_dir).and_then(|p| read::read_signature(&p));
    let pending: Vec<usize> = (0..files.len())
        .filter(|&i| outcomes[i].is_none())
        .collect();
    let pending_sizes: Vec<u64> = pending.iter().map(|&i| sizes[i]).collect();
    let bar = files_bar(pending.len(), "verifying");
    for (range, streamed) in groups(&pending_sizes) {
        let idx = &pending[range];
        if streamed {
            let i = idx[0];
            let sig = match signature(&files[i]) {
                Ok(sig) => sig,
                Err(e) => {
                    outcomes[i] = Some(unreadable(&files[i], e));
                    bar.inc(1);
                    continue;
                }
            };
            let big = bytes_bar(&files[i], sizes[i], checker.passes());
            outcomes[i] = Some(match Message::open(Some(&files[i])) {
                Ok(mut message) => {
                    let mut src = Ticking {
                        inner: message.source(),
                        bar: &big,
                    };
                    classify(checker.stream(&mut src, &sig))
                }
                Err(CliError::Failed(why) | CliError::InvalidSignature(why)) => {
                    Outcome::Failed(why)
                }
            });
            finish_bytes_bar(&big, &files[i]);
            bar.inc(1);
            continue;
        }
        // Unreadable files fail alone; the rest of a chunk is verified together.
        for chunk in idx.chunks(chunk_len(threads)) {
            let (mut ready, mut contents, mut sigs) = (Vec::new(), Vec::new(), Vec::new());
            for &i in chunk {
                let sig = match signature(&files[i]) {
                    Ok(sig) => sig,
                    Err(e) => {
                        outcomes[i] = Some(unreadable(&files[i], e));
                        continue;
                    }
                };
                match read_file(&files[i]) {
                    Ok(c) => {
                        ready.push(i);
                        contents.push(c);
                        sigs.push(sig);
                    }
                    Err(CliError::Failed(why) | CliError::InvalidSignature(why)) => {
                        outcomes[i] = Some(Outcome::Failed(why))
                    }
                }
            }
            let msgs: Vec<&[u8]> = contents.iter().map(Vec::as_slice).collect();
            let sig_refs: Vec<&[u8]> = sigs.iter().map(Vec::as_slice).collect();
            for (&i, r) in ready.iter().zip(checker.batch(&msgs, &sig_refs, threads)) {
                outcomes[i] = Some(classify(r));
            }
            bar.inc(chunk.len() as u64);
        }
    }
    bar.finish_and_clear();
    report(files, outcomes, sig_dir)
}

/// The outcome for a file whose message or signature could not be read: an
/// over-long signature is invalid, anything else a failure. The line names
/// the file already, so the error's own copy of the name is dropped.
fn unreadable(f: &Path, e: CliError) -> Outcome {
    let invalid = matches!(e, CliError::InvalidSignature(_));
    let (CliError::Failed(why) | CliError::InvalidSignature(why)) = e;
    let prefix = format!("{}: ", quote::name(&f));
    let why = why
        .strip_prefix(&prefix)
        .map_or(why.clone(), str::to_string);
    if invalid {
        Outcome::Invalid(why)
    } else {
        Outcome::Failed(why)
    }
}

/// The outcome's text for a signature of the right length that did not verify.
const MISMATCH: &str = "invalid signature";

fn classify(r: Result<(), Error>) -> Outcome {
    match r {
        Ok(()) => Outcome::Valid,
        Err(Error::InvalidSignature) => Outcome::Invalid(MISMATCH.into()),
        Err(
            e @ (Error::InvalidSignatureLength { .. }
            | Error::InvalidLength {
                what: "signature", ..
            }),
        ) => Outcome::Invalid(format!("invalid signature: {e}")),
        Err(e) => Outcome::Failed(e.to_string()),
    }
}

/// Prints one line per file and turns the outcomes into the exit status.
/// Quiet (`-q`): only the files that did not verify, on standard error.
/// When signatures did not verify, the summary says what is the likely
/// cause where that can be told (likely_cause.rs).
fn report(
    files: &[PathBuf],
    outcomes: Vec<Option<Outcome>>,
    sig_dir: Option<&Path>,
) -> Result<(), CliError> {
    let (mut invalid, mut failed) = (0, 0);
    // Signatures checked in full with this key: the valid ones, and those
    // that did not verify (not those of the wrong length, not the failures).
    let (mut valid, mut mismatched) = (0, Vec::new());
    for (f, o) in files.iter().zip(&outcomes) {
        match o {
            Some(Outcome::Valid) => valid += 1,
            Some(Outcome::Invalid(why)) if why == MISMATCH => mismatched.push(f),
            _ => {}
        }
    }
    let mut out = String::new();
    let quiet = crate::say::quiet();
    for (f, o) in files.iter().zip(outcomes) {
        let line = match o {
            Some(Outcome::Valid) if quiet => continue,
            Some(Outcome::Valid) => "valid signature".to_string(),
            Some(Outcome::Invalid(why)) => {
                invalid += 1;
                why
            }
            Some(Outcome::Failed(why)) => {
                failed += 1;
                format!("error: {why}")
            }
            None => {
                failed += 1;
                "error: not checked".to_string()
            }
        };
        out.push_str(&format!("{}: {line}\n", quote::name(&f)));
    }
    if quiet {
        eprint!("{out}");
    } else {
        write_stdout(out.as_bytes(), false)?;
    }
    let total = files.len();
    if failed > 0 {
        Err(CliError::Failed(format!(
            "{failed} of {total} files could not be checked ({invalid} invalid)"
        )))
    } else if invalid > 0 {
        let checked = valid + mismatched.len();
        let sig = match mismatched.as_slice() {
            [f] if checked == 1 => sig_path(f, sig_dir).ok(),
            _ => None,
        };
        let one = mismatched
            .first()
            .zip(sig.as_deref())
            .map(|(f, s)| (f.as_path(), s));
        let cause = likely_cause::likely_cause(mismatched.len(), checked, one)
            .map_or(String::new(), |c| format!("; {c}"));
        Err(CliError::InvalidSignature(format!(
            "invalid signature: {invalid} of {total} files{cause}"
        )))
    } else {
        Ok(())
    }
}
