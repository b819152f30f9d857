//! Passes the linker script (memory map of the MPS2 AN386 board) to the linker.
fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rustc-link-arg=-T{dir}/link.x");
    println!("cargo:rerun-if-changed=link.x");
}
