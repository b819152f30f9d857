//! The agent itself (`sphincs agent start`): decrypted keys in locked
//! memory, each for the time it was added with, signing for clients of the
//! same user on its socket. Keys are wiped when their time ends, on `lock`,
//! on `stop`, and on SIGINT, SIGTERM and SIGHUP. Nothing is written to disk
//! but the socket. The process cannot be traced or dumped by other
//! processes of the user (PR_SET_DUMPABLE 0). A key in a PKCS#11 token is
//! held as a logged-in session: the agent loads the token's module and
//! logs in with the PIN the client sent, and the token signs (as
//! ssh-agent holds keys of a PKCS#11 provider).

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sphincs::any::{AnyAlgorithm, AnySigner, AnySigningKey};
use sphincs::{Error, KeyMode, MessageSource, PreHash, Randomness, SignOptions};

use super::identity::{self, FileId};
use super::locked::Locked;
use super::socket;
use super::wire::{self, Fields, Kind, Reader};
use crate::error::CliError;
use crate::keys::token::TokenKey;
use crate::keys::token_uri::TokenUri;

/// A key held: decrypted here, or in a token the agent is logged in to.
#[derive(Clone)]
enum HeldKey {
    File(Arc<Locked<AnySigningKey>>),
    Token(Arc<TokenKey>),
}

impl HeldKey {
    fn signer(&self) -> &dyn AnySigner {
        match self {
            HeldKey::File(k) => &***k,
            HeldKey::Token(t) => &**t,
        }
    }
}

/// A key the agent holds.
struct Held {
    handle: u64,
    key: HeldKey,
    file: FileId,
    name: String,
    expires: Instant,
}

#[derive(Default)]
struct Store {
    keys: Vec<Held>,
    next: u64,
}

type Shared = Arc<Mutex<Store>>;

fn store(s: &Shared) -> MutexGuard<'_, Store> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// Most clients served at once; more wait for the socket's backlog.
const MAX_CLIENTS: usize = 16;

/// How long a client may leave the agent waiting for its next frame.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest time a key may be held.
pub const MAX_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// Runs the agent on `socket` until `stop` or a signal; keys are held for
/// `ttl` unless added with their own time.
pub fn serve(socket: &Path, ttl: Duration) -> Result<(), CliError> {
    // No core dumps, and no ptrace by the user's other processes.
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    socket::prepare_dir(socket)?;
    if super::client::Agent::connect_to(socket)?.is_some() {
        return Err(CliError::file(socket, "an agent already listens there"));
    }
    // A socket left by an agent that did not end cleanly.
    if std::fs::symlink_metadata(socket).is_ok() {
        std::fs::remove_file(socket)
            .map_err(|e| CliError::file(socket, format!("cannot remove the stale socket: {e}")))?;
    }
    let listener = UnixListener::bind(socket)
        .map_err(|e| CliError::file(socket, format!("cannot listen: {e}")))?;
    let _ = std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600));
    let shared: Shared = Arc::default();
    on_signals(shared.clone(), socket.to_path_buf())?;
    expire_keys(shared.clone());
    let clients = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if clients.load(Ordering::SeqCst) >= MAX_CLIENTS {
            let _ = refuse(stream, "the agent is busy with other clients; try again");
            continue;
        }
        let me = socket::uid();
        match socket::peer_uid(&stream) {
            Ok(uid) if uid == me => {}
            Ok(uid) => {
                let _ = refuse(
                    stream,
                    &format!("refused: this agent serves user {me}, not {uid}"),
                );
                continue;
            }
            Err(_) => continue,
        }
        let (shared, clients, socket) = (shared.clone(), clients.clone(), socket.to_path_buf());
        clients.fetch_add(1, Ordering::SeqCst);
        std::thread::spawn(move || {
            let _ = client(stream, &shared, &ttl, &socket);
            clients.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

fn refuse(mut stream: UnixStream, why: &str) -> io::Result<()> {
    wire::send(&mut stream, Kind::Error, why.as_bytes())
}

/// Wipes every key and ends, on SIGINT, SIGTERM and SIGHUP.
fn on_signals(shared: Shared, socket: PathBuf) -> Result<(), CliError> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| CliError::Failed(format!("cannot handle signals: {e}")))?;
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            end(&shared, &socket);
        }
    });
    Ok(())
}

/// Wipes every key, removes the socket and ends the process.
fn end(shared: &Shared, socket: &Path) -> ! {
    store(shared).keys.clear();
    let _ = std::fs::remove_file(socket);
    std::process::exit(0)
}

/// Wipes each key when its time is up (checked every second).
fn expire_keys(shared: Shared) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        let now = Instant::now();
        store(&shared).keys.retain(|k| k.expires > now);
    });
}

/// Serves one client: requests until it hangs up.
fn client(
    mut stream: UnixStream,
    shared: &Shared,
    ttl: &Duration,
    socket: &Path,
) -> io::Result<()> {
    stream.set_read_timeout(Some(CLIENT_TIMEOUT))?;
    stream.set_write_timeout(Some(CLIENT_TIMEOUT))?;
    loop {
        let (kind, body) = match wire::receive(&mut stream) {
            Ok(frame) => frame,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        };
        let answer = match kind {
            Kind::Add => add(&body, shared, *ttl),
            Kind::AddToken => add_token(&body, shared, *ttl),
            Kind::Find => find(&body, shared),
            Kind::Sign => sign(&mut stream, &body, shared),
            Kind::List => Ok(list(shared)),
            Kind::Lock => {
                let n = std::mem::take(&mut store(shared).keys).len();
                Ok(Fields::new().number(n as u64))
            }
            Kind::Stop => {
                let _ = wire::send(&mut stream, Kind::Ok, &[]);
                end(shared, socket);
            }
            other => Err(format!("{other:?} is not a request")),
        };
        match answer {
            Ok(fields) => wire::send(&mut stream, Kind::Ok, fields.body())?,
            Err(why) => wire::send(&mut stream, Kind::Error, why.as_bytes())?,
        }
    }
}

fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Holds a key: its set, mode, raw secret key and tree cache, the file it
/// came from, a name to list it by, and its time (0: the agent's).
fn add(body: &[u8], shared: &Shared, ttl: Duration) -> Result<Fields, String> {
    let mut r = Reader::new(body);
    let alg: AnyAlgorithm = r.text().map_err(text)?.parse().map_err(text)?;
    let mode = identity::read_mode(&mut r).map_err(text)?;
    let secret = r.bytes().map_err(text)?;
    let cache = r.bytes().map_err(text)?;
    let file = FileId::read(&mut r).map_err(text)?;
    let name = r.text().map_err(text)?.to_string();
    let secs = r.number().map_err(text)?;
    r.end().map_err(text)?;
    if alg.slh_dsa().is_none() {
        return Err(format!(
            "the agent holds FIPS 205 keys only; {alg} keys have no key file to unlock"
        ));
    }
    // The client opened the key with the core's checks (PK.root) before
    // sending it; a draft SP 800-230 key's check would take minutes.
    let mut key = AnySigningKey::from_bytes_unchecked(alg, secret).map_err(text)?;
    if mode != KeyMode::Unrestricted {
        key = key.with_mode(mode).map_err(text)?;
    }
    if !cache.is_empty() {
        key.load_tree_cache(cache).map_err(text)?;
    }
    let key = Locked::new(key).map_err(|e| {
        format!("cannot lock the key in memory ({e}); raise `ulimit -l` for the agent")
    })?;
    Ok(hold(
        shared,
        HeldKey::File(Arc::new(key)),
        file,
        name,
        secs,
        ttl,
    ))
}

/// Holds `key` for `secs` (0: the agent's `ttl`), in place of one held
/// for the same file; answers the time.
fn hold(
    shared: &Shared,
    key: HeldKey,
    file: FileId,
    name: String,
    secs: u64,
    ttl: Duration,
) -> Fields {
    let time = match secs {
        0 => ttl,
        s => Duration::from_secs(s).min(MAX_TTL),
    };
    let mut s = store(shared);
    s.keys.retain(|k| k.file != file);
    s.next += 1;
    let handle = s.next;
    s.keys.push(Held {
        handle,
        key,
        file,
        name,
        expires: Instant::now() + time,
    });
    Fields::new().number(time.as_secs())
}

/// Logs in to a token with the client's PIN and holds the key its URI
/// names: the module is loaded in this process, the session kept open
/// until the key's time ends.
fn add_token(body: &[u8], shared: &Shared, ttl: Duration) -> Result<Fields, String> {
    let mut r = Reader::new(body);
    let text = |e: std::io::Error| e.to_string();
    let uri = r.text().map_err(text)?.to_string();
    let module = r.text().map_err(text)?.to_string();
    let pin = zeroize::Zeroizing::new(r.bytes().map_err(text)?.to_vec());
    let file = FileId::read(&mut r).map_err(text)?;
    let name = r.text().map_err(text)?.to_string();
    let secs = r.number().map_err(text)?;
    r.end().map_err(text)?;
    let mut parsed = TokenUri::parse(Path::new(&uri)).map_err(CliError::into_message)?;
    parsed.module_path = Some(module);
    parsed.pin_source = None;
    parsed.pin_value =
        Some(String::from_utf8(pin.to_vec()).map_err(|_| "the PIN is not UTF-8".to_string())?);
    let key = TokenKey::open_uri(&parsed).map_err(CliError::into_message);
    if let Some(p) = parsed.pin_value.as_mut() {
        zeroize::Zeroize::zeroize(p);
    }
    let key = key?;
    Ok(hold(
        shared,
        HeldKey::Token(Arc::new(key)),
        file,
        name,
        secs,
        ttl,
    ))
}

/// The key added from a file (same path, device, inode, size and time), if held.
fn find(body: &[u8], shared: &Shared) -> Result<Fields, String> {
    let mut r = Reader::new(body);
    let file = FileId::read(&mut r).map_err(text)?;
    r.end().map_err(text)?;
    let s = store(shared);
    let Some(k) = s.keys.iter().find(|k| k.file == file) else {
        return Ok(Fields::new().number(0));
    };
    let public = k.key.signer().verifying_key();
    Ok(identity::write_mode(
        Fields::new()
            .number(k.handle)
            .text(&public.algorithm().to_string()),
        public.mode().unwrap_or_default(),
    )
    .bytes(&public.to_bytes()))
}

/// The keys held: handle, name, set, fingerprint and seconds left of each.
fn list(shared: &Shared) -> Fields {
    let s = store(shared);
    let now = Instant::now();
    let mut f = Fields::new().number(s.keys.len() as u64);
    for k in &s.keys {
        let public = k.key.signer().verifying_key();
        f = f
            .text(&k.name)
            .text(&public.algorithm().to_string())
            .text(&public.fingerprint().unwrap_or_default())
            .number(k.expires.saturating_duration_since(now).as_secs());
    }
    f
}

/// Signs with a held key: the options, then the message, pulled from the
/// client a pass at a time (`Feed`), as signing reads it.
fn sign(stream: &mut UnixStream, body: &[u8], shared: &Shared) -> Result<Fields, String> {
    let mut r = Reader::new(body);
    let handle = r.number().map_err(text)?;
    let context = r.bytes().map_err(text)?;
    let prehash = match r.text().map_err(text)? {
        "" => None,
        name => Some(name.parse::<PreHash>().map_err(text)?),
    };
    let randomness = match r.number().map_err(text)? {
        0 => Randomness::Hedged,
        _ => Randomness::Deterministic,
    };
    let threads = r.number().map_err(text)?;
    let fault_hardened = r.number().map_err(text)? != 0;
    r.end().map_err(text)?;
    let key = store(shared)
        .keys
        .iter()
        .find(|k| k.handle == handle && k.expires > Instant::now())
        .map(|k| k.key.clone())
        .ok_or("the key is no longer held (its time ran out, or the agent was locked)")?;
    let most = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = SignOptions {
        context,
        prehash,
        randomness,
        threads: usize::try_from(threads).unwrap_or(most).min(most),
        fault_hardened,
    };
    let mut message = Pulled { stream };
    let sig = key
        .signer()
        .sign_stream(&mut message, &opts)
        .map_err(text)?;
    Ok(Fields::new().bytes(&sig))
}

/// The client's message, asked for once per pass.
struct Pulled<'a> {
    stream: &'a mut UnixStream,
}

impl MessageSource for Pulled<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        let io = |e: io::Error| Error::Io(format!("the client's message: {e}"));
        wire::send(self.stream, Kind::Feed, &[]).map_err(io)?;
        loop {
            let (kind, data) = wire::receive(self.stream).map_err(io)?;
            match kind {
                Kind::Data => sink(&data),
                Kind::End => return Ok(()),
                Kind::Error => {
                    return Err(Error::Io(format!(
                        "the client could not send the message: {}",
                        String::from_utf8_lossy(&data)
                    )))
                }
                other => return Err(Error::Io(format!("{other:?} in the middle of a message"))),
            }
        }
    }
}
