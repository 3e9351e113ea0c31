//! Static checks of the two Unity packages (no Unity needed): the engine-neutral C#
//! layer `bindings/csharp` (com.sinew.core, assembly Sinew.Core) and the Unity package
//! `unity-sample` (com.sinew.physics, assemblies Sinew.Runtime and the sample), which
//! depends on it instead of carrying a copy:
//!
//! * package.json and every .asmdef are valid JSON with the fields Unity needs; the Unity
//!   package declares the core package as a dependency at its version, and every asmdef
//!   reference resolves to an assembly of one of the two packages;
//! * every asset and folder Unity imports has a .meta, every .meta belongs to an asset
//!   (or to a native plugin that Tools~/build-plugins.sh puts there), GUIDs are unique
//!   across both packages;
//! * each native plugin .meta enables exactly its platform.
//!
//! To create the .meta files of new files (deterministic GUIDs from the path):
//! `SINEW_UPDATE_UNITY=1 cargo test --test bindings unity_package::`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Assemblies of optional Unity packages a sample may reference, and their packages.
const UNITY_PACKAGE_ASSEMBLIES: &[(&str, &str)] = &[
    ("Unity.Burst", "com.unity.burst"),
    ("Unity.Mathematics", "com.unity.mathematics"),
    ("Unity.Collections", "com.unity.collections"),
];

/// Native plugins: path under unity-sample, the platform entry that must be enabled.
const PLUGINS: &[(&str, &str)] = &[
    ("Plugins/Linux/x86_64/libsinew.so", "Standalone: Linux64"),
    ("Plugins/Windows/x86_64/sinew.dll", "Standalone: Win64"),
    ("Plugins/macOS/libsinew.dylib", "Standalone: OSXUniversal"),
    ("Plugins/iOS/libsinew.a", "iPhone: iOS"),
    ("Plugins/Android/arm64-v8a/libsinew.so", "Android: Android"),
    ("Plugins/Android/x86_64/libsinew.so", "Android: Android"),
    ("Plugins/iOS/Simulator/libsinew.a", "iPhone: iOS"),
    ("Plugins/WebGL/libsinew.a", "WebGL: WebGL"),
];

// ---------------------------------------------------------------------------------
// A small strict JSON parser (RFC 8259), enough to validate and query.
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(key),
            _ => None,
        }
    }
    fn str(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Json::Str(s)) => Some(s),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing characters at byte {}", p.i));
        }
        Ok(v)
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }
    fn lit(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            self.err("bad literal")
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            None => self.err("unexpected end"),
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let k = match self.value()? {
                        Json::Str(k) => k,
                        _ => return self.err("object key is not a string"),
                    };
                    self.ws();
                    if self.s.get(self.i) != Some(&b':') {
                        return self.err("expected ':'");
                    }
                    self.i += 1;
                    let v = self.value()?;
                    if m.insert(k.clone(), v).is_some() {
                        return self.err(&format!("duplicate key {k:?}"));
                    }
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(m));
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(a));
                        }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    match self.s.get(self.i) {
                        None => return self.err("unterminated string"),
                        Some(b'"') => {
                            self.i += 1;
                            return Ok(Json::Str(out));
                        }
                        Some(b'\\') => {
                            let c = self.s.get(self.i + 1).copied();
                            self.i += 2;
                            match c {
                                Some(b'"') => out.push('"'),
                                Some(b'\\') => out.push('\\'),
                                Some(b'/') => out.push('/'),
                                Some(b'b') => out.push('\u{8}'),
                                Some(b'f') => out.push('\u{c}'),
                                Some(b'n') => out.push('\n'),
                                Some(b'r') => out.push('\r'),
                                Some(b't') => out.push('\t'),
                                Some(b'u') => {
                                    let hex = std::str::from_utf8(
                                        self.s.get(self.i..self.i + 4).unwrap_or(b""),
                                    )
                                    .map_err(|e| e.to_string())?;
                                    let code =
                                        u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                                    self.i += 4;
                                }
                                _ => return self.err("bad escape"),
                            }
                        }
                        Some(&c) if c < 0x20 => return self.err("control character in string"),
                        Some(_) => {
                            let start = self.i;
                            while self.i < self.s.len()
                                && self.s[self.i] != b'"'
                                && self.s[self.i] != b'\\'
                                && self.s[self.i] >= 0x20
                            {
                                self.i += 1;
                            }
                            out.push_str(
                                std::str::from_utf8(&self.s[start..self.i])
                                    .map_err(|e| e.to_string())?,
                            );
                        }
                    }
                }
            }
            Some(b't') => self.lit("true", Json::Bool(true)),
            Some(b'f') => self.lit("false", Json::Bool(false)),
            Some(b'n') => self.lit("null", Json::Null),
            Some(_) => {
                let start = self.i;
                if self.s.get(self.i) == Some(&b'-') {
                    self.i += 1;
                }
                let digits = |p: &mut Self| {
                    let d = p.i;
                    while p.i < p.s.len() && p.s[p.i].is_ascii_digit() {
                        p.i += 1;
                    }
                    p.i > d
                };
                if self.s.get(self.i) == Some(&b'0') {
                    self.i += 1;
                } else if !digits(self) {
                    return self.err("unexpected character");
                }
                if self.s.get(self.i) == Some(&b'.') {
                    self.i += 1;
                    if !digits(self) {
                        return self.err("digits after '.'");
                    }
                }
                if matches!(self.s.get(self.i), Some(b'e') | Some(b'E')) {
                    self.i += 1;
                    if matches!(self.s.get(self.i), Some(b'+') | Some(b'-')) {
                        self.i += 1;
                    }
                    if !digits(self) {
                        return self.err("digits in exponent");
                    }
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                Ok(Json::Num(
                    text.parse().map_err(|_| format!("number {text}"))?,
                ))
            }
        }
    }
}

#[test]
fn json_parser_accepts_json_and_rejects_near_misses() {
    let v = Parser::parse(r#" {"a": [1, -2.5e3, true, null, "x\"\u00e9"], "b": {}} "#).unwrap();
    assert_eq!(v.get("b"), Some(&Json::Obj(BTreeMap::new())));
    assert_eq!(
        v.get("a"),
        Some(&Json::Arr(vec![
            Json::Num(1.0),
            Json::Num(-2500.0),
            Json::Bool(true),
            Json::Null,
            Json::Str("x\"é".into())
        ]))
    );
    for bad in [
        r#"{"a": 1,}"#,
        r#"{"a": 1} x"#,
        r#"{'a': 1}"#,
        r#"{"a": 01}"#,
        r#"{"a": 1 "b": 2}"#,
        r#"{"a": 1, "a": 2}"#,
        r#"["a"#,
        "{\"a\": \"line\nbreak\"}",
        r#"// comment
{}"#,
    ] {
        assert!(Parser::parse(bad).is_err(), "accepted {bad:?}");
    }
}

// ---------------------------------------------------------------------------------
// The package
// ---------------------------------------------------------------------------------

fn pkg() -> PathBuf {
    Path::new(ROOT).join("unity-sample")
}

/// The engine-neutral C# layer, a package of its own.
fn core() -> PathBuf {
    Path::new(ROOT).join("bindings/csharp")
}

/// Both packages: folder and the namespace of their deterministic GUIDs.
fn packages() -> [(PathBuf, &'static str); 2] {
    [(core(), "sinew-core"), (pkg(), "sinew-unity")]
}

fn parse_in(root: &Path, rel: &str) -> Json {
    let text = std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    Parser::parse(&text)
        .unwrap_or_else(|e| panic!("{}/{rel} is not valid JSON: {e}", root.display()))
}

fn parse_file(rel: &str) -> Json {
    parse_in(&pkg(), rel)
}

/// The fields Unity needs in a package.json; returns (name, version).
fn check_manifest(root: &Path) -> (String, String) {
    let p = parse_in(root, "package.json");
    let name = p.str("name").expect("package.json: name").to_string();
    assert!(
        name.starts_with("com.")
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'),
        "package name {name:?} must be lower-case reverse-domain"
    );
    assert_eq!(
        p.str("version"),
        Some(env!("CARGO_PKG_VERSION")),
        "{name}: package.json version follows Cargo.toml"
    );
    let unity = p.str("unity").expect("package.json: unity");
    let (year, minor) = unity.split_once('.').expect("unity is YEAR.MINOR");
    assert!(
        year.parse::<u32>().unwrap() >= 2021 && minor.parse::<u32>().is_ok(),
        "{unity}"
    );
    assert!(!p.str("displayName").unwrap_or("").is_empty());
    assert!(!p.str("description").unwrap_or("").is_empty());
    (name, p.str("version").unwrap().to_string())
}

/// Every asmdef under `root`: (path relative to root, parsed JSON).
fn asmdefs(root: &Path) -> Vec<(String, Json)> {
    let mut out = Vec::new();
    walk(root, &mut |p| {
        if p.extension().is_some_and(|e| e == "asmdef") {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let j = parse_in(root, &rel);
            let n = j
                .str("name")
                .unwrap_or_else(|| panic!("{rel}: name"))
                .to_string();
            assert_eq!(
                p.file_stem().unwrap().to_string_lossy(),
                n,
                "{rel}: file named after the assembly"
            );
            out.push((rel, j));
        }
    });
    out
}

fn references(j: &Json) -> Vec<String> {
    match j.get("references") {
        Some(Json::Arr(refs)) => refs
            .iter()
            .map(|r| match r {
                Json::Str(s) => s.clone(),
                other => panic!("asmdef reference {other:?} is not a string"),
            })
            .collect(),
        other => panic!("asmdef references: {other:?}"),
    }
}

#[test]
fn package_json_and_asmdefs_are_valid() {
    check_manifest(&core());
    check_manifest(&pkg());
    let p = parse_file("package.json");
    let Some(Json::Arr(samples)) = p.get("samples") else {
        panic!("package.json: samples")
    };
    assert!(!samples.is_empty());
    for s in samples {
        let path = s.str("path").expect("sample path");
        assert!(
            path.starts_with("Samples~/") && pkg().join(path).is_dir(),
            "sample {path}"
        );
    }

    let all: Vec<(String, Json)> = asmdefs(&core())
        .into_iter()
        .chain(asmdefs(&pkg()))
        .collect();
    assert!(
        all.len() >= 3,
        "{:?}",
        all.iter().map(|a| &a.0).collect::<Vec<_>>()
    );
    let names: BTreeSet<String> = all
        .iter()
        .map(|(_, j)| j.str("name").unwrap().to_string())
        .collect();
    assert_eq!(
        names.len(),
        all.len(),
        "assembly names are unique: {names:?}"
    );
    for (rel, j) in &all {
        for r in references(j) {
            if names.contains(&r) {
                continue;
            }
            // An assembly of an optional Unity package: only when the asmdef compiles
            // nothing without that package (a define from its versionDefines is one of
            // its defineConstraints), so importing it without the package does no harm.
            let package = UNITY_PACKAGE_ASSEMBLIES
                .iter()
                .find(|(asm, _)| *asm == r)
                .map(|(_, pkg)| *pkg)
                .unwrap_or_else(|| {
                    panic!("{rel} references {r}, which neither package defines ({names:?})")
                });
            let constraints: Vec<&str> = match j.get("defineConstraints") {
                Some(Json::Arr(a)) => a
                    .iter()
                    .filter_map(|d| match d {
                        Json::Str(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let guarded = match j.get("versionDefines") {
                Some(Json::Arr(v)) => v.iter().any(|d| {
                    d.str("name") == Some(package)
                        && d.str("define")
                            .is_some_and(|def| constraints.contains(&def))
                }),
                _ => false,
            };
            assert!(
                guarded,
                "{rel} references {r} ({package}) without a defineConstraint from its versionDefines"
            );
        }
    }
    let core_asm = parse_in(&core(), "Sinew.Core.asmdef");
    assert_eq!(
        core_asm.get("allowUnsafeCode"),
        Some(&Json::Bool(true)),
        "the core asmdef allows unsafe code (pointers of the raw layer)"
    );
    assert_eq!(
        core_asm.get("noEngineReferences"),
        Some(&Json::Bool(true)),
        "the core package is engine-neutral"
    );
    let runtime = parse_file("Runtime/Sinew.Runtime.asmdef");
    assert_eq!(
        runtime.get("allowUnsafeCode"),
        Some(&Json::Bool(true)),
        "Runtime asmdef allows unsafe code"
    );
    assert_eq!(references(&runtime), ["Sinew.Core"]);
    let sample = parse_file("Samples~/RopeAndCloth/Sinew.Samples.RopeAndCloth.asmdef");
    assert_eq!(references(&sample), ["Sinew.Core", "Sinew.Runtime"]);
    // The inspectors live in an editor-only assembly on top of the runtime one.
    let editor = parse_file("Editor/Sinew.Editor.asmdef");
    assert_eq!(editor.str("name"), Some("Sinew.Editor"));
    assert_eq!(references(&editor), ["Sinew.Core", "Sinew.Runtime"]);
    assert_eq!(
        editor.get("includePlatforms"),
        Some(&Json::Arr(vec![Json::Str("Editor".into())])),
        "Sinew.Editor is editor-only"
    );
}

#[test]
fn unity_package_depends_on_the_core_package_instead_of_a_copy() {
    let (core_name, core_version) = check_manifest(&core());
    assert_eq!(core_name, "com.sinew.core");
    let p = parse_file("package.json");
    let Some(Json::Obj(deps)) = p.get("dependencies") else {
        panic!("unity-sample/package.json: no dependencies object")
    };
    assert_eq!(
        deps.get(&core_name),
        Some(&Json::Str(core_version.clone())),
        "unity-sample depends on {core_name} {core_version}"
    );
    // No C# of the core package is copied into the Unity package.
    let mut core_files = BTreeSet::new();
    walk(&core(), &mut |p| {
        if p.extension().is_some_and(|e| e == "cs") {
            core_files.insert(p.file_name().unwrap().to_owned());
        }
    });
    assert!(core_files.len() >= 10, "{core_files:?}");
    walk(&pkg(), &mut |p| {
        assert!(
            !(p.extension().is_some_and(|e| e == "cs")
                && core_files.contains(p.file_name().unwrap())),
            "{} copies a file of bindings/csharp: the Unity package uses com.sinew.core",
            p.display()
        );
    });
    assert!(!pkg().join("Runtime/Bindings").exists());
    // The core package's sources are those Mono compiles (tests/csharp/run.sh).
    let run = std::fs::read_to_string(Path::new(ROOT).join("tests/csharp/run.sh")).unwrap();
    assert!(run.contains("-recurse:'bindings/csharp/*.cs'") && run.contains("Sinew.Core.dll"));
}

/// Visits every file under `dir` (not folders), skipping hidden entries.
pub(crate) fn walk(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.file_name().unwrap().to_string_lossy().starts_with('.') {
            continue;
        }
        if p.is_dir() {
            walk(&p, f);
        } else {
            f(&p);
        }
    }
}

fn update() -> bool {
    std::env::var_os("SINEW_UPDATE_UNITY").is_some()
}

fn meta_of(p: &Path) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(".meta");
    PathBuf::from(s)
}

/// Folders Unity does not import: hidden ones and those ending in `~` (their contents
/// neither, except Samples~, whose contents are imported into a project with their .meta).
fn imported(rel: &Path) -> bool {
    let parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    for (i, c) in parts.iter().enumerate() {
        if c.starts_with('.') {
            return false;
        }
        if c.ends_with('~') && !(i == 0 && c == "Samples~") {
            return false;
        }
    }
    true
}

/// Deterministic GUID (32 hex digits) from a package and a path in it: two FNV-1a 64
/// hashes.
fn guid_for(namespace: &str, rel: &str) -> String {
    let fnv = |seed: u64| {
        let mut h = seed;
        for b in format!("{namespace}:{rel}").bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
        h
    };
    format!(
        "{:016x}{:016x}",
        fnv(0xcbf2_9ce4_8422_2325),
        fnv(0x8422_2325_cbf2_9ce4)
    )
}

fn meta_text(namespace: &str, rel: &Path, is_dir: bool) -> Option<String> {
    let guid = guid_for(namespace, &rel.to_string_lossy());
    let tail = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n";
    let ext = rel
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let body = if is_dir {
        format!("folderAsset: yes\nDefaultImporter:\n  externalObjects: {{}}\n{tail}")
    } else {
        match ext.as_str() {
            "cs" => format!(
                "MonoImporter:\n  externalObjects: {{}}\n  serializedVersion: 2\n  defaultReferences: []\n  executionOrder: 0\n  icon: {{instanceID: 0}}\n{tail}"
            ),
            "asmdef" => format!("AssemblyDefinitionImporter:\n  externalObjects: {{}}\n{tail}"),
            "json" => format!("PackageManifestImporter:\n  externalObjects: {{}}\n{tail}"),
            "md" | "txt" => format!("TextScriptImporter:\n  externalObjects: {{}}\n{tail}"),
            "shader" => format!(
                "ShaderImporter:\n  externalObjects: {{}}\n  defaultTextures: []\n  nonModifiableTextures: []\n{tail}"
            ),
            _ => return None, // native plugins: hand-written PluginImporter metas
        }
    };
    Some(format!("fileFormatVersion: 2\nguid: {guid}\n{body}"))
}

fn collect(dir: &Path, root: &Path, assets: &mut Vec<(PathBuf, bool)>, metas: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        if !imported(&rel) {
            continue;
        }
        if p.is_dir() {
            if !rel.to_string_lossy().ends_with('~') {
                assets.push((rel.clone(), true));
            }
            collect(&p, root, assets, metas);
        } else if rel.extension().is_some_and(|e| e == "meta") {
            metas.push(rel);
        } else {
            assets.push((rel, false));
        }
    }
}

#[test]
fn every_asset_has_a_meta_with_a_unique_guid() {
    let mut errors = Vec::new();
    let mut guids: BTreeMap<String, String> = BTreeMap::new();
    for (root, namespace) in packages() {
        let mut assets: Vec<(PathBuf, bool)> = Vec::new();
        let mut metas: Vec<PathBuf> = Vec::new();
        collect(&root, &root, &mut assets, &mut metas);
        for (rel, is_dir) in &assets {
            let m = meta_of(&root.join(rel));
            if !m.exists() {
                match meta_text(namespace, rel, *is_dir) {
                    Some(text) if update() => std::fs::write(&m, text).unwrap(),
                    _ => errors.push(format!("{namespace}: {} has no .meta", rel.display())),
                }
            }
        }
        if update() {
            metas.clear();
            collect(&root, &root, &mut Vec::new(), &mut metas);
        }
        // Every .meta belongs to an asset, or to a native plugin built by Tools~/build-plugins.sh.
        let plugin_metas: BTreeSet<String> = PLUGINS
            .iter()
            .filter(|_| namespace == "sinew-unity")
            .map(|(p, _)| format!("{p}.meta"))
            .collect();
        for m in &metas {
            let s = m.to_string_lossy().into_owned();
            let asset = root.join(s.trim_end_matches(".meta"));
            if !asset.exists() && !plugin_metas.contains(&s) {
                if update() {
                    std::fs::remove_file(root.join(m)).unwrap();
                    continue;
                }
                errors.push(format!("{namespace}: {s} has no asset"));
            }
            let text = std::fs::read_to_string(root.join(m)).unwrap();
            if !text.starts_with("fileFormatVersion: 2\n") {
                errors.push(format!("{namespace}: {s}: not a Unity .meta"));
            }
            let guid = text
                .lines()
                .find_map(|l| l.strip_prefix("guid: "))
                .unwrap_or("")
                .to_string();
            if guid.len() != 32
                || !guid
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
            {
                errors.push(format!(
                    "{namespace}: {s}: guid {guid:?} is not 32 lower-case hex digits"
                ));
            }
            if let Some(other) = guids.insert(guid.clone(), format!("{namespace}: {s}")) {
                errors.push(format!("{namespace}: {s} and {other} share guid {guid}"));
            }
        }
    }
    assert!(guids.len() >= 30, "found {} metas", guids.len());
    assert!(
        errors.is_empty(),
        "{}\n(new files: `SINEW_UPDATE_UNITY=1 cargo test --test bindings unity_package::` writes their .meta)",
        errors.join("\n")
    );
}

#[test]
fn native_plugin_metas_name_their_platforms() {
    let all = [
        "Standalone: Linux64",
        "Standalone: Win64",
        "Standalone: OSXUniversal",
        "iPhone: iOS",
        "Android: Android",
        "WebGL: WebGL",
    ];
    for (path, platform) in PLUGINS {
        let text = std::fs::read_to_string(pkg().join(format!("{path}.meta")))
            .unwrap_or_else(|e| panic!("{path}.meta: {e}"));
        assert!(
            text.contains("\nPluginImporter:\n"),
            "{path}.meta is not a PluginImporter"
        );
        assert!(
            text.contains(&format!(
                "      {platform}\n    second:\n      enabled: 1\n"
            )),
            "{path}.meta does not enable {platform}"
        );
        for other in all.iter().filter(|o| *o != platform) {
            assert!(
                !text.contains(&format!("      {other}\n    second:\n      enabled: 1\n")),
                "{path}.meta also enables {other}"
            );
        }
        assert!(
            text.contains("      : Any\n    second:\n      enabled: 0\n"),
            "{path}.meta: 'Any platform' must be off"
        );
        let editor_on = text.contains("      Editor: Editor\n    second:\n      enabled: 1\n");
        let desktop = platform.starts_with("Standalone");
        assert_eq!(
            editor_on, desktop,
            "{path}.meta: the editor loads exactly the desktop plugins"
        );
    }
}
