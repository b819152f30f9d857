//! Talking to the agent: hand it a key, ask whether it holds the key of a
//! file, list, lock, stop; and [`RemoteKey`], a key the agent holds, which
//! the core's formats (CMS, OpenPGP) and `sign` use like a key in memory
//! (`sphincs::any::AnySigner`): each signature is made by the agent, the
//! message streamed to it as it asks.

use std::io;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use sphincs::any::{AnyAlgorithm, AnySigner, AnySigningKey, AnyVerifyingKey};
use sphincs::{Error, KeyMode, MessageSource, Randomness, SignOptions};
use zeroize::Zeroizing;

use super::identity::{self, FileId};
use super::socket;
use super::wire::{self, Fields, Kind, Reader, CHUNK};
use crate::error::CliError;

/// A connection to the agent.
pub struct Agent {
    stream: UnixStream,
    socket: PathBuf,
}

/// What [`Agent::find`] found.
pub enum Found {
    /// The agent holds the file's key.
    Held(RemoteKey),
    /// It does not; the connection, for handing it the key.
    NotHeld(Agent),
}

/// A key in the agent, as [`Agent::list`] lists it.
pub struct Listed {
    pub name: String,
    pub algorithm: String,
    pub fingerprint: String,
    pub seconds_left: u64,
}

impl Agent {
    /// The agent at the usual socket ([`socket::path`]), if one runs there.
    pub fn connect() -> Result<Option<Agent>, CliError> {
        if std::env::var_os("SPHINCS_AGENT").is_some_and(|v| v == "off") {
            return Ok(None);
        }
        Agent::connect_to(&socket::path())
    }

    /// The agent at `socket`, if one runs there: `None` when there is no
    /// socket or nothing listens on it; an error when the socket's
    /// directory or the process listening are another user's.
    pub fn connect_to(socket: &Path) -> Result<Option<Agent>, CliError> {
        if std::fs::symlink_metadata(socket).is_err() {
            return Ok(None);
        }
        socket::check_dir(socket)?;
        let stream = match UnixStream::connect(socket) {
            Ok(s) => s,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionRefused | io::ErrorKind::NotFound
                ) =>
            {
                return Ok(None)
            }
            Err(e) => {
                return Err(CliError::file(
                    socket,
                    format!("cannot reach the agent: {e}"),
                ))
            }
        };
        let theirs = socket::peer_uid(&stream)
            .map_err(|e| CliError::file(socket, format!("cannot tell who listens: {e}")))?;
        if theirs != socket::uid() {
            return Err(CliError::file(
                socket,
                format!("is served by user {theirs}, not by you: refusing to use that agent"),
            ));
        }
        // A signature of a large file takes as long as reading it twice.
        let _ = stream.set_read_timeout(Some(Duration::from_secs(3600)));
        Ok(Some(Agent {
            stream,
            socket: socket.to_path_buf(),
        }))
    }

    /// The agent at the usual socket, or an error saying how to start one.
    pub fn required() -> Result<Agent, CliError> {
        Agent::connect()?.ok_or_else(|| {
            CliError::Failed(format!(
                "no agent runs at {} (start one with `sphincs agent start`)",
                socket::path().display()
            ))
        })
    }

    /// One request and its answer's body.
    fn call(&mut self, kind: Kind, fields: &Fields) -> Result<Zeroizing<Vec<u8>>, CliError> {
        wire::send(&mut self.stream, kind, fields.body()).map_err(|e| self.lost(e))?;
        self.answer()
    }

    fn answer(&mut self) -> Result<Zeroizing<Vec<u8>>, CliError> {
        let (kind, body) = wire::receive(&mut self.stream).map_err(|e| self.lost(e))?;
        match kind {
            Kind::Ok => Ok(body),
            Kind::Error => Err(CliError::Failed(format!(
                "the agent: {}",
                String::from_utf8_lossy(&body)
            ))),
            other => Err(CliError::Failed(format!(
                "the agent answered {other:?}, not a result"
            ))),
        }
    }

    fn lost(&self, e: io::Error) -> CliError {
        CliError::file(&self.socket, format!("the agent's connection failed: {e}"))
    }

    /// Hands `key` (read from `file`) to the agent for `ttl` (`None`: the
    /// agent's own time); the time it will be held.
    pub fn add(
        &mut self,
        key: &AnySigningKey,
        file: &FileId,
        name: &str,
        ttl: Option<Duration>,
    ) -> Result<Duration, CliError> {
        let secret = key.to_bytes();
        let cache = key.tree_cache().map(Zeroizing::new).unwrap_or_default();
        let fields = file
            .write(
                identity::write_mode(
                    Fields::new().text(&key.algorithm().to_string()),
                    key.mode().unwrap_or_default(),
                )
                .bytes(&secret)
                .bytes(&cache),
            )
            .text(name)
            .number(ttl.map_or(0, |t| t.as_secs().max(1)));
        let body = self.call(Kind::Add, &fields)?;
        let mut r = Reader::new(&body);
        Ok(Duration::from_secs(r.number().map_err(|e| self.lost(e))?))
    }

    /// Has the agent log in to a PKCS#11 token and hold the key `uri`
    /// names (its module `module` loaded in the agent), as `file`.
    pub fn add_token(
        &mut self,
        uri: &str,
        module: &str,
        pin: &[u8],
        file: &FileId,
        name: &str,
        ttl: Option<Duration>,
    ) -> Result<Duration, CliError> {
        let fields = file
            .write(Fields::new().text(uri).text(module).bytes(pin))
            .text(name)
            .number(ttl.map_or(0, |t| t.as_secs().max(1)));
        let body = self.call(Kind::AddToken, &fields)?;
        let mut r = Reader::new(&body);
        Ok(Duration::from_secs(r.number().map_err(|e| self.lost(e))?))
    }

    /// The key the agent holds for `file`, or the connection back.
    pub fn find(mut self, file: &FileId) -> Result<Found, CliError> {
        let body = self.call(Kind::Find, &file.write(Fields::new()))?;
        let parse = |r: &mut Reader<'_>| -> io::Result<Option<(u64, AnyVerifyingKey)>> {
            let handle = r.number()?;
            if handle == 0 {
                return Ok(None);
            }
            let alg: AnyAlgorithm = r.text()?.parse().map_err(invalid)?;
            let mode = identity::read_mode(r)?;
            let mut public = AnyVerifyingKey::from_bytes(alg, r.bytes()?).map_err(invalid)?;
            if mode != KeyMode::Unrestricted {
                public = public.with_mode(mode).map_err(invalid)?;
            }
            r.end()?;
            Ok(Some((handle, public)))
        };
        let found = parse(&mut Reader::new(&body)).map_err(|e| self.lost(e))?;
        Ok(match found {
            Some((handle, public)) => Found::Held(RemoteKey {
                agent: Mutex::new(self),
                handle,
                public,
            }),
            None => Found::NotHeld(self),
        })
    }

    /// The keys the agent holds.
    pub fn list(&mut self) -> Result<Vec<Listed>, CliError> {
        let body = self.call(Kind::List, &Fields::new())?;
        let parse = |r: &mut Reader<'_>| -> io::Result<Vec<Listed>> {
            let n = r.number()?;
            let mut keys = Vec::new();
            for _ in 0..n {
                keys.push(Listed {
                    name: r.text()?.to_string(),
                    algorithm: r.text()?.to_string(),
                    fingerprint: r.text()?.to_string(),
                    seconds_left: r.number()?,
                });
            }
            r.end()?;
            Ok(keys)
        };
        parse(&mut Reader::new(&body)).map_err(|e| self.lost(e))
    }

    /// Wipes every key; how many there were.
    pub fn lock(&mut self) -> Result<u64, CliError> {
        let body = self.call(Kind::Lock, &Fields::new())?;
        Reader::new(&body).number().map_err(|e| self.lost(e))
    }

    /// Wipes every key and ends the agent.
    pub fn stop(&mut self) -> Result<(), CliError> {
        self.call(Kind::Stop, &Fields::new()).map(drop)
    }

    /// Signs `msg` with key `handle`: the options, then each pass over the
    /// message the agent asks for.
    fn sign(
        &mut self,
        handle: u64,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        let agent_error = |e: CliError| Error::Signer(e.into_message());
        let fields = Fields::new()
            .number(handle)
            .bytes(opts.context)
            .text(opts.prehash.map_or("", |p| p.name()))
            .number(match opts.randomness {
                Randomness::Hedged => 0,
                Randomness::Deterministic => 1,
                _ => {
                    return Err(Error::Signer(
                        "the agent makes hedged or deterministic signatures; given randomness stays in this process".into(),
                    ))
                }
            })
            .number(opts.threads as u64)
            .number(u64::from(opts.fault_hardened));
        wire::send(&mut self.stream, Kind::Sign, fields.body())
            .map_err(|e| agent_error(self.lost(e)))?;
        loop {
            let (kind, body) =
                wire::receive(&mut self.stream).map_err(|e| agent_error(self.lost(e)))?;
            match kind {
                Kind::Feed => self.send_pass(msg)?,
                Kind::Ok => {
                    let mut r = Reader::new(&body);
                    return r
                        .bytes()
                        .map(<[u8]>::to_vec)
                        .map_err(|e| agent_error(self.lost(e)));
                }
                Kind::Error => return Err(agent_failure(&body)),
                other => {
                    return Err(Error::Signer(format!(
                        "the agent sent {other:?} while signing"
                    )))
                }
            }
        }
    }

    /// One pass over the message, in pieces; a message that cannot be read
    /// is reported to the agent (which then stops) and to the caller.
    fn send_pass(&mut self, msg: &mut dyn MessageSource) -> Result<(), Error> {
        let mut failed: Option<io::Error> = None;
        let stream = &mut self.stream;
        let fed = msg.feed(&mut |data: &[u8]| {
            for piece in data.chunks(CHUNK) {
                if failed.is_none() {
                    if let Err(e) = wire::send(stream, Kind::Data, piece) {
                        failed = Some(e);
                    }
                }
            }
        });
        if let Some(e) = failed {
            return Err(Error::Signer(format!(
                "cannot send the message to the agent: {e}"
            )));
        }
        match fed {
            Ok(()) => wire::send(&mut self.stream, Kind::End, &[])
                .map_err(|e| Error::Signer(format!("cannot send the message to the agent: {e}"))),
            Err(e) => {
                let _ = wire::send(&mut self.stream, Kind::Error, e.to_string().as_bytes());
                Err(e)
            }
        }
    }
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

/// The agent's refusal, as the core's error: a changed message stays
/// [`Error::MessageChanged`], the rest is said in words.
fn agent_failure(body: &[u8]) -> Error {
    let why = String::from_utf8_lossy(body);
    if why == Error::MessageChanged.to_string() {
        Error::MessageChanged
    } else {
        Error::Signer(format!("the agent: {why}"))
    }
}

/// A key the agent holds: signatures by the agent.
pub struct RemoteKey {
    agent: Mutex<Agent>,
    handle: u64,
    public: AnyVerifyingKey,
}

impl AnySigner for RemoteKey {
    fn verifying_key(&self) -> AnyVerifyingKey {
        self.public.clone()
    }

    fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        // The agent checks them too, before it asks for the message; here
        // the refusal keeps the core's error type (the agent's is text).
        self.public.algorithm().check_sign_options(opts)?;
        let mut agent = self.agent.lock().unwrap_or_else(|e| e.into_inner());
        agent.sign(self.handle, msg, opts)
    }
}
