//! The core's imports run one way (crates/sphincs/ARCHITECTURE.md): every
//! `crate::` path in a module's non-test code names a module on the same
//! rung or below it. A new module must be given a rung here; an import that
//! points up fails with the file and the path.

use std::collections::BTreeMap;
use std::path::Path;

/// Rungs from the top (0) down; a module belongs to the longest prefix that
/// names it. Keep in step with ARCHITECTURE.md.
const RUNGS: &[(&str, &[&str])] = &[
    (
        "front door, keys, encodings",
        &[
            "lib",
            "any",
            "backend",
            "batch",
            "dynamic",
            "encoding",
            "fingerprint",
            "names",
            "functions",
            "keys",
            "pki",
            "sphincsplus",
            "sphincsplus::batch",
            "sphincsplus::kat",
            "sphincs256",
        ],
    ),
    (
        "algorithm",
        &[
            "slh_dsa",
            "sign_trees",
            "tree_cache",
            "hypertree",
            "xmss",
            "fors",
            "wots",
            "merkle",
            "schedule",
            "tree_cache",
            "sphincs256::sign",
            "sphincs256::subtree",
            "sphincs256::horst",
            "sphincs256::ltree",
            "sphincs256::wots",
            "sphincs256::seed",
            "sphincs256::calls",
        ],
    ),
    (
        "parameter sets and vocabulary",
        &[
            "params",
            "sphincsplus::sets",
            "prehash",
            "mode",
            "error",
            "message",
            "rand",
        ],
    ),
    ("hash", &["hash", "sphincs256::hash", "sphincs256::masks"]),
    (
        "limits and leaves",
        &[
            "limits",
            "address",
            "bits",
            "ct_check",
            "threads",
            "sync",
            "prelude",
            "sphincs256::params",
        ],
    ),
];

fn rung(module: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (r, (_, mods)) in RUNGS.iter().enumerate() {
        for m in *mods {
            let hit = module == *m || module.starts_with(&format!("{m}::"));
            if hit && best.is_none_or(|(len, _)| m.len() > len) {
                best = Some((m.len(), r));
            }
        }
    }
    best.map(|(_, r)| r)
}

/// Each line cut at a `//` outside a string: comments and doc links are not
/// imports.
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.lines() {
        let (mut in_str, mut prev) = (false, ' ');
        let mut end = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str && c == '/' && prev == '/' {
                end = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..end]);
        out.push('\n');
    }
    out
}

/// The source with every `#[cfg(test)]` item removed (test code may reach up).
fn without_tests(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // Skip to the item's body and past its matching brace (or `;`).
        let open = rest.find('{');
        let semi = rest.find(';');
        match (open, semi) {
            (Some(o), Some(s)) if s < o => rest = &rest[s + 1..],
            (Some(o), _) => rest = &rest[o + matching_brace(&rest[o..]) + 1..],
            _ => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Offset of the brace closing the one at `s[0]`, skipping string and char literals.
fn matching_brace(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') => {
                i += if b[i + 1] == b'\\' { 3 } else { 2 };
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len() - 1
}

fn ident_path(s: &str) -> Vec<String> {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        segs.push(rest[..end].to_string());
        match rest[end..].strip_prefix("::") {
            Some(r) if !r.starts_with('{') => rest = r,
            _ => break,
        }
    }
    segs
}

/// The module a path names: modules along the path as far as they exist,
/// or the module a root re-export (`crate::Algorithm`) comes from.
fn target(
    segs: &[String],
    modules: &BTreeMap<String, usize>,
    reexports: &BTreeMap<String, String>,
) -> Option<String> {
    let first = segs.first()?;
    if let Some(m) = reexports.get(first) {
        return Some(m.clone());
    }
    let mut module = None;
    let mut path = String::new();
    for s in segs {
        let next = if path.is_empty() {
            s.clone()
        } else {
            format!("{path}::{s}")
        };
        if !modules.contains_key(&next) {
            break;
        }
        path = next;
        module = Some(path.clone());
    }
    module
}

#[test]
fn imports_run_downward_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let module_of = |p: &Path| {
        let rel = p.strip_prefix(&src).unwrap().with_extension("");
        let m = rel.to_string_lossy().replace('/', "::");
        m.strip_suffix("::mod").map(str::to_string).unwrap_or(m)
    };
    let mut modules = BTreeMap::new();
    for f in &files {
        let m = module_of(f);
        let r = rung(&m).unwrap_or_else(|| panic!("module {m} has no rung in tests/layers.rs"));
        modules.insert(m, r);
    }
    // Root re-exports: `pub use module::{A, B}` in lib.rs.
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let mut reexports = BTreeMap::new();
    for stmt in lib.split(';') {
        let Some(body) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (path, names) = match body.find("::{") {
            Some(i) => (&body[..i], body[i + 3..].trim_end_matches('}')),
            None => body.rsplit_once("::").unwrap(),
        };
        let module = path.split("::").next().unwrap().to_string();
        for n in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            reexports.insert(n.to_string(), module.clone());
        }
    }
    reexports.insert("with_parameter_set".into(), "params".into());

    let mut wrong = Vec::new();
    let mut edges = 0;
    for f in &files {
        let from = module_of(f);
        let from_rung = modules[&from];
        let code = without_comments(&without_tests(&std::fs::read_to_string(f).unwrap()));
        let mut paths: Vec<Vec<String>> = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            if code[..at].ends_with('$') {
                continue; // `$crate::` in a macro expands where it is used.
            }
            let rest = &code[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = &group[..group.find('}').unwrap_or(group.len())];
                paths.extend(inner.split(',').map(|p| ident_path(p.trim())));
            } else {
                paths.push(ident_path(rest));
            }
        }
        for (at, _) in code.match_indices("super::") {
            let parent = from.rsplit_once("::").map_or("lib", |(p, _)| p).to_string();
            let mut segs: Vec<String> = parent.split("::").map(str::to_string).collect();
            segs.extend(ident_path(&code[at + "super::".len()..]));
            paths.push(segs);
        }
        for segs in paths.iter().filter(|s| !s.is_empty()) {
            let Some(to) = target(segs, &modules, &reexports) else {
                continue;
            };
            edges += 1;
            if modules[&to] < from_rung {
                wrong.push(format!(
                    "{from} ({}) imports {} from {to} ({})",
                    RUNGS[from_rung].0,
                    segs.join("::"),
                    RUNGS[modules[&to]].0
                ));
            }
        }
    }
    assert!(
        edges > 100,
        "the scan found only {edges} imports: is it reading the sources?"
    );
    assert!(
        wrong.is_empty(),
        "imports that point up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scan_sees_an_upward_import() {
    // The checker itself: a made-up algorithm file that reaches the key layer.
    let code = "use crate::keys::SigningKey;\n#[cfg(test)]\nmod tests { use crate::any::X; }\n";
    let code = without_tests(code);
    assert!(code.contains("crate::keys"));
    assert!(!code.contains("crate::any"));
    assert_eq!(ident_path("keys::SigningKey;"), ["keys", "SigningKey"]);
    let doc = "/// see [`x`](crate::keys::X)\nlet u = \"a//b\"; // crate::any\nuse crate::hash;\n";
    let code = without_comments(doc);
    assert!(!code.contains("crate::keys") && !code.contains("crate::any"));
    assert!(code.contains("a//b") && code.contains("crate::hash"));
    assert!(rung("keys") < rung("slh_dsa"));
    assert!(rung("hash::backend::select") > rung("error"));
    assert_eq!(rung("sphincs256::params"), Some(RUNGS.len() - 1));
}
