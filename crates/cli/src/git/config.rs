//! git's configuration as `sphincs git setup` writes it: where settings go
//! (the repository's, or the user's and this program's own file), and
//! setting, adding, reading and removing values through `git config`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::CliError;
use crate::git::user_config_file;

/// The canonical absolute form of a path given on the command line.
pub fn absolute(path: &Path) -> Result<PathBuf, CliError> {
    std::fs::canonicalize(path).map_err(|e| CliError::file(path, e))
}

/// Where settings go: git's own (`gpg.*`, `user.signingkey`) and this
/// program's (`sphincs.*`): the repository's configuration, or with
/// `global` git's --global one and `$XDG_CONFIG_HOME/sphincs/git.config`.
pub fn scopes(global: bool) -> Result<(Vec<String>, Vec<String>), CliError> {
    if global {
        let file = user_config_file()
            .ok_or_else(|| CliError::Failed("neither XDG_CONFIG_HOME nor HOME is set".into()))?;
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| CliError::file(dir, e))?;
        }
        let file = file
            .to_str()
            .ok_or_else(|| CliError::file(&file, "the path is not UTF-8"))?
            .to_string();
        Ok((vec!["--global".into()], vec!["--file".into(), file]))
    } else {
        git(&["rev-parse", "--git-dir"]).map_err(|_| {
            CliError::Failed("not in a git repository; run it in one, or give --global".into())
        })?;
        Ok((vec!["--local".into()], vec!["--local".into()]))
    }
}

fn config(scope: &[String], tail: &[&str]) -> Result<String, GitFailure> {
    let mut args: Vec<&str> = vec!["config"];
    args.extend(scope.iter().map(String::as_str));
    args.extend(tail);
    git(&args)
}

/// Sets `name` to `value` in `scope`.
pub fn config_set(scope: &[String], name: &str, value: &str) -> Result<(), CliError> {
    config(scope, &[name, value])?;
    Ok(())
}

/// Adds a value to the multi-valued `name` in `scope`.
pub fn config_add(scope: &[String], name: &str, value: &str) -> Result<(), CliError> {
    config(scope, &["--add", name, value])?;
    Ok(())
}

/// The values of `name` in `scope` (none if unset).
pub fn config_get_all(scope: &[String], name: &str) -> Result<Vec<String>, CliError> {
    match config(scope, &["--get-all", name]) {
        Ok(out) => Ok(out.lines().map(str::to_string).collect()),
        Err(GitFailure::Status(1)) => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

/// Removes every value of `name` in `scope`.
pub fn config_unset_all(scope: &[String], name: &str) -> Result<(), CliError> {
    // Status 5: there was nothing to unset.
    match config(scope, &["--unset-all", name]) {
        Ok(_) | Err(GitFailure::Status(5)) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Why a `git` command failed.
pub enum GitFailure {
    Status(i32),
    Other(String),
}

impl From<GitFailure> for CliError {
    fn from(e: GitFailure) -> Self {
        match e {
            GitFailure::Status(n) => CliError::Failed(format!("git config failed (status {n})")),
            GitFailure::Other(m) => CliError::Failed(m),
        }
    }
}

pub fn git(args: &[&str]) -> Result<String, GitFailure> {
    let out = Command::new("git")
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| GitFailure::Other(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(match out.status.code() {
            Some(n) => GitFailure::Status(n),
            None => GitFailure::Other(format!("git {} was killed", args.join(" "))),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
