//! The README's quick start, run as a new user would: the shell commands of
//! the first ```sh block after the "## Quick start" heading, in an empty
//! directory, with the built `sphincs` first on PATH. Every command must exit
//! 0 (the block runs under `sh -e`, traced with `-x` so a failure names its
//! command).

mod common;

use std::path::Path;
use std::process::Command;

use common::Scratch;

/// The body of the first ```sh block after the "## Quick start" heading.
fn quick_start_block(readme: &str) -> String {
    let start = readme
        .find("\n## Quick start\n")
        .expect("README.md has a \"## Quick start\" heading");
    let mut lines = readme[start..].lines().skip(2);
    let mut block = String::new();
    // Only blank lines and prose may stand between the heading and the block.
    for line in lines.by_ref() {
        assert!(
            !line.starts_with("## "),
            "no ```sh block in README.md's quick start"
        );
        if line == "```sh" {
            break;
        }
    }
    let mut closed = false;
    for line in lines {
        if line == "```" {
            closed = true;
            break;
        }
        block.push_str(line);
        block.push('\n');
    }
    assert!(closed, "the quick start's ```sh block is not closed");
    block
}

#[test]
fn readme_quick_start_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block = quick_start_block(&readme);
    assert!(
        block.lines().filter(|l| l.starts_with("sphincs ")).count() >= 5,
        "the quick start runs the sphincs command:\n{block}"
    );
    // Kept fast: no draft SP 800-230 set (their keygen takes minutes).
    assert!(!block.contains("-24"), "{block}");

    let d = Scratch::new("quick-start");
    let work = d.path("work");
    std::fs::create_dir(&work).unwrap();
    let script = d.write("quick-start.sh", block.as_bytes());
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sphincs")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("sh")
        .args(["-e", "-x"])
        .arg(&script)
        .current_dir(&work)
        .env("PATH", path)
        .env_remove("SPHINCS_BACKEND")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the quick start failed ({}):\n--- script\n{block}--- stdout\n{stdout}--- stderr (sh -x)\n{stderr}",
        out.status
    );
    // What the comments promise.
    assert!(
        stdout.contains("app.tar.gz: signed, app.tar.gz.sig"),
        "{stdout}"
    );
    assert!(stdout.contains("app.tar.gz: valid signature"), "{stdout}");
    assert!(work.join("app.tar.gz.sig").is_file());
    assert!(work.join("app.tar.gz.p7s").is_file());
}

#[test]
fn finds_the_block_after_the_heading() {
    let readme = "# x\n\n```sh\nnot this\n```\n\n## Quick start\n\nText.\n\n```sh\nsphincs list\necho hi\n```\n\n## Next\n";
    assert_eq!(quick_start_block(readme), "sphincs list\necho hi\n");
}
