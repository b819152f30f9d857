//! The committed C headers are generated, and must stay equal to what the
//! code generates: `include/sphincs.h` by cbindgen from `src/`, and the
//! NIST-API drop-in headers `include/sphincs/nist/NAME.h` from the core's list
//! of parameter sets and their sizes (SPHINCS-256's from its constants). `SPHINCS_BLESS=1` rewrites them
//! (`scripts/gen-c-headers`).

use std::path::{Path, PathBuf};

use sphincs_core::sphincs256::{self, params as s256};
use sphincs_core::sphincsplus::SpxAlgorithm;
use sphincs_core::Algorithm;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compares `generated` with the committed file, or rewrites it when blessing.
fn check(path: &Path, generated: &str) {
    if std::env::var_os("SPHINCS_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (run scripts/gen-c-headers)", path.display()));
    assert!(
        committed == generated,
        "{} is out of date with the code; run scripts/gen-c-headers",
        path.display()
    );
}

/// The header's version macros, from this package's Cargo version (the
/// workspace's, which `sphincs_version()` also returns): cbindgen writes no
/// string constants, and numbers typed into the source could drift from it.
fn version_macros() -> String {
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        !version.contains('"') && !version.contains('\\'),
        "{version}"
    );
    format!(
        "\n/**\n * The version of this header (Cargo's package version of libsphincs):\n * \
         compare SPHINCS_VERSION with sphincs_version(), the library's at run time.\n */\n\
         #define SPHINCS_VERSION \"{version}\"\n\
         #define SPHINCS_VERSION_MAJOR {}\n\
         #define SPHINCS_VERSION_MINOR {}\n\
         #define SPHINCS_VERSION_PATCH {}",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    )
}

#[test]
fn sphincs_h_matches_the_code() {
    let dir = crate_dir();
    let mut config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    config.after_includes = Some(version_macros());
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen");
    let mut out = Vec::new();
    bindings.write(&mut out);
    let text = String::from_utf8(out).unwrap();
    for must in [
        "sphincs_sign_init",
        "SPHINCS_ERR_BUFFER_TOO_SMALL",
        "sphincs_nist_open",
        "sphincs_secret_key_with_mode",
        "SPHINCS_SCHEME_SPHINCS256",
        "sphincs_last_error_message",
        "sphincs_version",
        "#define SPHINCS_VERSION_MAJOR ",
    ] {
        assert!(
            text.contains(must),
            "{must} missing from the generated header"
        );
    }
    check(&dir.join("include/sphincs.h"), &text);
}

/// One parameter set as the drop-in header sees it.
struct Set {
    /// The CLI name, lower case: the header's file name.
    file: String,
    /// The name the library looks the set up by.
    lookup: &'static str,
    /// CRYPTO_ALGNAME: the reference's "SPHINCS+" for round 3.1 (its KAT
    /// files start with it), the FIPS 205 name otherwise.
    algname: &'static str,
    pk: usize,
    sk: usize,
    sig: usize,
    seed: usize,
    /// SPHINCS-256's header says where it comes from (SUPERCOP), that it
    /// signs deterministically, and what its seed is.
    supercop: bool,
    /// A draft SP 800-230 set: its header names the 2^24-signature limit.
    limited: bool,
}

fn sets() -> Vec<Set> {
    let fips = Algorithm::EVERY.iter().map(|a| Set {
        file: a.name().to_ascii_lowercase(),
        lookup: a.name(),
        algname: a.name(),
        pk: a.public_key_len(),
        sk: a.secret_key_len(),
        sig: a.signature_len(),
        seed: 3 * a.params().n,
        supercop: false,
        limited: a.is_sp800_230(),
    });
    let spx = SpxAlgorithm::ALL.iter().map(|a| Set {
        file: a.name().to_ascii_lowercase(),
        lookup: a.name(),
        algname: "SPHINCS+",
        pk: a.public_key_len(),
        sk: a.secret_key_len(),
        sig: a.signature_len(),
        seed: a.seed_len(),
        supercop: false,
        limited: false,
    });
    // SUPERCOP's crypto_sign_keypair draws the whole secret key from
    // randombytes, so the "seed" of the seed keypair is those 1088 bytes.
    let s256 = Set {
        file: sphincs256::ALGORITHM.to_string(),
        lookup: sphincs256::ALGORITHM,
        algname: "SPHINCS-256",
        pk: s256::PK_BYTES,
        sk: s256::SK_BYTES,
        sig: s256::SIG_BYTES,
        seed: s256::SK_BYTES,
        supercop: true,
        limited: false,
    };
    fips.chain(spx).chain([s256]).collect()
}

/// What a draft SP 800-230 set costs through this header: BENCHMARKS.md's
/// measured keygen and sign ("All six sets, one thread", CPU time) on its
/// machine, and that each `crypto_sign` rebuilds the tree, with the C API
/// path that keeps it.
fn limited_cost(set: &str) -> String {
    let (keygen, sign) = match set {
        "SLH-DSA-SHA2-128-24" => ("33.8", "8.42"),
        "SLH-DSA-SHA2-192-24" => ("31.3", "35.3"),
        "SLH-DSA-SHA2-256-24" => ("39.7", "46.0"),
        "SLH-DSA-SHAKE-128-24" => ("74.4", "20.0"),
        "SLH-DSA-SHAKE-192-24" => ("70.3", "57.8"),
        "SLH-DSA-SHAKE-256-24" => ("74.1", "78.0"),
        other => panic!("no measured cost for {other}"),
    };
    format!(
        " * Cost: crypto_sign_keypair builds the key's whole 2^21-2^22-leaf tree\n \
         * ({keygen} s of CPU on one thread on the machine of BENCHMARKS.md, a\n \
         * shared 2-core AMD EPYC Zen 4 VM). crypto_sign and crypto_sign_signature\n \
         * are handed only the secret key, so EVERY call rebuilds that tree\n \
         * before signing: {keygen} s plus the {sign} s a signature takes from a kept\n \
         * tree (55 s per call was reported for SHA2-128-24). To keep the tree,\n \
         * use <sphincs.h>: save sphincs_secret_key_tree_cache beside the key,\n \
         * load both with sphincs_secret_key_import_with_tree_cache, and sign\n \
         * with sphincs_sign (docs/sp800-230.md).\n \
         *\n"
    )
}

/// The header of the `id`-th set (its number in the one-set-per-unit check).
fn nist_header(id: usize, s: &Set) -> String {
    let template = include_str!("nist_header.h.in");
    let (origin, randomness, extra, seed_doc) = if s.supercop {
        (
            "SUPERCOP's api.h of crypto_sign/sphincs256",
            " * Randomness: signing is deterministic (CRYPTO_DETERMINISTIC) and draws\n \
             * nothing; crypto_sign_keypair draws CRYPTO_SEEDBYTES, the secret key itself,",
            "\n#define CRYPTO_DETERMINISTIC 1",
            "the secret key SK1 || Q || SK2 itself,\n * which crypto_sign_keypair draws; SUPERCOP's api.h has no seed keypair",
        )
    } else {
        (
            "the SPHINCS+ reference code's api.h",
            " * Randomness: crypto_sign_keypair draws CRYPTO_SEEDBYTES and\n \
             * crypto_sign_signature / crypto_sign draw n bytes (the signing randomness)",
            "",
            "SK.seed || SK.prf || PK.seed",
        )
    };
    let max = if s.limited { 1u64 << 24 } else { 0 };
    let randomness = match s.limited {
        true => format!("{}{randomness}", limited_cost(s.lookup)),
        false => randomness.to_string(),
    };
    template
        .replace("@ORIGIN@", origin)
        .replace("@RANDOMNESS@", &randomness)
        .replace("@EXTRA_DEFINES@", extra)
        .replace("@SEED_DOC@", seed_doc)
        .replace("@ID@", &(id + 1).to_string())
        .replace("@FILE@", &s.file)
        .replace("@SET@", s.lookup)
        .replace("@ALGNAME@", s.algname)
        .replace("@PK@", &s.pk.to_string())
        .replace("@SK@", &s.sk.to_string())
        .replace("@SIG@", &s.sig.to_string())
        .replace("@SEED@", &s.seed.to_string())
        .replace("@MAX@", &max.to_string())
}

#[test]
fn nist_headers_match_the_sets() {
    check(
        &crate_dir().join("include/sphincs/nist_impl.h"),
        include_str!("nist_impl.h.in"),
    );
    let dir = crate_dir().join("include/sphincs/nist");
    let sets = sets();
    assert_eq!(sets.len(), 55);
    for (id, s) in sets.iter().enumerate() {
        check(&dir.join(format!("{}.h", s.file)), &nist_header(id, s));
    }
    // No header for a set that no longer exists.
    if std::env::var_os("SPHINCS_BLESS").is_none() {
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        let mut want: Vec<String> = sets.iter().map(|s| format!("{}.h", s.file)).collect();
        want.sort();
        assert_eq!(files, want);
    }
}
