//! Gives libsphincs.so the soname libsphincs.so.0, so programs record the ABI
//! version they linked against (scripts/install-c installs libsphincs.so.0 and
//! the libsphincs.so link). ELF targets only.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        println!(
            "cargo:rustc-cdylib-link-arg=-Wl,-soname,libsphincs.so.{}",
            soversion()
        );
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// The ABI version: bumped when a release breaks the C ABI.
fn soversion() -> u32 {
    0
}
