//! The core's imports run one way (crates/sphincs/ARCHITECTURE.md): every
//! `crate::` path in a module's non-test code names a module on the same
//! rung or below it. A new module must be given a rung here; an import that
//! points up fails with the file and the path.
//!
//! And no module reaches itself through its imports (`crate::`, `self::`
//! and `super::` paths), in the core or in the front ends' crates (python,
//! capi, cli, openssl-provider, js, read from `../<crate>/src`): a circle fails
//! with its chain of files. The kernels of `hash/backend/` and their
//! dispatcher count as one module.
//!
//! And the front ends name keys through the front door only: no file of
//! theirs (but the ACVP and KAT drivers) names the core's per-family types
//! (`Dyn*`, `Spx*`, `Sphincs256*`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
            "openpgp",
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
            "parts",
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
            "checks",
            "params",
            "sphincsplus::sets",
            "prehash",
            "mode",
            "error_message",
            "message",
            "rand",
        ],
    ),
    ("hash", &["hash", "sphincs256::hash", "sphincs256::masks"]),
    (
        "limits and leaves",
        &[
            "error",
            "vocabulary",
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
    modules: &BTreeMap<String, PathBuf>,
    reexports: &BTreeMap<String, String>,
) -> Option<String> {
    let first = segs.first()?;
    if !modules.contains_key(first) {
        return reexports.get(first).cloned();
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

/// One crate's sources: every `.rs` file under `src` and the module it is.
struct Sources {
    src: PathBuf,
    /// The crate root's module name (`lib` or `main`).
    root: String,
    /// Module → its file.
    files: BTreeMap<String, PathBuf>,
}

impl Sources {
    fn read(src: PathBuf) -> Sources {
        let mut found = Vec::new();
        let mut dirs = vec![src.clone()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    found.push(p);
                }
            }
        }
        let root = if src.join("lib.rs").exists() {
            "lib"
        } else {
            "main"
        }
        .to_string();
        let mut files = BTreeMap::new();
        for p in found {
            let rel = p.strip_prefix(&src).unwrap().with_extension("");
            let m = rel.to_string_lossy().replace('/', "::");
            let m = m.strip_suffix("::mod").map(str::to_string).unwrap_or(m);
            files.insert(m, p);
        }
        Sources { src, root, files }
    }

    /// `crates/<name>/src/<file>` of a module, for messages.
    fn file(&self, module: &str) -> String {
        let crate_dir = self.src.parent().unwrap();
        let shown = |p: &Path| {
            let name = crate_dir.file_name().unwrap().to_string_lossy();
            format!(
                "crates/{name}/{}",
                p.strip_prefix(crate_dir).unwrap().display()
            )
        };
        match self.files.get(module) {
            Some(p) => shown(p),
            None => shown(&self.src.join(module.replace("::", "/"))) + "/",
        }
    }

    /// Names the crate root re-exports (`pub use module::{A, B}`, `pub use
    /// module::*`) or defines itself, and the module each comes from.
    fn root_names(&self) -> BTreeMap<String, String> {
        let lib = std::fs::read_to_string(&self.files[&self.root]).unwrap();
        let lib = without_comments(&lib);
        let mut names = BTreeMap::new();
        let mut globs = Vec::new();
        for stmt in lib.split(';') {
            // Attributes (`#[cfg(feature = "alloc")]`) before the item.
            let stmt = stmt
                .trim()
                .lines()
                .map(str::trim)
                .filter(|l| !l.starts_with("#["))
                .collect::<Vec<_>>()
                .join(" ");
            let Some(body) = stmt.strip_prefix("pub use ") else {
                continue;
            };
            let body = body.strip_prefix("crate::").unwrap_or(body);
            let module = body.split("::").next().unwrap().to_string();
            if body.ends_with("::*") {
                globs.push(module);
                continue;
            }
            let list = match body.find("::{") {
                Some(i) => body[i + 3..].trim_end_matches('}'),
                None => body.rsplit_once("::").unwrap().1,
            };
            for n in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                names.insert(n.to_string(), module.clone());
            }
        }
        // A glob re-export: the public items its module defines.
        for module in globs {
            let Some(f) = self.files.get(&module) else {
                continue;
            };
            for name in defined(&std::fs::read_to_string(f).unwrap()) {
                names.entry(name).or_insert_with(|| module.clone());
            }
        }
        // `#[macro_export]` macros live at the root, whichever file has them.
        for (module, f) in &self.files {
            let code = std::fs::read_to_string(f).unwrap();
            for (at, _) in code.match_indices("macro_rules! ") {
                if code[..at].trim_end().ends_with("#[macro_export]") {
                    let name = ident_path(&code[at + "macro_rules! ".len()..]);
                    names.insert(name[0].clone(), module.clone());
                }
            }
        }
        // Items the root defines itself.
        for name in defined(&lib) {
            names.entry(name).or_insert_with(|| self.root.clone());
        }
        names
    }

    /// Every import edge: (from module, to module, the path as written).
    fn edges(&self) -> Vec<(String, String, String)> {
        let names = self.root_names();
        let mut out = Vec::new();
        for (from, f) in &self.files {
            let code = without_comments(&without_tests(&std::fs::read_to_string(f).unwrap()));
            for segs in paths_in(&code, from, &self.root) {
                if let Some(to) = target(&segs, &self.files, &names) {
                    out.push((from.clone(), to, segs.join("::")));
                }
            }
        }
        out
    }
}

/// Names a file defines at any depth with `pub`/`pub(crate)`: functions,
/// types, traits, constants, statics, macros.
fn defined(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        let Some(rest) = line
            .strip_prefix("pub ")
            .or_else(|| line.strip_prefix("pub(crate) "))
        else {
            continue;
        };
        let rest = rest
            .trim_start_matches("unsafe ")
            .trim_start_matches("extern \"C\" ");
        for kw in [
            "fn ", "struct ", "enum ", "const ", "static ", "type ", "trait ", "union ",
        ] {
            if let Some(name) = rest.strip_prefix(kw) {
                out.extend(ident_path(name).into_iter().take(1));
            }
        }
    }
    out
}

/// Every `crate::`, `self::` and `super::` path in a module's code, as
/// segments from the crate root (`use crate::{a, b::C}` gives two paths).
fn paths_in(code: &str, from: &str, root: &str) -> Vec<Vec<String>> {
    let mut paths: Vec<Vec<String>> = Vec::new();
    let here: Vec<String> = if from == root {
        Vec::new()
    } else {
        from.split("::").map(str::to_string).collect()
    };
    for (prefix, base) in [
        ("crate::", Vec::new()),
        ("self::", here.clone()),
        ("super::", here[..here.len().saturating_sub(1)].to_vec()),
    ] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c == '$' || c == '_' || c.is_ascii_alphanumeric()) {
                continue; // `$crate::` in a macro expands where it is used.
            }
            if prefix != "crate::" && code[..at].ends_with("::") {
                continue; // `super::super::` is read from its first `super::`.
            }
            let mut base = base.clone();
            let mut rest = &code[at + prefix.len()..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            let with = |p: Vec<String>| base.iter().cloned().chain(p).collect::<Vec<_>>();
            match rest.strip_prefix('{') {
                Some(group) => {
                    let inner = &group[..group.find('}').unwrap_or(group.len())];
                    paths.extend(inner.split(',').map(|p| with(ident_path(p.trim()))));
                }
                None => paths.push(with(ident_path(rest))),
            }
        }
    }
    paths.retain(|p| !p.is_empty());
    paths
}

/// The rungs check of the core (see RUNGS).
#[test]
fn imports_run_downward_only() {
    let core = Sources::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut modules = BTreeMap::new();
    for m in core.files.keys() {
        let r = rung(m).unwrap_or_else(|| panic!("module {m} has no rung in tests/layers.rs"));
        modules.insert(m.clone(), r);
    }
    let edges = core.edges();
    let mut wrong = Vec::new();
    for (from, to, path) in &edges {
        let (from_rung, to_rung) = (modules[from], modules[to]);
        if to_rung < from_rung {
            wrong.push(format!(
                "{from} ({}) imports {path} from {to} ({})",
                RUNGS[from_rung].0, RUNGS[to_rung].0
            ));
        }
    }
    assert!(
        edges.len() > 100,
        "the scan found only {} imports: is it reading the sources?",
        edges.len()
    );
    assert!(
        wrong.is_empty(),
        "imports that point up:\n{}",
        wrong.join("\n")
    );
}

/// The node a module is in the circle check: `hash::backend` and everything
/// under it (the kernels and their dispatcher, which call one another) is one.
fn node(module: &str) -> String {
    if module == "hash::backend" || module.starts_with("hash::backend::") {
        "hash::backend".into()
    } else {
        module.into()
    }
}

/// The import circles of a graph: for each group of modules that reach one
/// another, one shortest circle through it, as `file -[path]-> file -> ...`.
fn circles(edges: &[(String, String, String)], file: &dyn Fn(&str) -> String) -> Vec<String> {
    let mut next: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for (from, to, path) in edges {
        if from != to {
            next.entry(from).or_default().entry(to).or_insert(path);
        }
    }
    // Shortest way from `a` back to `a`, by breadth-first search.
    type Next<'a> = BTreeMap<&'a str, BTreeMap<&'a str, &'a str>>;
    fn circle_through<'a>(next: &Next<'a>, a: &'a str) -> Option<Vec<&'a str>> {
        let mut came: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([a]);
        while let Some(m) = queue.pop_front() {
            for &n in next.get(m).map(|t| t.keys()).into_iter().flatten() {
                if n == a {
                    let mut chain = vec![m];
                    while let Some(&p) = came.get(chain.last().unwrap()) {
                        chain.push(p);
                    }
                    chain.reverse();
                    if chain[0] != a {
                        chain.insert(0, a);
                    }
                    chain.push(a);
                    return Some(chain);
                }
                if n != a && !came.contains_key(n) {
                    came.insert(n, m);
                    queue.push_back(n);
                }
            }
        }
        None
    }
    fn reach<'a>(next: &Next<'a>, a: &'a str) -> BTreeSet<&'a str> {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![a]);
        while let Some(m) = todo.pop() {
            for &n in next.get(m).map(|t| t.keys()).into_iter().flatten() {
                if seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for &a in next.keys() {
        if seen.contains(a) {
            continue;
        }
        let Some(chain) = circle_through(&next, a) else {
            continue;
        };
        // Everything that `a` reaches and that reaches `a` is on a circle
        // with it and reported with it.
        let group: Vec<&str> = next
            .keys()
            .copied()
            .filter(|&b| reach(&next, a).contains(b) && reach(&next, b).contains(a))
            .collect();
        seen.extend(group.iter().copied());
        let mut line = file(chain[0]);
        for w in chain.windows(2) {
            line += &format!(" -[{}]-> {}", next[w[0]][w[1]], file(w[1]));
        }
        if group.len() + 1 > chain.len() {
            line += &format!(" (circles join all of {})", group.join(", "));
        }
        out.push(line);
    }
    out
}

/// Import edges between circle-check nodes, without the ones listed as
/// known (from, to) module pairs.
fn node_edges(src: &Sources, known: &[(&str, &str)]) -> Vec<(String, String, String)> {
    src.edges()
        .into_iter()
        .filter(|(f, t, _)| !known.contains(&(f.as_str(), t.as_str())))
        .map(|(f, t, p)| (node(&f), node(&t), p))
        .collect()
}

/// `at_least`: fewer imports than this means the scan is not reading the
/// sources (a small crate such as `crates/js` has few).
fn assert_no_circles(src: &Sources, known: &[(&str, &str)], at_least: usize) {
    let edges = node_edges(src, known);
    assert!(
        edges.len() >= at_least,
        "the scan found only {} imports in {}: is it reading the sources?",
        edges.len(),
        src.src.display()
    );
    let found = circles(&edges, &|m| src.file(m));
    assert!(
        found.is_empty(),
        "import circles (a module may not reach itself through its imports):\n{}",
        found.join("\n")
    );
}

/// No module of the core reaches itself through its imports; the kernels of
/// `hash/backend/` and their dispatcher count as one module.
#[test]
fn core_has_no_import_circles() {
    assert_no_circles(
        &Sources::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("src")),
        &[],
        11,
    );
}

/// The front ends' crates, found beside this one.
fn front_end(name: &str) -> Sources {
    Sources::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(name)
            .join("src"),
    )
}

/// Each binding's crate (Python, C, CLI, OpenSSL provider, JavaScript, PKCS#11), checked as the
/// core is.
#[test]
fn front_ends_have_no_import_circles() {
    for (name, at_least) in [
        ("python", 11),
        ("capi", 11),
        ("cli", 11),
        ("openssl-provider", 11),
        ("js", 5),
        ("pkcs11", 11),
    ] {
        assert_no_circles(&front_end(name), &[], at_least);
    }
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
    assert!(rung("hash::backend::select") < rung("error"));
    assert!(rung("error_message") < rung("error"));
    assert_eq!(rung("sphincs256::params"), Some(RUNGS.len() - 1));
}

#[test]
fn the_scan_sees_a_circle() {
    // Paths as the scan reads them: a group, `super::` from a nested module.
    let code = "use crate::{mode::KeyMode, params};\nuse super::super::x::Y;\n";
    let got = paths_in(code, "a::b::c", "lib");
    assert_eq!(
        got,
        [vec!["mode", "KeyMode"], vec!["params"], vec!["a", "x", "Y"]]
    );
    let e = |f: &str, t: &str| (f.to_string(), t.to_string(), t.to_string());
    let file = |m: &str| format!("{m}.rs");
    // error → mode → params → error, and a path out of the circle.
    let edges = [
        e("error", "mode"),
        e("mode", "params"),
        e("params", "error"),
        e("params", "bits"),
    ];
    let found = circles(&edges, &file);
    assert_eq!(found.len(), 1);
    assert!(found[0]
        .starts_with("error.rs -[mode]-> mode.rs -[params]-> params.rs -[error]-> error.rs"));
    assert!(circles(&edges[1..], &file).is_empty());
    // The kernels and their dispatcher are one node.
    assert_eq!(node("hash::backend::select"), node("hash::backend::keccak"));
    assert_ne!(node("hash::haraka"), node("hash::backend"));
}

/// The prefixes of the core's per-family key types (`DynSigningKey`,
/// `SpxSigningKey`, `Sphincs256VerifyingKey`, `SpxAlgorithm`, ...): a front
/// end (CLI, Python, C, provider) names keys through `sphincs::any` only.
const FAMILY_TYPES: &[&str] = &["Dyn", "Spx", "Sphincs256"];

/// Front-end files that test one family's own procedures by nature (NIST
/// ACVP and KAT drivers) and so name its types.
const FAMILY_DRIVERS: &[&str] = &[
    "crates/cli/src/vectors/acvp.rs",
    "crates/cli/src/vectors/kat.rs",
];

/// `code` with the text of its string literals blanked (a Python class may
/// be named `"SpxAlgorithm"` in a string).
fn without_strings(code: &str) -> String {
    let (mut out, mut in_str, mut escaped) = (String::with_capacity(code.len()), false, false);
    for c in code.chars() {
        let closing = in_str && c == '"' && !escaped;
        let blank = in_str && !closing;
        escaped = in_str && c == '\\' && !escaped;
        if c == '"' && !blank {
            in_str = !in_str;
        }
        out.push(if blank { ' ' } else { c });
    }
    out
}

/// The type names in `code` that start with a family prefix and a capital
/// letter (`SpxAlgorithm`, not `Dynamic` or `spx`).
fn family_type_names(code: &str) -> BTreeSet<String> {
    let word = |c: char| c == '_' || c.is_ascii_alphanumeric();
    let mut found = BTreeSet::new();
    for prefix in FAMILY_TYPES {
        for (at, _) in code.match_indices(prefix) {
            if code[..at].chars().next_back().is_some_and(word) {
                continue;
            }
            let name: String = code[at..].chars().take_while(|&c| word(c)).collect();
            if name[prefix.len()..].starts_with(|c: char| c.is_ascii_uppercase()) {
                found.insert(name);
            }
        }
    }
    found
}

/// The names `code` defines as a type or function of its own (a binding's
/// class may be called `SpxPrivateKey`).
fn own_names(code: &str) -> BTreeSet<String> {
    let mut own = BTreeSet::new();
    for kw in ["struct ", "enum ", "type ", "trait ", "fn "] {
        for (at, _) in code.match_indices(kw) {
            if let Some(name) = ident_path(&code[at + kw.len()..]).into_iter().next() {
                own.insert(name);
            }
        }
    }
    own
}

#[test]
fn front_ends_use_only_the_front_door() {
    let mut bad = Vec::new();
    for name in ["cli", "python", "capi", "openssl-provider", "js", "pkcs11"] {
        let src = front_end(name);
        let code: BTreeMap<String, String> = src
            .files
            .iter()
            .map(|(m, p)| {
                let text = std::fs::read_to_string(p).unwrap();
                (
                    m.clone(),
                    without_strings(&without_tests(&without_comments(&text))),
                )
            })
            .collect();
        let own: BTreeSet<String> = code.values().flat_map(|c| own_names(c)).collect();
        for (module, text) in &code {
            let file = src.file(module);
            if FAMILY_DRIVERS.contains(&file.as_str()) {
                continue;
            }
            for n in family_type_names(text).difference(&own) {
                bad.push(format!("{file}: {n}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "front ends naming the core's per-family types (use sphincs::any):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_sees_a_family_type() {
    let code = "use sphincs::{any::AnySigningKey, sphincsplus::SpxAlgorithm};\nlet k = sphincs::DynSigningKey::generate();\nstruct SpxPrivateKey;\nlet d = Dynamic; let x = MyDynX; let s = Sphincs256VerifyingKey::from(x);\n";
    let names: Vec<String> = family_type_names(code).into_iter().collect();
    assert_eq!(
        names,
        [
            "DynSigningKey",
            "Sphincs256VerifyingKey",
            "SpxAlgorithm",
            "SpxPrivateKey"
        ]
    );
    let own = own_names(code);
    assert!(own.contains("SpxPrivateKey") && !own.contains("SpxAlgorithm"));
    let quoted = without_strings("let a = \"SpxAlgorithm \\\" DynX\"; let b = SpxB;");
    assert_eq!(
        family_type_names(&quoted).into_iter().collect::<Vec<_>>(),
        ["SpxB"]
    );
}
