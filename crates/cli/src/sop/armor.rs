//! `sop armor` and `sop dearmor`: both idempotent (armored input to `armor`
//! and binary input to `dearmor` come back as they are, checked).

use sphincs::openpgp::{armor, packet};

use super::inputs::{self, MAX_BUFFERED};
use super::{Exit, Result, SopError};

pub fn armor() -> Result<()> {
    let data = inputs::read_stdin(MAX_BUFFERED)?;
    if armor::is_armored(&data) {
        armor::decode(&data)?;
        return inputs::write_stdout(&data);
    }
    packet::parse(&data)?;
    inputs::write_stdout(armor::encode(armor::Kind::of_packets(&data), &data).as_bytes())
}

pub fn dearmor() -> Result<()> {
    let data = inputs::read_stdin(MAX_BUFFERED)?;
    let bytes = if armor::is_armored(&data) {
        armor::decode(&data)?.1
    } else {
        data
    };
    if bytes.is_empty() {
        return Err(SopError::new(Exit::BadData, "no OpenPGP data"));
    }
    packet::parse(&bytes)?;
    inputs::write_stdout(&bytes)
}
