//! Static checks of the Unreal Engine plugin (unreal-sample/Plugins/Sinew), which
//! cannot be compiled here: no Unreal Engine on CI. Used by tests/bindings/cpp_wrapper.rs.
//!
//! What is checked, each because it is a mistake that only shows in the UE editor:
//! * the .uplugin is valid JSON (strict: no trailing commas, no duplicate keys), has
//!   FileVersion 3, every module has a known Type and LoadingPhase and a
//!   `Source/<Name>/<Name>.Build.cs`, and that module implements itself with
//!   `IMPLEMENT_MODULE(..., <Name>)`;
//! * every Build.cs declares `class <FileStem> : ModuleRules` with the
//!   `(ReadOnlyTargetRules Target) : base(Target)` constructor, has balanced brackets,
//!   and every module it depends on is in this plugin, a known engine module, or the
//!   module of an engine plugin that the .uplugin enables;
//! * every header with UCLASS / USTRUCT / UINTERFACE includes `<Stem>.generated.h` as
//!   its LAST include, has one GENERATED_BODY per reflected type and in order, exports
//!   its classes with `<MODULE>_API`, prefixes names U/A (classes) and F (structs);
//!   headers without reflected types include no .generated.h;
//! * Blueprint-visible UFUNCTIONs and UPROPERTYs have a Category; UPROPERTY object
//!   members use TObjectPtr / TWeakObjectPtr, not raw `U*` pointers;
//! * brackets balance in every source; each .cpp includes its own header first;
//! * the Sinew headers are included between THIRD_PARTY_INCLUDES_START/END and exist in
//!   bindings/cpp; plugin code calls no `sinew_*` C function directly (it goes through
//!   sinew.hpp / sinew::Scene) and does no cm <-> m scaling of its own (that lives in
//!   sinew_units.hpp, used through SinewConversions.h);
//! * the bindings/cpp headers use none of Unreal's function-like macro names (check,
//!   verify, ensure, TEXT, ...), which would break them inside an Unreal module.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What `check_plugin` found.
pub struct Report {
    pub errors: Vec<String>,
    /// UCLASS + USTRUCT + UINTERFACE + UENUM declarations seen.
    pub reflected_types: usize,
}

// --- a strict JSON parser (no dependency) -----------------------------------------

#[derive(Debug)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err<T>(&self, what: &str) -> Result<T, String> {
        let line = self.s[..self.i.min(self.s.len())]
            .iter()
            .filter(|&&c| c == b'\n')
            .count()
            + 1;
        Err(format!("JSON: {what} at line {line}"))
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\r' | b'\n') {
            self.i += 1;
        }
    }
    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }
    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 64 {
            return self.err("nesting too deep");
        }
        self.ws();
        match self.s.get(self.i) {
            None => self.err("unexpected end"),
            Some(b'{') => {
                self.i += 1;
                let mut members: Vec<(String, Json)> = Vec::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Json::Obj(members));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return self.err("expected a key string (trailing comma?)");
                    }
                    let key = self.string()?;
                    if members.iter().any(|(k, _)| *k == key) {
                        return self.err(&format!("duplicate key \"{key}\""));
                    }
                    self.ws();
                    if !self.eat(":") {
                        return self.err("expected ':'");
                    }
                    let v = self.value(depth + 1)?;
                    members.push((key, v));
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("}") {
                        return Ok(Json::Obj(members));
                    }
                    return self.err("expected ',' or '}'");
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) == Some(&b']') {
                        return self.err("trailing comma in array");
                    }
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("]") {
                        return Ok(Json::Arr(items));
                    }
                    return self.err("expected ',' or ']'");
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(Json::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'
                    )
                {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                let leading_zero = text.trim_start_matches('-').starts_with('0')
                    && text.trim_start_matches('-').len() > 1
                    && text.trim_start_matches('-').as_bytes()[1].is_ascii_digit();
                match text.parse::<f64>() {
                    Ok(v) if !leading_zero && !text.ends_with('.') => Ok(Json::Num(v)),
                    _ => self.err(&format!("bad number {text}")),
                }
            }
            Some(_) => self.err("unexpected character"),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'"' => {
                    return String::from_utf8(out).or_else(|_| self.err("invalid UTF-8"));
                }
                b'\\' => {
                    let e = self.s.get(self.i).copied();
                    self.i += 1;
                    match e {
                        Some(b'"') => out.push(b'"'),
                        Some(b'\\') => out.push(b'\\'),
                        Some(b'/') => out.push(b'/'),
                        Some(b'b') => out.push(8),
                        Some(b'f') => out.push(12),
                        Some(b'n') => out.push(b'\n'),
                        Some(b'r') => out.push(b'\r'),
                        Some(b't') => out.push(b'\t'),
                        Some(b'u') => {
                            let hex = self.s.get(self.i..self.i + 4).unwrap_or(b"");
                            let Ok(code) =
                                u32::from_str_radix(std::str::from_utf8(hex).unwrap_or("x"), 16)
                            else {
                                return self.err("bad \\u escape");
                            };
                            self.i += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        _ => return self.err("bad escape"),
                    }
                }
                c if c < 0x20 => return self.err("control character in string"),
                c => out.push(c),
            }
        }
        self.err("unterminated string")
    }
}

/// Parses one JSON document (RFC 8259, strict).
pub fn parse_json(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return p.err("trailing content");
    }
    Ok(v)
}

// --- source text helpers --------------------------------------------------------------

/// Replaces comments with spaces (newlines kept); with `blank_strings`, also the
/// contents of string and character literals (quotes kept).
pub fn strip(text: &str, blank_strings: bool) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            out.push_str("  ");
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                out.push(if b[i] == '\n' { '\n' } else { ' ' });
                i += 1;
            }
            out.push_str("  ");
            i += 2;
        } else if c == '"' || c == '\'' {
            out.push(c);
            i += 1;
            while i < b.len() && b[i] != c && b[i] != '\n' {
                if b[i] == '\\' && i + 1 < b.len() {
                    out.push_str(if blank_strings { "  " } else { "" });
                    if !blank_strings {
                        out.push(b[i]);
                        out.push(b[i + 1]);
                    }
                    i += 2;
                    continue;
                }
                out.push(if blank_strings { ' ' } else { b[i] });
                i += 1;
            }
            if i < b.len() {
                out.push(b[i]);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Problems with (), [] and {} nesting in code (comments and strings stripped).
pub fn bracket_errors(name: &str, code: &str) -> Vec<String> {
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut errors = Vec::new();
    for (ln, line) in code.lines().enumerate() {
        for c in line.chars() {
            match c {
                '(' | '[' | '{' => stack.push((c, ln + 1)),
                ')' | ']' | '}' => {
                    let want = match c {
                        ')' => '(',
                        ']' => '[',
                        _ => '{',
                    };
                    match stack.pop() {
                        Some((open, _)) if open == want => {}
                        Some((open, at)) => {
                            errors.push(format!(
                                "{name}:{}: '{c}' closes '{open}' opened at line {at}",
                                ln + 1
                            ));
                            return errors;
                        }
                        None => {
                            errors.push(format!("{name}:{}: unmatched '{c}'", ln + 1));
                            return errors;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if let Some((open, at)) = stack.pop() {
        errors.push(format!("{name}:{at}: '{open}' never closed"));
    }
    errors
}

/// Identifiers of `code`, with the byte offset of each.
fn identifiers(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((start, &code[start..i]));
        } else if c.is_ascii_digit() {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
            {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The text of the parenthesised group starting at `open` (an index of '('), without
/// the parentheses.
fn paren_group(code: &str, open: usize) -> Option<&str> {
    let b = code.as_bytes();
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let mut depth = 0;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&code[open + 1..k]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Each `#include` target with its line number (comments ignored).
fn includes(code_keep_strings: &str) -> Vec<(usize, String)> {
    code_keep_strings
        .lines()
        .enumerate()
        .filter_map(|(n, l)| {
            let t = l.trim_start();
            let rest = t
                .strip_prefix('#')?
                .trim_start()
                .strip_prefix("include")?
                .trim();
            let inner = rest.get(1..)?;
            let end = inner.find(['"', '>'])?;
            Some((n + 1, inner[..end].to_string()))
        })
        .collect()
}

// --- the checks -----------------------------------------------------------------------

const MODULE_TYPES: &[&str] = &[
    "Runtime",
    "RuntimeNoCommandlet",
    "RuntimeAndProgram",
    "CookedOnly",
    "UncookedOnly",
    "Developer",
    "DeveloperTool",
    "Editor",
    "EditorNoCommandlet",
    "EditorAndProgram",
    "Program",
    "ServerOnly",
    "ClientOnly",
    "ClientOnlyNoCommandlet",
];
const LOADING_PHASES: &[&str] = &[
    "EarliestPossible",
    "PostConfigInit",
    "PostSplashScreen",
    "PreEarlyLoadingScreen",
    "PreLoadingScreen",
    "PreDefault",
    "Default",
    "PostDefault",
    "PostEngineInit",
    "None",
];
/// Engine modules this plugin may depend on (a typo is caught, not guessed at).
const ENGINE_MODULES: &[&str] = &[
    "Core",
    "CoreUObject",
    "Engine",
    "DeveloperSettings",
    "Projects",
    "RenderCore",
    "RHI",
    "InputCore",
    "Slate",
    "SlateCore",
    "PhysicsCore",
    "Landscape",
    "VectorVM",
];
/// Modules that live in engine plugins: (module, plugin that must be enabled).
const ENGINE_PLUGIN_MODULES: &[(&str, &str)] = &[
    ("ProceduralMeshComponent", "ProceduralMeshComponent"),
    ("Niagara", "Niagara"),
    ("NiagaraCore", "Niagara"),
    ("NiagaraShader", "Niagara"),
];
/// Values of meta=(Units=...) used here that Unreal's EUnit parser accepts.
const KNOWN_UNITS: &[&str] = &[
    "mm",
    "cm",
    "m",
    "km",
    "g",
    "kg",
    "ms",
    "s",
    "N",
    "deg",
    "Degrees",
    "Radians",
    "Percent",
    "Multiplier",
    "cm/s",
    "m/s",
];
/// Unreal's function-like macros (and object-like PI) that a header used inside an
/// Unreal module must not use as identifiers.
const UE_MACROS: &[&str] = &[
    "check",
    "checkf",
    "checkSlow",
    "checkNoEntry",
    "verify",
    "verifyf",
    "ensure",
    "ensureMsgf",
    "ensureAlways",
    "ensureAlwaysMsgf",
    "TEXT",
    "PI",
    "UE_LOG",
    "LOCTEXT",
];

/// Checks the .uplugin text; `build_cs_exists(name)` says whether Source/<name>/<name>.Build.cs exists.
/// Returns the errors and the names of the modules and enabled plugins.
pub fn check_uplugin_text(
    name: &str,
    text: &str,
    build_cs_exists: &dyn Fn(&str) -> bool,
) -> (Vec<String>, Vec<String>, BTreeSet<String>) {
    let mut errors = Vec::new();
    let mut modules = Vec::new();
    let mut plugins = BTreeSet::new();
    let json = match parse_json(text) {
        Ok(j) => j,
        Err(e) => return (vec![format!("{name}: {e}")], modules, plugins),
    };
    if !matches!(json.get("FileVersion"), Some(Json::Num(v)) if *v == 3.0) {
        errors.push(format!("{name}: FileVersion must be 3"));
    }
    for key in ["FriendlyName", "VersionName", "Description", "Category"] {
        if json
            .get(key)
            .and_then(Json::as_str)
            .is_none_or(str::is_empty)
        {
            errors.push(format!("{name}: \"{key}\" must be a non-empty string"));
        }
    }
    match json.get("Modules") {
        Some(Json::Arr(ms)) if !ms.is_empty() => {
            for m in ms {
                let Some(mname) = m.get("Name").and_then(Json::as_str) else {
                    errors.push(format!("{name}: a module has no \"Name\""));
                    continue;
                };
                modules.push(mname.to_string());
                match m.get("Type").and_then(Json::as_str) {
                    Some(t) if MODULE_TYPES.contains(&t) => {}
                    other => errors.push(format!("{name}: module {mname}: unknown Type {other:?}")),
                }
                match m.get("LoadingPhase").and_then(Json::as_str) {
                    Some(p) if LOADING_PHASES.contains(&p) => {}
                    other => errors.push(format!(
                        "{name}: module {mname}: unknown LoadingPhase {other:?}"
                    )),
                }
                if !build_cs_exists(mname) {
                    errors.push(format!(
                        "{name}: module {mname} has no Source/{mname}/{mname}.Build.cs"
                    ));
                }
            }
        }
        _ => errors.push(format!("{name}: \"Modules\" must be a non-empty array")),
    }
    if let Some(ps) = json.get("Plugins") {
        let Json::Arr(ps) = ps else {
            errors.push(format!("{name}: \"Plugins\" must be an array"));
            return (errors, modules, plugins);
        };
        for p in ps {
            match (p.get("Name").and_then(Json::as_str), p.get("Enabled")) {
                (Some(n), Some(Json::Bool(true))) => {
                    plugins.insert(n.to_string());
                }
                (Some(_), Some(Json::Bool(false))) => {}
                _ => errors.push(format!(
                    "{name}: each plugin dependency needs \"Name\" and a boolean \"Enabled\""
                )),
            }
        }
    }
    (errors, modules, plugins)
}

/// Checks one Build.cs; returns the errors and the modules it depends on.
pub fn check_build_cs_text(file: &str, stem: &str, text: &str) -> (Vec<String>, Vec<String>) {
    let mut errors = bracket_errors(file, &strip(text, true));
    let code = strip(text, false);
    let squashed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if !squashed.contains(&format!("class {stem} : ModuleRules")) {
        errors.push(format!(
            "{file}: must declare `public class {stem} : ModuleRules`"
        ));
    }
    if !squashed.contains(&format!(
        "public {stem}(ReadOnlyTargetRules Target) : base(Target)"
    )) {
        errors.push(format!(
            "{file}: needs the constructor `public {stem}(ReadOnlyTargetRules Target) : base(Target)`"
        ));
    }
    let mut deps = Vec::new();
    for list in [
        "PublicDependencyModuleNames",
        "PrivateDependencyModuleNames",
    ] {
        let mut rest = code.as_str();
        while let Some(at) = rest.find(list) {
            rest = &rest[at + list.len()..];
            let Some(open) = rest.find('(') else { break };
            if let Some(group) = paren_group(rest, open) {
                let mut parts = group.split('"');
                parts.next();
                while let (Some(name), Some(_)) = (parts.next(), parts.next()) {
                    deps.push(name.to_string());
                }
            }
        }
    }
    (errors, deps)
}

/// Every module a Build.cs depends on is in this plugin, a known engine module, or in
/// an engine plugin the .uplugin enables.
pub fn check_dependencies(
    file: &str,
    deps: &[String],
    plugin_modules: &BTreeSet<String>,
    enabled_plugins: &BTreeSet<String>,
    plugin_name: &str,
) -> Vec<String> {
    let mut errors = Vec::new();
    for d in deps {
        if plugin_modules.contains(d) || ENGINE_MODULES.contains(&d.as_str()) {
            continue;
        }
        match ENGINE_PLUGIN_MODULES.iter().find(|(m, _)| m == d) {
            Some((_, p)) if enabled_plugins.contains(*p) => {}
            Some((_, p)) => errors.push(format!(
                "{file}: depends on {d} from plugin {p}, which {plugin_name}.uplugin does not enable"
            )),
            None => errors.push(format!(
                "{file}: depends on unknown module {d} (not in this plugin, not a known engine module)"
            )),
        }
    }
    errors
}

/// Checks one header of a module; returns the errors and the number of reflected types.
pub fn check_header_text(
    file: &str,
    stem: &str,
    module: &str,
    public: bool,
    text: &str,
) -> (Vec<String>, usize) {
    let blank = strip(text, true);
    let keep = strip(text, false);
    let mut errors = bracket_errors(file, &blank);
    let ids = identifiers(&blank);
    let api = format!("{}_API", module.to_uppercase());

    // Reflected types and GENERATED_BODY, in order.
    let mut sequence = Vec::new(); // (kind, offset)
    for &(at, id) in &ids {
        match id {
            "UCLASS" | "USTRUCT" | "UINTERFACE" | "UENUM" => sequence.push((id, at)),
            "GENERATED_BODY"
            | "GENERATED_UCLASS_BODY"
            | "GENERATED_USTRUCT_BODY"
            | "GENERATED_UINTERFACE_BODY"
            | "GENERATED_IINTERFACE_BODY" => sequence.push(("GENERATED", at)),
            _ => {}
        }
    }
    let reflected = sequence.iter().filter(|(k, _)| *k != "GENERATED").count();
    let mut pending = 0usize;
    for (k, at) in &sequence {
        let line = blank[..*at].lines().count().max(1);
        match *k {
            "GENERATED" => {
                if pending == 0 {
                    errors.push(format!(
                        "{file}:{line}: GENERATED_BODY without a UCLASS/USTRUCT before it"
                    ));
                } else {
                    pending -= 1;
                }
            }
            "UENUM" => {}
            "UINTERFACE" => pending += 2,
            kind => {
                if pending > 0 {
                    errors.push(format!(
                        "{file}:{line}: {kind} before the previous type's GENERATED_BODY"
                    ));
                }
                pending = 1;
                // The declaration that follows: `class API UName : public Base`.
                let after = &blank[*at..];
                let decl_kw = if kind == "UCLASS" { "class" } else { "struct" };
                let open = after.find('(').unwrap_or(0);
                let Some(specifiers) = paren_group(after, open) else {
                    errors.push(format!("{file}:{line}: {kind} without (specifiers)"));
                    continue;
                };
                let spec_end = open + specifiers.len() + 1;
                let decl: Vec<&str> = after[spec_end + 1..]
                    .split(['{', ';'])
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect();
                if decl.first() != Some(&decl_kw) {
                    errors.push(format!(
                        "{file}:{line}: {kind} must be followed by a {decl_kw} declaration"
                    ));
                    continue;
                }
                let exported = decl.get(1) == Some(&api.as_str());
                let type_name = if exported { decl.get(2) } else { decl.get(1) }
                    .copied()
                    .unwrap_or("");
                if kind == "UCLASS" && public && !exported && !specifiers.contains("MinimalAPI") {
                    errors.push(format!("{file}:{line}: public UCLASS {type_name} must be declared `class {api} ...`"));
                }
                let prefix_ok = if kind == "UCLASS" {
                    type_name.starts_with('U') || type_name.starts_with('A')
                } else {
                    type_name.starts_with('F')
                };
                if !prefix_ok {
                    errors.push(format!("{file}:{line}: {kind} {type_name}: wrong prefix (U/A for classes, F for structs)"));
                }
            }
        }
    }
    if pending > 0 {
        errors.push(format!("{file}: a UCLASS/USTRUCT has no GENERATED_BODY"));
    }

    // The .generated.h include: present and last iff there are reflected types.
    let incs = includes(&keep);
    let generated = format!("{stem}.generated.h");
    let needs_generated = sequence.iter().any(|(k, _)| *k != "GENERATED");
    match incs
        .iter()
        .position(|(_, inc)| inc.ends_with(".generated.h"))
    {
        Some(pos) if !needs_generated => {
            errors.push(format!(
                "{file}:{}: includes a .generated.h but declares no reflected type",
                incs[pos].0
            ));
        }
        Some(pos) => {
            if incs[pos].1 != generated {
                errors.push(format!(
                    "{file}: includes {} instead of {generated}",
                    incs[pos].1
                ));
            }
            if pos + 1 != incs.len() {
                errors.push(format!(
                    "{file}:{}: {generated} must be the last include (found {} after it)",
                    incs[pos].0,
                    incs[pos + 1].1
                ));
            }
        }
        None if needs_generated => errors.push(format!(
            "{file}: declares reflected types but does not include {generated}"
        )),
        None => {}
    }

    errors.extend(check_reflection_specifiers(file, &blank, &keep));
    (errors, reflected)
}

/// Category on Blueprint-visible UFUNCTION / UPROPERTY; no raw U* UPROPERTY members.
fn check_reflection_specifiers(file: &str, blank: &str, keep: &str) -> Vec<String> {
    let mut errors = Vec::new();
    for (at, id) in identifiers(blank) {
        if id != "UFUNCTION" && id != "UPROPERTY" {
            continue;
        }
        let line = blank[..at].lines().count().max(1);
        let open = at + id.len() + blank[at + id.len()..].find('(').unwrap_or(0);
        let Some(spec) = paren_group(keep, open) else {
            errors.push(format!("{file}:{line}: {id} without (specifiers)"));
            continue;
        };
        let visible = [
            "BlueprintCallable",
            "BlueprintPure",
            "BlueprintReadWrite",
            "BlueprintReadOnly",
            "EditAnywhere",
            "EditDefaultsOnly",
            "VisibleAnywhere",
        ]
        .iter()
        .any(|s| spec.contains(s));
        if visible && !spec.contains("Category") {
            errors.push(format!(
                "{file}:{line}: Blueprint/editor-visible {id} needs a Category"
            ));
        }
        // meta=(Units="...") must be a unit the editor knows (else it warns and ignores it).
        if let Some(u) = spec.split("Units").nth(1) {
            let value = u
                .trim_start()
                .strip_prefix('=')
                .map(str::trim_start)
                .and_then(|v| v.strip_prefix('"'));
            match value.and_then(|v| v.split('"').next()) {
                Some(unit) if KNOWN_UNITS.contains(&unit) => {}
                other => errors.push(format!(
                    "{file}:{line}: {id} Units {other:?} is not a unit Unreal knows"
                )),
            }
        }
        if id == "UPROPERTY" {
            let after = &blank[open + spec.len() + 2..];
            let decl = after.split(';').next().unwrap_or("").trim();
            let first = decl.split_whitespace().next().unwrap_or("");
            let is_raw_object_ptr = first.len() > 1
                && (first.starts_with('U') || first.starts_with('A'))
                && first[1..].starts_with(|c: char| c.is_ascii_uppercase())
                && (first.ends_with('*') || decl[first.len()..].trim_start().starts_with('*'));
            if is_raw_object_ptr {
                errors.push(format!(
                    "{file}:{line}: UPROPERTY `{decl}`: use TObjectPtr<> (UE5) for object members"
                ));
            }
        }
    }
    errors
}

/// Checks a plugin C++ source (.h or .cpp) for the plugin's own conventions.
pub fn check_plugin_source_text(
    file: &str,
    stem: &str,
    is_cpp: bool,
    has_own_header: bool,
    text: &str,
    bindings: &Path,
) -> Vec<String> {
    let blank = strip(text, true);
    let keep = strip(text, false);
    let mut errors = Vec::new();
    if is_cpp {
        errors.extend(bracket_errors(file, &blank));
    }
    let incs = includes(&keep);
    if is_cpp
        && has_own_header
        && incs.first().map(|(_, i)| i.as_str()) != Some(&format!("{stem}.h"))
    {
        errors.push(format!("{file}: must include {stem}.h first"));
    }
    // Sinew headers: exist in bindings/cpp (or are sinew.h) and sit in a THIRD_PARTY block.
    let mut in_block = false;
    for line in keep.lines() {
        let t = line.trim();
        if t.starts_with("THIRD_PARTY_INCLUDES_START") {
            in_block = true;
        } else if t.starts_with("THIRD_PARTY_INCLUDES_END") {
            in_block = false;
        } else if let Some((_, inc)) = includes(line).first() {
            if inc.starts_with("sinew") && (inc.ends_with(".hpp") || inc == "sinew.h") {
                if !in_block {
                    errors.push(format!(
                        "{file}: #include \"{inc}\" must be inside THIRD_PARTY_INCLUDES_START/END"
                    ));
                }
                if inc != "sinew.h" && !bindings.join(inc).is_file() {
                    errors.push(format!(
                        "{file}: #include \"{inc}\": no such header in bindings/cpp"
                    ));
                }
            }
        }
    }
    for (at, id) in identifiers(&blank) {
        if id.starts_with("sinew_") && blank[at + id.len()..].trim_start().starts_with('(') {
            let line = blank[..at].lines().count().max(1);
            errors.push(format!(
                "{file}:{line}: calls the C function {id} directly; use sinew.hpp / sinew::Scene"
            ));
        }
    }
    // Unit conversion lives in sinew_units.hpp (through SinewConversions.h) only.
    let squashed: String = blank.split_whitespace().collect::<Vec<_>>().join(" ");
    for bad in [
        "* 0.01", "*0.01", "* 100", "*100", "/ 100", "/100", "0.01f *", "100.0f *", "100.0 *",
        "0.01 *",
    ] {
        if squashed.contains(bad) {
            errors.push(format!(
                "{file}: `{bad}` looks like a cm <-> m conversion; use SinewConversions.h"
            ));
        }
    }
    for (ln, line) in blank.lines().enumerate() {
        if line.contains("GetGravityZ") && !line.contains("SinewUE::Gravity(") {
            errors.push(format!(
                "{file}:{}: gravity must go through SinewUE::Gravity",
                ln + 1
            ));
        }
    }
    errors
}

/// Checks a bindings/cpp header for names that Unreal defines as macros.
pub fn check_bindings_text(file: &str, text: &str) -> Vec<String> {
    let blank = strip(text, true);
    let mut errors = Vec::new();
    for (at, id) in identifiers(&blank) {
        if UE_MACROS.contains(&id) {
            // `x.check` or `ns::check(` are still macro expansions when followed by '('.
            let followed_by_paren = blank[at + id.len()..].trim_start().starts_with('(');
            if followed_by_paren || id == "PI" {
                let line = blank[..at].lines().count().max(1);
                errors.push(format!(
                    "{file}:{line}: `{id}` is an Unreal macro; rename it"
                ));
            }
        }
    }
    errors
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// Runs every check on the plugin directory.
pub fn check_plugin(plugin: &Path, bindings: &Path) -> Report {
    let mut errors = Vec::new();
    let mut reflected_types = 0;
    let plugin_name = plugin.file_name().unwrap().to_string_lossy().into_owned();
    let source = plugin.join("Source");

    // Build.cs files anywhere under Source/ (runtime modules and ThirdParty ones).
    let mut all = Vec::new();
    files_under(&source, &mut all);
    let build_files: Vec<&PathBuf> = all
        .iter()
        .filter(|p| p.to_string_lossy().ends_with(".Build.cs"))
        .collect();
    let plugin_modules: BTreeSet<String> = build_files
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .trim_end_matches(".Build.cs")
                .to_string()
        })
        .collect();

    let uplugin = plugin.join(format!("{plugin_name}.uplugin"));
    let (errs, modules, enabled_plugins) = if uplugin.is_file() {
        check_uplugin_text(
            &format!("{plugin_name}.uplugin"),
            &read(&uplugin),
            &|m: &str| source.join(m).join(format!("{m}.Build.cs")).is_file(),
        )
    } else {
        (
            vec![format!("{} missing", uplugin.display())],
            vec![],
            BTreeSet::new(),
        )
    };
    errors.extend(errs);

    for bf in &build_files {
        let stem = bf
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".Build.cs")
            .to_string();
        let shown = bf.strip_prefix(plugin).unwrap_or(bf).display().to_string();
        let (errs, deps) = check_build_cs_text(&shown, &stem, &read(bf));
        errors.extend(errs);
        errors.extend(check_dependencies(
            &shown,
            &deps,
            &plugin_modules,
            &enabled_plugins,
            &plugin_name,
        ));
    }

    // Every module listed: sources, IMPLEMENT_MODULE, headers.
    for m in &modules {
        let dir = source.join(m);
        let mut files = Vec::new();
        files_under(&dir, &mut files);
        let headers: BTreeSet<String> = files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "h"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        let mut implemented = false;
        for f in &files {
            let ext = f
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            if ext != "h" && ext != "cpp" {
                continue;
            }
            let text = read(f);
            let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
            let shown = f.strip_prefix(plugin).unwrap_or(f).display().to_string();
            let public = f.components().any(|c| c.as_os_str() == "Public");
            if ext == "h" {
                let (errs, n) = check_header_text(&shown, &stem, m, public, &text);
                errors.extend(errs);
                reflected_types += n;
            }
            errors.extend(check_plugin_source_text(
                &shown,
                &stem,
                ext == "cpp",
                headers.contains(&stem),
                &text,
                bindings,
            ));
            let squashed: String = strip(&text, true).split_whitespace().collect();
            if squashed.contains("IMPLEMENT_MODULE(") {
                implemented = squashed.contains(&format!(",{m})"));
                if !implemented {
                    errors.push(format!(
                        "{shown}: IMPLEMENT_MODULE must name the module {m}"
                    ));
                }
            }
        }
        if !implemented {
            errors.push(format!(
                "module {m}: no IMPLEMENT_MODULE(..., {m}) in its sources"
            ));
        }
    }

    // The engine-neutral headers the plugin compiles.
    let mut bind = Vec::new();
    files_under(bindings, &mut bind);
    for f in bind
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "hpp"))
    {
        errors.extend(check_bindings_text(&f.display().to_string(), &read(f)));
    }

    Report {
        errors,
        reflected_types,
    }
}

/// Broken copies of the real files: each must produce at least one error. Returns
/// (what was broken, the first error found or None).
pub fn self_test() -> Vec<(String, Option<String>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let plugin = root.join("unreal-sample/Plugins/Sinew");
    let bindings = root.join("bindings/cpp");
    let uplugin = read(&plugin.join("Sinew.uplugin"));
    let sub_h = read(&plugin.join("Source/Sinew/Public/SinewWorldSubsystem.h"));
    let rope_h = read(&plugin.join("Source/Sinew/Public/SinewRopeComponent.h"));
    let rope_cpp = read(&plugin.join("Source/Sinew/Private/SinewRopeComponent.cpp"));
    let build = read(&plugin.join("Source/Sinew/Sinew.Build.cs"));
    let hpp = read(&bindings.join("sinew.hpp"));
    let exists = |m: &str| m == "Sinew";
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut push =
        |what: &str, errs: Vec<String>| out.push((what.to_string(), errs.into_iter().next()));

    let must_change = |text: &str, from: &str, to: &str| -> String {
        assert!(text.contains(from), "self-test pattern {from:?} not found");
        text.replacen(from, to, 1)
    };

    push(
        "uplugin trailing comma",
        check_uplugin_text(
            "t",
            &must_change(&uplugin, "\"Enabled\": true", "\"Enabled\": true,"),
            &exists,
        )
        .0,
    );
    push(
        "uplugin module without Build.cs",
        check_uplugin_text(
            "t",
            &must_change(&uplugin, "\"Name\": \"Sinew\"", "\"Name\": \"Sinw\""),
            &exists,
        )
        .0,
    );
    push(
        "uplugin bad LoadingPhase",
        check_uplugin_text(
            "t",
            &must_change(&uplugin, "\"Default\"", "\"Defualt\""),
            &exists,
        )
        .0,
    );
    push(
        "uplugin duplicate key",
        check_uplugin_text(
            "t",
            &must_change(
                &uplugin,
                "\"Version\": 1,",
                "\"Version\": 1, \"Version\": 2,",
            ),
            &exists,
        )
        .0,
    );
    push(
        "generated.h not last",
        check_header_text(
            "t",
            "SinewWorldSubsystem",
            "Sinew",
            true,
            &must_change(
                &sub_h,
                "#include \"SinewWorldSubsystem.generated.h\"",
                "#include \"SinewWorldSubsystem.generated.h\"\n#include \"Late.h\"",
            ),
        )
        .0,
    );
    push(
        "generated.h of another file",
        check_header_text(
            "t",
            "SinewRopeComponent",
            "Sinew",
            true,
            &must_change(
                &rope_h,
                "SinewRopeComponent.generated.h",
                "SinewRope.generated.h",
            ),
        )
        .0,
    );
    push(
        "missing GENERATED_BODY",
        check_header_text(
            "t",
            "SinewRopeComponent",
            "Sinew",
            true,
            &must_change(&rope_h, "GENERATED_BODY()", ""),
        )
        .0,
    );
    push(
        "UCLASS not exported",
        check_header_text(
            "t",
            "SinewRopeComponent",
            "Sinew",
            true,
            &must_change(
                &rope_h,
                "class SINEW_API USinewRopeComponent",
                "class USinewRopeComponent",
            ),
        )
        .0,
    );
    push(
        "UFUNCTION without Category",
        check_header_text(
            "t",
            "SinewRopeComponent",
            "Sinew",
            true,
            &must_change(
                &rope_h,
                "UFUNCTION(BlueprintCallable, Category = \"Sinew|Rope\")",
                "UFUNCTION(BlueprintCallable)",
            ),
        )
        .0,
    );
    push(
        "raw UObject pointer UPROPERTY",
        check_header_text(
            "t",
            "SinewRopeComponent",
            "Sinew",
            true,
            &must_change(
                &rope_h,
                "TWeakObjectPtr<USceneComponent> EndOverride;",
                "USceneComponent* EndOverride;",
            ),
        )
        .0,
    );
    push(
        "unknown Units",
        check_header_text(
            "t",
            "SinewRopeComponent",
            "Sinew",
            true,
            &must_change(&rope_h, "Units = \"kg\"", "Units = \"1/s\""),
        )
        .0,
    );
    push(
        "unbalanced brace",
        check_plugin_source_text(
            "t",
            "SinewRopeComponent",
            true,
            true,
            &must_change(&rope_cpp, "{", ""),
            &bindings,
        ),
    );
    push(
        "own header not first",
        check_plugin_source_text(
            "t",
            "SinewRopeComponent",
            true,
            true,
            &must_change(
                &rope_cpp,
                "#include \"SinewRopeComponent.h\"",
                "#include \"Engine/World.h\"\n#include \"SinewRopeComponent.h\"",
            ),
            &bindings,
        ),
    );
    push(
        "unit scaling outside SinewConversions.h",
        check_plugin_source_text(
            "t",
            "SinewRopeComponent",
            true,
            true,
            &must_change(&rope_cpp, "0.5f * Width", "Width * 0.01f"),
            &bindings,
        ),
    );
    push(
        "direct C call",
        check_plugin_source_text(
            "t",
            "SinewRopeComponent",
            true,
            true,
            &must_change(
                &rope_cpp,
                "Release();\n",
                "Release(); sinew_world_step(W, 1.0f);\n",
            ),
            &bindings,
        ),
    );
    push(
        "sinew include outside THIRD_PARTY block",
        check_plugin_source_text(
            "t",
            "SinewRopeComponent",
            true,
            true,
            &must_change(&rope_cpp, "THIRD_PARTY_INCLUDES_START\n", ""),
            &bindings,
        ),
    );
    push(
        "include of a missing binding header",
        check_plugin_source_text(
            "t",
            "SinewRopeComponent",
            true,
            true,
            &must_change(&rope_cpp, "sinew_rope.hpp", "sinew_ropes.hpp"),
            &bindings,
        ),
    );
    push(
        "Build.cs class name mismatch",
        check_build_cs_text(
            "t",
            "Sinew",
            &must_change(
                &build,
                "public class Sinew : ModuleRules",
                "public class SinewRuntime : ModuleRules",
            ),
        )
        .0,
    );
    push(
        "UE macro name in a binding header",
        check_bindings_text(
            "t",
            &must_change(
                &hpp,
                "detail::to_result(sinew_world_step",
                "detail::check(sinew_world_step",
            ),
        ),
    );
    push(
        "invalid JSON number",
        parse_json("{\"a\": 01}").err().into_iter().collect(),
    );
    // The dependency checks: a misspelt module; an engine plugin's module whose plugin
    // the .uplugin does not enable.
    let ours: BTreeSet<String> = ["Sinew", "SinewLibrary"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let enabled = check_uplugin_text("t", &uplugin, &exists).2;
    let (_, deps) = check_build_cs_text(
        "t",
        "Sinew",
        &must_change(&build, "\"ProceduralMeshComponent\"", "\"ProceduralMesh\""),
    );
    push(
        "unknown dependency module",
        check_dependencies("t", &deps, &ours, &enabled, "Sinew"),
    );
    let (_, deps) = check_build_cs_text("t", "Sinew", &build);
    push(
        "engine plugin not enabled",
        check_dependencies("t", &deps, &ours, &BTreeSet::new(), "Sinew"),
    );
    assert!(
        check_dependencies("t", &deps, &ours, &enabled, "Sinew").is_empty(),
        "the real dependencies must pass"
    );
    out
}

// --- live edits: accessors, delegates, editor-only overrides, no world rebuilds ------

/// The dynamic multicast delegate types a header declares, with their errors:
/// `DECLARE_DYNAMIC_MULTICAST_DELEGATE[_<N>Param(s)](FName, Type1, Name1, ...)` takes
/// 1 + 2N arguments, its type name starts with F and its parameter names differ
/// (UHT refuses anything else).
pub fn delegate_declarations(file: &str, blank: &str, keep: &str) -> (Vec<String>, Vec<String>) {
    const COUNTS: [&str; 9] = [
        "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
    ];
    let mut errors = Vec::new();
    let mut names = Vec::new();
    for (at, id) in identifiers(blank) {
        let Some(suffix) = id.strip_prefix("DECLARE_DYNAMIC_MULTICAST_DELEGATE") else {
            continue;
        };
        let line = blank[..at].lines().count().max(1);
        let params = if suffix.is_empty() {
            0
        } else {
            let word = suffix
                .strip_prefix('_')
                .and_then(|s| s.strip_suffix("Params").or_else(|| s.strip_suffix("Param")));
            match word.and_then(|w| COUNTS.iter().position(|c| *c == w)) {
                Some(k) if (k == 0) == suffix.ends_with("Param") => k + 1,
                _ => {
                    errors.push(format!("{file}:{line}: unknown delegate macro {id}"));
                    continue;
                }
            }
        };
        let open = at + id.len() + blank[at + id.len()..].find('(').unwrap_or(0);
        let Some(args) = paren_group(keep, open) else {
            errors.push(format!("{file}:{line}: {id} without (arguments)"));
            continue;
        };
        let args: Vec<&str> = args.split(',').map(str::trim).collect();
        if args.len() != 1 + 2 * params {
            errors.push(format!(
                "{file}:{line}: {id} takes {} arguments (name + type, name per parameter), found {}",
                1 + 2 * params,
                args.len()
            ));
            continue;
        }
        if !args[0].starts_with('F') {
            errors.push(format!(
                "{file}:{line}: delegate type {} must start with F",
                args[0]
            ));
        }
        let param_names: Vec<&str> = args[1..].iter().skip(1).step_by(2).copied().collect();
        let distinct: BTreeSet<&str> = param_names.iter().copied().collect();
        if distinct.len() != param_names.len() {
            errors.push(format!(
                "{file}:{line}: {} has repeated parameter names",
                args[0]
            ));
        }
        names.push(args[0].to_string());
    }
    (errors, names)
}

/// The UFUNCTION declarations of a header: (name, parameter count, returns void).
fn ufunctions(blank: &str) -> Vec<(String, usize, bool)> {
    let mut out = Vec::new();
    for (at, id) in identifiers(blank) {
        if id != "UFUNCTION" {
            continue;
        }
        let open = at + id.len() + blank[at + id.len()..].find('(').unwrap_or(0);
        let Some(spec) = paren_group(blank, open) else {
            continue;
        };
        let after = &blank[open + spec.len() + 2..];
        let Some(paren) = after.find('(') else {
            continue;
        };
        let head = &after[..paren];
        let name = head.split_whitespace().last().unwrap_or("").to_string();
        let returns_void = head.split_whitespace().any(|w| w == "void");
        let params = paren_group(after, paren).unwrap_or("").trim();
        let count = if params.is_empty() || params == "void" {
            0
        } else {
            let mut depth = 0;
            1 + params
                .chars()
                .filter(|&c| {
                    match c {
                        '(' | '<' => depth += 1,
                        ')' | '>' => depth -= 1,
                        _ => {}
                    }
                    c == ',' && depth == 0
                })
                .count()
        };
        out.push((name, count, returns_void));
    }
    out
}

/// Header checks for live-edited properties: a `BlueprintSetter = F` names a UFUNCTION
/// of this header taking one parameter and returning void, a `BlueprintGetter = F` one
/// taking none, and neither goes with BlueprintReadOnly; a BlueprintAssignable
/// UPROPERTY's type is a dynamic multicast delegate declared in this header.
pub fn check_live_edit_header(file: &str, text: &str) -> Vec<String> {
    let blank = strip(text, true);
    let keep = strip(text, false);
    let (mut errors, delegates) = delegate_declarations(file, &blank, &keep);
    let functions = ufunctions(&blank);
    for (at, id) in identifiers(&blank) {
        if id != "UPROPERTY" {
            continue;
        }
        let line = blank[..at].lines().count().max(1);
        let open = at + id.len() + blank[at + id.len()..].find('(').unwrap_or(0);
        let Some(spec) = paren_group(&keep, open) else {
            continue;
        };
        for (key, params) in [("BlueprintSetter", 1usize), ("BlueprintGetter", 0)] {
            let Some(rest) = spec.split(key).nth(1) else {
                continue;
            };
            let name: String = rest
                .trim_start()
                .trim_start_matches('=')
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            match functions.iter().find(|(n, _, _)| *n == name) {
                None => errors.push(format!(
                    "{file}:{line}: {key} = {name}: no UFUNCTION {name} in this header"
                )),
                Some((_, n, void)) if *n != params || (params == 1 && !void) => {
                    errors.push(format!(
                        "{file}:{line}: {key} {name} must take {params} parameter(s){}",
                        if params == 1 { " and return void" } else { "" }
                    ))
                }
                Some(_) => {}
            }
            if spec.contains("BlueprintReadOnly") {
                errors.push(format!(
                    "{file}:{line}: {key} and BlueprintReadOnly exclude each other"
                ));
            }
        }
        if spec.contains("BlueprintAssignable") {
            let after = &blank[open + spec.len() + 2..];
            let ty = after.split_whitespace().next().unwrap_or("");
            if !delegates.iter().any(|d| d == ty) {
                errors.push(format!(
                    "{file}:{line}: BlueprintAssignable {ty} is not a dynamic multicast delegate declared here"
                ));
            }
        }
    }
    errors.extend(check_editor_only(file, text));
    errors
}

/// Engine overrides that exist only in editor builds: their declarations and
/// definitions must sit inside `#if WITH_EDITOR` (a game build fails otherwise).
pub fn check_editor_only(file: &str, text: &str) -> Vec<String> {
    const EDITOR_ONLY: &[&str] = &[
        "PostEditChangeProperty",
        "PostEditChangeChainProperty",
        "PreEditChange",
        "CanEditChange",
        "FPropertyChangedEvent",
    ];
    let blank = strip(text, true);
    let mut errors = Vec::new();
    // One entry per open #if: whether it is a WITH_EDITOR block.
    let mut stack: Vec<bool> = Vec::new();
    for (n, line) in blank.lines().enumerate() {
        let t = line.trim_start();
        if let Some(directive) = t.strip_prefix('#') {
            let d = directive.trim_start();
            if d.starts_with("if") {
                stack.push(
                    d.starts_with("if WITH_EDITOR") && !d.contains("&&") && !d.contains("||"),
                );
            } else if d.starts_with("else") || d.starts_with("elif") {
                if let Some(top) = stack.last_mut() {
                    *top = false;
                }
            } else if d.starts_with("endif") {
                stack.pop();
            }
            continue;
        }
        let editor = stack.iter().any(|&e| e);
        for (_, id) in identifiers(line) {
            if EDITOR_ONLY.contains(&id) && !editor {
                errors.push(format!(
                    "{file}:{}: {id} outside #if WITH_EDITOR (game builds have no such member)",
                    n + 1
                ));
            }
        }
    }
    errors
}

/// The top-level function (`Class::Name`) each byte of a .cpp belongs to ("" outside
/// any function body), from the brace structure of `blank`.
fn enclosing_functions(blank: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let b = blank.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut head_start = 0usize;
    let mut body_start = 0usize;
    let mut name = String::new();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' => {
                if depth == 0 {
                    let head = &blank[head_start..i];
                    name = head
                        .rfind('(')
                        .map(|p| {
                            let before = head[..p].trim_end();
                            let start = before
                                .rfind(|ch: char| {
                                    !(ch.is_ascii_alphanumeric()
                                        || ch == '_'
                                        || ch == ':'
                                        || ch == '~')
                                })
                                .map_or(0, |k| k + 1);
                            before[start..].to_string()
                        })
                        .unwrap_or_default();
                    body_start = i;
                }
                depth += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push((body_start..i + 1, std::mem::take(&mut name)));
                    head_start = i + 1;
                }
            }
            b';' if depth == 0 => head_start = i + 1,
            _ => {}
        }
    }
    out
}

/// Nothing rebuilds the simulation: in the plugin's .cpp files, bodies are added only
/// in a component's JoinSimulation (or BeginPlay), removed only in its LeaveSimulation
/// (or EndPlay); JoinSimulation is called only from BeginPlay and OnRegister (the editor
/// preview, where worlds never begin play), LeaveSimulation only from EndPlay and
/// OnUnregister; the Scene is created only in the subsystem's GetScene and destroyed
/// only in its Deinitialize. A property change or another component's change can then
/// only edit bodies in place (in the editor, a property change re-registers the
/// component: its preview starts again).
pub fn check_no_rebuild(file: &str, text: &str) -> Vec<String> {
    const RULES: &[(&str, &[&str])] = &[
        ("add_rope", &["BeginPlay", "JoinSimulation"]),
        ("add_rope_polyline", &["BeginPlay", "JoinSimulation"]),
        ("add_cloth_mesh", &["BeginPlay", "JoinSimulation"]),
        ("add_fluid", &["BeginPlay", "JoinSimulation"]),
        ("remove_body", &["EndPlay", "LeaveSimulation"]),
        ("JoinSimulation", &["BeginPlay", "OnRegister"]),
        ("LeaveSimulation", &["EndPlay", "OnUnregister"]),
        ("Scene::create", &["GetScene"]),
        ("Scene.reset", &["Deinitialize"]),
    ];
    let blank = strip(text, true);
    let functions = enclosing_functions(&blank);
    let mut errors = Vec::new();
    for (pattern, allowed) in RULES {
        let mut from = 0;
        while let Some(k) = blank[from..].find(pattern) {
            let at = from + k;
            from = at + pattern.len();
            let bounded = !blank[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && blank[from..].trim_start().starts_with('(');
            // `Class::JoinSimulation(` at file scope is the definition, not a call.
            let definition = !pattern.contains("::") && blank[..at].ends_with("::");
            if !bounded || definition {
                continue;
            }
            let owner = functions
                .iter()
                .find(|(r, _)| r.contains(&at))
                .map_or("", |(_, n)| n.as_str());
            let method = owner.rsplit("::").next().unwrap_or("");
            if !allowed.contains(&method) {
                errors.push(format!(
                    "{file}:{}: {pattern} in {} (only {} may: nothing rebuilds the simulation)",
                    blank[..at].lines().count().max(1),
                    if owner.is_empty() {
                        "file scope"
                    } else {
                        owner
                    },
                    allowed.join(" or ")
                ));
            }
        }
    }
    errors
}

/// Runs the live-edit checks over every header and source of the plugin.
pub fn check_live_edits(plugin: &Path) -> Vec<String> {
    let mut files = Vec::new();
    files_under(&plugin.join("Source"), &mut files);
    let mut errors = Vec::new();
    for f in &files {
        let shown = f.strip_prefix(plugin).unwrap_or(f).display().to_string();
        match f.extension().and_then(|e| e.to_str()) {
            Some("h") => errors.extend(check_live_edit_header(&shown, &read(f))),
            Some("cpp") => {
                let text = read(f);
                errors.extend(check_editor_only(&shown, &text));
                errors.extend(check_no_rebuild(&shown, &text));
            }
            _ => {}
        }
    }
    errors
}

/// Broken copies of the real files for the live-edit checks: each must produce an error.
pub fn self_test_live_edits() -> Vec<(String, Option<String>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("unreal-sample/Plugins/Sinew/Source/Sinew");
    let rope_h = read(&src.join("Public/SinewRopeComponent.h"));
    let rope_cpp = read(&src.join("Private/SinewRopeComponent.cpp"));
    let sub_cpp = read(&src.join("Private/SinewWorldSubsystem.cpp"));
    let fluid_cpp = read(&src.join("Private/SinewFluidComponent.cpp"));
    let must_change = |text: &str, from: &str, to: &str| -> String {
        assert!(text.contains(from), "self-test pattern {from:?} not found");
        text.replacen(from, to, 1)
    };
    let first = |errs: Vec<String>| errs.into_iter().next();
    vec![
        (
            "setter names no UFUNCTION".into(),
            first(check_live_edit_header(
                "t",
                &must_change(&rope_h, "BlueprintSetter = SetLength", "BlueprintSetter = SetLenght"),
            )),
        ),
        (
            "setter with two parameters".into(),
            first(check_live_edit_header(
                "t",
                &must_change(&rope_h, "void SetLength(float NewLength);", "void SetLength(float NewLength, bool bNow);"),
            )),
        ),
        (
            "setter on a read-only property".into(),
            first(check_live_edit_header(
                "t",
                &must_change(
                    &rope_h,
                    "BlueprintReadWrite, BlueprintSetter = SetWinchSpeed",
                    "BlueprintReadOnly, BlueprintSetter = SetWinchSpeed",
                ),
            )),
        ),
        (
            "delegate with the wrong argument count".into(),
            first(check_live_edit_header(
                "t",
                &must_change(&rope_h, "DELEGATE_FourParams(", "DELEGATE_ThreeParams("),
            )),
        ),
        (
            "BlueprintAssignable of an undeclared type".into(),
            first(check_live_edit_header(
                "t",
                &must_change(
                    &rope_h,
                    "FSinewRopeBrokenSignature OnRopeBroken;",
                    "FSinewRopeBreakSignature OnRopeBroken;",
                ),
            )),
        ),
        (
            "PostEditChangeProperty outside WITH_EDITOR".into(),
            first(check_live_edit_header(
                "t",
                &must_change(&rope_h, "#if WITH_EDITOR\n", "#if 1\n"),
            )),
        ),
        (
            "a setter re-adds the body".into(),
            first(check_no_rebuild(
                "t",
                &must_change(
                    &rope_cpp,
                    "	BreakForce = FMath::Max(NewBreakForce, 0.0f);\n",
                    "	BreakForce = FMath::Max(NewBreakForce, 0.0f);\n	(void)SimulatingScene()->add_rope_polyline(sinew::RopeDesc(), {});\n",
                ),
            )),
        ),
        (
            "a setter joins the simulation again".into(),
            first(check_no_rebuild(
                "t",
                &must_change(
                    &rope_cpp,
                    "	BreakForce = FMath::Max(NewBreakForce, 0.0f);\n",
                    "	BreakForce = FMath::Max(NewBreakForce, 0.0f);\n	LeaveSimulation();\n	JoinSimulation(*Subsystem.Get());\n",
                ),
            )),
        ),
        (
            "the step removes a body".into(),
            first(check_no_rebuild(
                "t",
                &must_change(
                    &sub_cpp,
                    "	const sinew::Result<void> Stepped = Scene->step(FixedDt);\n",
                    "	(void)Scene->remove_body(1);\n	const sinew::Result<void> Stepped = Scene->step(FixedDt);\n",
                ),
            )),
        ),
        (
            "a fluid setting adds the fluid again".into(),
            first(check_no_rebuild(
                "t",
                &must_change(
                    &fluid_cpp,
                    "	sinew::FluidDesc Desc = MakeDesc();\n",
                    "	sinew::FluidDesc Desc = MakeDesc();\n	(void)SimScene()->world().add_fluid(Desc);\n",
                ),
            )),
        ),
        (
            "the world is reset outside Deinitialize".into(),
            first(check_no_rebuild(
                "t",
                &must_change(&sub_cpp, "	Simulated.AddUnique(Body);\n", "	Simulated.AddUnique(Body);\n	Scene.reset();\n"),
            )),
        ),
    ]
}
