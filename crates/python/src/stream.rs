//! Messages read from a file path or a Python binary stream, in chunks, as a
//! core `MessageSource`: signing a large file holds one chunk in memory, not
//! the file. SLH-DSA hashes the message twice when signing, so each pass
//! seeks back to where the message starts.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyMemoryView, PyString};
use sphincs::{Error, MessageSource};

use crate::errors::{detached, to_py};

const CHUNK: usize = 1 << 16;

enum Inner {
    File {
        file: File,
        start: u64,
        /// The path as given, for the `filename` of an `OSError`.
        path: Py<PyAny>,
    },
    /// A Python object with `read` (and `seek`/`tell` for a second pass).
    Stream {
        obj: Py<PyAny>,
        start: Option<Py<PyAny>>,
    },
}

/// A streamed message. After the core returns, [`Streamed::take_error`] gives
/// the Python exception (or I/O error) that stopped a read, if one did.
pub struct Streamed {
    inner: Inner,
    passes: usize,
    error: Option<PyErr>,
}

impl Streamed {
    /// A path (`str`, `bytes` or `os.PathLike`) or a binary file object.
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let inner = if obj.hasattr("read")? {
            // Where the message starts, for the second pass; a stream that
            // cannot tell() can still be read once (pre-hash signing, verifying).
            let start = obj.call_method0("tell").ok().map(Bound::unbind);
            Inner::Stream {
                obj: obj.clone().unbind(),
                start,
            }
        } else {
            let path = fs_path(obj).map_err(|_| {
                PyTypeError::new_err(
                    "expected a path (str, bytes or os.PathLike) or a binary file object with read()",
                )
            })?;
            let mut file = File::open(&path).map_err(|e| crate::errors::os_error(&e, obj))?;
            let start = file
                .stream_position()
                .map_err(|e| crate::errors::os_error(&e, obj))?;
            Inner::File {
                file,
                start,
                path: obj.clone().unbind(),
            }
        };
        Ok(Streamed {
            inner,
            passes: 0,
            error: None,
        })
    }

    /// The error that stopped reading, to raise in place of the core's `Io` error.
    pub fn take_error(&mut self) -> Option<PyErr> {
        self.error.take()
    }

    /// Opens `file` and runs the core call `f` over it through
    /// [`detached`]; an error raised while reading (a Python exception from
    /// the file object, an `OSError`) wins over the core's `Io` error. Every
    /// `OSError` about a path carries it as `filename` (a file that changed
    /// while it was signed included).
    pub fn run<T: Send>(
        py: Python<'_>,
        file: &Bound<'_, PyAny>,
        f: impl FnOnce(&mut Streamed) -> Result<T, Error> + Send,
    ) -> PyResult<T> {
        let mut src = Streamed::new(file)?;
        let is_path = matches!(src.inner, Inner::File { .. });
        let result = detached(py, || Ok(f(&mut src)))?;
        let result = match (result, src.take_error()) {
            (_, Some(e)) => Err(e),
            (r, None) => r.map_err(to_py),
        };
        result.map_err(|e| match is_path {
            true => crate::errors::with_filename(py, e, file),
            false => e,
        })
    }

    fn feed_file(file: &mut File, start: u64, sink: &mut dyn FnMut(&[u8])) -> std::io::Result<()> {
        file.seek(SeekFrom::Start(start))?;
        let mut buf = vec![0u8; CHUNK];
        loop {
            match file.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(k) => sink(&buf[..k]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// One pass over a Python stream: the GIL is taken for each `read` only,
    /// and released while the chunk is hashed.
    fn feed_stream(
        obj: &Py<PyAny>,
        start: Option<&Py<PyAny>>,
        pass: usize,
        sink: &mut dyn FnMut(&[u8]),
    ) -> PyResult<()> {
        if pass > 0 {
            let start = start.ok_or_else(|| {
                PyValueError::new_err(
                    "the stream cannot tell() its position, and signing reads the message twice; pass a path or a seekable file (or sign with a prehash, which reads once)",
                )
            })?;
            Python::attach(|py| {
                obj.call_method1(py, "seek", (start.clone_ref(py),))
                    .map(drop)
            })?;
        }
        loop {
            let chunk: PyBackedBytes = Python::attach(|py| {
                let data = obj.call_method1(py, "read", (CHUNK,))?;
                chunk_bytes(data.bind(py))
            })?;
            if chunk.is_empty() {
                return Ok(());
            }
            sink(&chunk);
        }
    }
}

/// A path as `open()` takes one: `str`, `bytes` or an `os.PathLike` of
/// either, through `os.fsdecode` (bytes that do not decode become surrogate
/// escapes, which turn back into the same bytes on the way to the OS).
fn fs_path(obj: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    obj.py()
        .import("os")?
        .call_method1("fsdecode", (obj,))?
        .extract()
}

/// What `read()` gave, as bytes: `bytes`, `bytearray` or a `memoryview`
/// (copied); anything else is a `TypeError` saying what it was.
fn chunk_bytes(data: &Bound<'_, PyAny>) -> PyResult<PyBackedBytes> {
    if let Ok(b) = data.extract::<PyBackedBytes>() {
        return Ok(b);
    }
    if data.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "read() returned text, not bytes: open the file in binary mode ('rb')",
        ));
    }
    if data.is_none() {
        return Err(PyTypeError::new_err(
            "read() returned None, not bytes (a non-blocking stream with no data ready?); pass a blocking binary stream or a path",
        ));
    }
    if data.is_instance_of::<PyMemoryView>() {
        let copied = data.py().get_type::<PyBytes>().call1((data,))?;
        return copied.extract().map_err(PyErr::from);
    }
    Err(PyTypeError::new_err(format!(
        "read() returned {}, not bytes",
        data.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "an object".into())
    )))
}

impl MessageSource for Streamed {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        let pass = self.passes;
        self.passes += 1;
        let result = match &mut self.inner {
            Inner::File { file, start, path } => Self::feed_file(file, *start, sink)
                .map_err(|e| Python::attach(|py| crate::errors::os_error(&e, path.bind(py)))),
            Inner::Stream { obj, start } => Self::feed_stream(obj, start.as_ref(), pass, sink),
        };
        result.map_err(|e| {
            let msg = e.to_string();
            self.error = Some(e);
            Error::Io(msg)
        })
    }
}
