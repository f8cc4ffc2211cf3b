//! Runs every shared conformance vector in `tests/vectors/` as two test cases: once on a plain
//! sandbox, once (`name [index]`) on a sandbox with a warm index, ready before the operation
//! runs; the expected results are the same. The format is described in `tests/README.md`; the
//! Node and Python runners read the same files and run them in both modes too.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fsnative::options::{KeyStyle, Options};
use fsnative::render::fff::{self, tools::FffTool};
use fsnative::{
    render, CancelToken, FindRequest, GlobRequest, GrepRequest, IndexOptions, Intent, Sandbox, SandboxOptions,
};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Map, Value};

mod platform;

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut trials = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("vector file is readable");
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let trees = doc.get("trees").cloned().unwrap_or(json!({}));
        for vector in doc["vectors"].as_array().expect("`vectors` is an array") {
            let name = vector["name"].as_str().expect("vector has a name").to_owned();
            let op = vector["op"].as_str().unwrap_or("?").to_owned();
            let unmakeable = unmakeable_here(vector, &trees);
            let skip = skipped_here(vector) || unmakeable.is_some();
            // The reason a tree cannot be made here shows as the trial's kind.
            let kind = match unmakeable {
                Some(why) => format!("{op}; skipped: {why}"),
                None => op,
            };
            for mode in [Mode::Plain, Mode::Indexed] {
                let (vector, trees) = (vector.clone(), trees.clone());
                let name = format!("{name}{}", mode.suffix());
                let trial = Trial::test(name, move || run_vector(&vector, &trees, mode))
                    .with_kind(kind.clone())
                    .with_ignored_flag(skip);
                trials.push(trial);
            }
        }
    }
    let conclusion = libtest_mimic::run(&args, trials);
    record_counts(&conclusion);
    conclusion.exit();
}

/// Writes the run's counts to `$FSNATIVE_VECTOR_COUNTS/rust.json` when that is set and no case
/// was filtered out: `make test` compares the three runners' counts (tests/compare-vector-counts.py).
fn record_counts(conclusion: &libtest_mimic::Conclusion) {
    let Some(dir) = std::env::var_os("FSNATIVE_VECTOR_COUNTS") else { return };
    if conclusion.num_filtered_out > 0 {
        return;
    }
    let counts = json!({
        "passed": conclusion.num_passed,
        "skipped": conclusion.num_ignored,
        "failed": conclusion.num_failed,
    });
    std::fs::create_dir_all(&dir).expect("the counts' directory can be made");
    std::fs::write(Path::new(&dir).join("rust.json"), counts.to_string()).expect("the counts can be written");
}

/// How a vector's sandbox is built: plain, or with a warm index that is ready before the
/// vector's operation runs (searches it can answer then read it instead of walking).
#[derive(Clone, Copy)]
enum Mode {
    Plain,
    Indexed,
}

impl Mode {
    fn suffix(self) -> &'static str {
        match self {
            Mode::Plain => "",
            Mode::Indexed => " [index]",
        }
    }

    fn sandbox(self, roots: &[PathBuf], options: Options) -> Result<Sandbox, Failure> {
        let mut options = SandboxOptions::from_options(&options, KeyStyle::SnakeCase)?;
        match self {
            Mode::Plain => Ok(Sandbox::with_options(roots, &options)?),
            Mode::Indexed => {
                // A vector's own index options stand in both modes.
                options.index.get_or_insert_with(IndexOptions::default);
                let sandbox = Sandbox::with_options(roots, &options)?;
                if !sandbox.wait_for_index(Some(INDEX_READY_TIMEOUT)) {
                    return Err(format!("INDEX_NOT_READY: {:?}", sandbox.index_status()).into());
                }
                Ok(sandbox)
            }
        }
    }
}

/// How long index mode waits for a vector's index (a tiny tree's takes milliseconds).
const INDEX_READY_TIMEOUT: Duration = Duration::from_secs(60);

fn skipped_here(vector: &Value) -> bool {
    let running_as_root = platform::running_as_root();
    let elsewhere =
        vector["only_on"].as_array().is_some_and(|systems| !systems.iter().any(|s| s == this_os()));
    elsewhere
        || vector["skip_if"]
            .as_array()
            .is_some_and(|conds| conds.iter().any(|c| c == "root" && running_as_root))
}

/// Why this OS cannot make the vector's tree (a FIFO on Windows), or `None`: such a vector
/// counts as skipped, not failed.
fn unmakeable_here(vector: &Value, trees: &Value) -> Option<String> {
    let tree = match &vector["tree"] {
        Value::String(name) => trees.get(name)?,
        other => other,
    };
    let tree = tree.as_object()?;
    if tree.values().any(|entry| entry.get("symlink").is_some()) && !platform::makes_symlinks() {
        return Some("its tree holds a symlink, which this system does not make".to_owned());
    }
    if let Some(why) =
        vector["not_under_wine"].as_str().filter(|_| std::env::var_os("FSNATIVE_UNDER_WINE").is_some())
    {
        return Some(format!("not run under Wine: {why}"));
    }
    if this_os() != "windows" {
        return None;
    }
    if tree.values().any(|entry| entry.get("fifo").is_some()) {
        return Some("its tree holds a FIFO, which Windows cannot make".to_owned());
    }
    if tree.values().any(|entry| entry.get("mode").is_some()) {
        return Some("its tree sets permission bits (mode), which Windows does not have".to_owned());
    }
    if let Some(key) = tree.keys().find(|key| std::str::from_utf8(&key_bytes(key)).is_err()) {
        return Some(format!("its tree holds {key:?}, a name that is not UTF-8, which Windows cannot make"));
    }
    if let Some((a, b)) = equal_but_for_case(tree.keys()) {
        return Some(format!(
            "its tree holds {a:?} and {b:?}, names equal but for case, which Windows keeps as one"
        ));
    }
    let refused = tree.keys().find(|key| key.split('/').any(windows_refuses))?;
    Some(format!("its tree holds {refused:?}, a name Windows cannot make"))
}

/// Two tree keys that differ, and are equal but for case (`B.txt`, `b.txt`), if any.
fn equal_but_for_case<'a>(keys: impl Iterator<Item = &'a String>) -> Option<(&'a String, &'a String)> {
    let mut seen = std::collections::HashMap::new();
    for key in keys {
        if let Some(other) = seen.insert(key.to_lowercase(), key).filter(|other| *other != key) {
            return Some((other, key));
        }
    }
    None
}

/// Windows makes no file of this name: one with `<>:"|?*` or a control character, one that
/// ends with a dot or a space, or a device's (`CON`, `nul.txt`, `COM1`).
fn windows_refuses(name: &str) -> bool {
    const DEVICES: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ').to_ascii_uppercase();
    let numbered = ["COM", "LPT"].iter().any(|device| {
        stem.strip_prefix(device).is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit())
    });
    name.chars().any(|c| "<>:\"|?*".contains(c) || c < ' ')
        || name.ends_with(['.', ' ']) && name != "." && name != ".."
        || DEVICES.contains(&stem.as_str())
        || numbered
}

/// This system's name in `only_on`: `linux`, `macos` or `windows`.
fn this_os() -> &'static str {
    std::env::consts::OS
}

fn run_vector(vector: &Value, trees: &Value, mode: Mode) -> Result<(), Failed> {
    let fixture = tempfile::tempdir().map_err(|e| e.to_string())?;
    let base = platform::plain(fixture.path().canonicalize().map_err(|e| e.to_string())?);
    let tree = match &vector["tree"] {
        Value::String(name) => trees.get(name).ok_or_else(|| format!("unknown tree {name}"))?.clone(),
        Value::Null => json!({}),
        inline => inline.clone(),
    };
    let chmodded = build_tree(&base, &tree)?;
    let args = substitute(vector.get("args").cloned().unwrap_or(json!({})), &base);
    let outcome = execute(vector, &base, args, mode);
    let result = compare_outcome(vector, outcome, &base);
    restore_permissions(&chmodded);
    result
}

/// Why a vector's operation failed: an error code (or a runner's complaint), its message, and
/// the path the error names, if any. Option errors are `INVALID_OPTION`, as in every binding.
struct Failure {
    code: String,
    message: String,
    path: Option<PathBuf>,
}

impl From<fsnative::Error> for Failure {
    fn from(error: fsnative::Error) -> Failure {
        let path = error.path().map(Path::to_path_buf);
        Failure { code: error.code().as_str().to_owned(), message: error.message().to_owned(), path }
    }
}

impl From<String> for Failure {
    fn from(code: String) -> Failure {
        Failure { code, message: String::new(), path: None }
    }
}

impl From<&str> for Failure {
    fn from(code: &str) -> Failure {
        Failure::from(code.to_owned())
    }
}

/// Runs the vector's operation: Ok(actual value) or Err(why not).
fn execute(vector: &Value, base: &Path, mut args: Value, mode: Mode) -> Result<Value, Failure> {
    let roots: Vec<PathBuf> = match vector.get("roots") {
        Some(Value::Array(roots)) => {
            roots.iter().map(|r| fixture_path(base, r.as_str().unwrap_or(""))).collect()
        }
        _ => vec![base.join("root")],
    };
    let options = substitute(vector.get("sandbox_options").cloned().unwrap_or(json!({})), base);
    let sandbox = mode.sandbox(&roots, options_of(options)?)?;
    let code = Failure::from;
    for path in vector.get("record").and_then(Value::as_array).into_iter().flatten() {
        sandbox.record_access(path.as_str().ok_or("BAD_VECTOR: `record` holds paths")?)?;
    }
    let path_arg = |args: &Value| args["path"].as_str().map(str::to_owned).ok_or("BAD_VECTOR: no `path`");
    match vector["op"].as_str().unwrap_or("") {
        "sandbox" => Ok(json!({ "roots": sandbox.roots() })),
        "record_access" => sandbox.record_access(path_arg(&args)?).map(|()| json!({})).map_err(code),
        "frecency_score" => {
            sandbox.frecency_score(path_arg(&args)?).map(|score| json!({ "score": score })).map_err(code)
        }
        "path_boost" => {
            sandbox.path_boost(path_arg(&args)?).map(|boost| json!({ "boost": boost })).map_err(code)
        }
        "path_within" => {
            let dirs = args["dirs"].as_array().ok_or("BAD_VECTOR: `dirs` is a list")?;
            let dirs: Vec<&str> = dirs.iter().map(|d| d.as_str().unwrap_or("")).collect();
            Ok(
                json!({ "within": fsnative::host::is_path_within(args["path"].as_str().unwrap_or(""), &dirs) }),
            )
        }
        "validate" => {
            let mut options = options_of(args)?;
            let path = options.remove("path");
            let intent = Intent::from_options(&options, KeyStyle::SnakeCase)?;
            let path = path.as_ref().and_then(Value::as_str).unwrap_or("");
            sandbox.validate(path, intent).map(|p| json!({ "path": p })).map_err(code)
        }
        "fff_tool" => {
            let tool =
                args["tool"].as_str().and_then(FffTool::from_name).ok_or("BAD_VECTOR: no FFF `tool`")?;
            let arguments = options_of(args["arguments"].take())?;
            let text = fff::tools::run(&sandbox, tool, &arguments, &CancelToken::new()).map_err(code)?;
            // One MCP text block per line, as the adapters split it; a cursor (which names the
            // fixture's path) as `CURSOR`.
            let mut lines: Vec<&str> = text.split('\n').map(fff_cursor).collect();
            lines.pop();
            Ok(json!({ "lines": lines }))
        }
        "glob" => {
            let request = GlobRequest::from_options(&options_of(args)?, KeyStyle::SnakeCase)?;
            sandbox.glob(&request).map(|r| to_value(&r)).map_err(code)
        }
        "find" => {
            let render = args.as_object_mut().and_then(|object| object.remove("render"));
            let request = FindRequest::from_options(&options_of(args)?, KeyStyle::SnakeCase)?;
            let result = sandbox.find(&request).map_err(code)?;
            match render {
                None => Ok(to_value(&result)),
                Some(format) => {
                    let format = render::FindFormat::from_options(&options_of(format)?, KeyStyle::SnakeCase)?;
                    Ok(json!({ "text": render::render_find(&result, &format) }))
                }
            }
        }
        "grep" => {
            let object = args.as_object_mut().ok_or("grep args must be an object")?;
            let render = object.remove("render");
            let pages = object.remove("pages").is_some_and(|v| v == true);
            let cursor_from = object.remove("cursor_from");
            let mut request = grep_request(args)?;
            if let Some(other) = cursor_from {
                let first = grep_request(other)?;
                let result = sandbox.grep(&first).map_err(code)?;
                request.cursor = result.next_cursor;
            }
            if pages {
                let mut all = Vec::new();
                loop {
                    let result = sandbox.grep(&request).map_err(code)?;
                    let next = result.next_cursor.clone();
                    all.push(to_value(&result));
                    match next {
                        Some(cursor) if all.len() < 100 => request.cursor = Some(cursor),
                        _ => break,
                    }
                }
                return Ok(json!({ "pages": all }));
            }
            let result = sandbox.grep(&request).map_err(code)?;
            match render {
                None => Ok(to_value(&result)),
                Some(format) => {
                    let format = render::Format::from_options(&options_of(format)?, KeyStyle::SnakeCase)?;
                    let text = render::render(&result, &format);
                    Ok(match format {
                        render::Format::Json(_) => {
                            let messages: Vec<Value> = text
                                .lines()
                                .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
                                .collect();
                            json!({ "messages": messages })
                        }
                        render::Format::Standard(_) | render::Format::Fff(_) => json!({ "text": text }),
                    })
                }
            }
        }
        other => Err(format!("unknown op {other}").into()),
    }
}

/// Vector arguments go through the bindings' own path: `from_options` with snake_case keys.
fn grep_request(args: Value) -> Result<GrepRequest, Failure> {
    Ok(GrepRequest::from_options(&options_of(args)?, KeyStyle::SnakeCase)?)
}

/// A `next_cursor: TOKEN` line of an FFF tool as `next_cursor: CURSOR` (the token is opaque).
fn fff_cursor(line: &str) -> &str {
    if line.starts_with("next_cursor: ") {
        "next_cursor: CURSOR"
    } else {
        line
    }
}

fn options_of(args: Value) -> Result<Options, String> {
    match args {
        Value::Object(options) => Ok(options),
        other => Err(format!("BAD_VECTOR: arguments must be an object, not {other}")),
    }
}

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("results serialize")
}

fn compare_outcome(vector: &Value, outcome: Result<Value, Failure>, base: &Path) -> Result<(), Failed> {
    match (vector.get("expect_error"), outcome) {
        (Some(expected), Err(Failure { code, path, .. })) if expected == &Value::String(code.clone()) => {
            let Some(expected) = vector.get("expect_error_path") else { return Ok(()) };
            let path = path.map(|path| as_fixture_text(&path.to_string_lossy(), base));
            match path {
                Some(path) if expected == &Value::String(path.clone()) => Ok(()),
                other => Err(format!("expected error path {expected}, got {other:?}").into()),
            }
        }
        (Some(expected), Err(Failure { code, .. })) => {
            Err(format!("expected error {expected}, got error {code}").into())
        }
        (Some(expected), Ok(actual)) => Err(format!("expected error {expected}, got {actual}").into()),
        (None, Err(Failure { code, message, .. })) => {
            Err(format!("unexpected error {code} {message}").into())
        }
        (None, Ok(actual)) => {
            let actual = fixture_relative(actual, base);
            let expected = vector.get("expect").ok_or("vector has neither expect nor expect_error")?;
            subset(expected, &actual, "").map_err(|e| format!("{e}\nactual: {actual}").into())
        }
    }
}

/// `value` with the fixture directory written `$T` in every string (see [`as_fixture_text`]).
fn fixture_relative(value: Value, base: &Path) -> Value {
    match value {
        Value::String(s) => Value::String(as_fixture_text(&s, base)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| fixture_relative(v, base)).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter().map(|(k, v)| (as_fixture_text(&k, base), fixture_relative(v, base))).collect(),
        ),
        other => other,
    }
}

/// `text` with the fixture directory written `$T`; on Windows a path that held it then has
/// `/` between its names, as the vectors spell them.
fn as_fixture_text(text: &str, base: &Path) -> String {
    let base = base.to_str().expect("utf-8 temp dir");
    if !text.contains(base) {
        return text.to_owned();
    }
    let replaced = text.replace(base, "$T");
    if cfg!(windows) {
        replaced.replace('\\', "/")
    } else {
        replaced
    }
}

/// Checks that `expected` is contained in `actual` (objects: listed keys; arrays: same
/// length, element-wise; scalars: equal).
fn subset(expected: &Value, actual: &Value, at: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(want), Value::Object(have)) => {
            for (key, value) in want {
                let here = format!("{at}/{key}");
                let got = have.get(key).ok_or_else(|| format!("{here}: missing"))?;
                subset(value, got, &here)?;
            }
            Ok(())
        }
        (Value::Array(want), Value::Array(have)) => {
            if want.len() != have.len() {
                return Err(format!("{at}: expected {} items, got {}", want.len(), have.len()));
            }
            want.iter().zip(have).enumerate().try_for_each(|(i, (w, h))| subset(w, h, &format!("{at}/{i}")))
        }
        (Value::Number(want), Value::Number(have)) if want.as_f64() == have.as_f64() => Ok(()),
        _ if expected == actual => Ok(()),
        _ => Err(format!("{at}: expected {expected}, got {actual}")),
    }
}

fn fixture_path(base: &Path, text: &str) -> PathBuf {
    // A `file:` URI root: given as written, with `$T` replaced wherever it is.
    if text.starts_with("file:") {
        return PathBuf::from(text.replace("$T", &base.display().to_string()));
    }
    match text.strip_prefix("$T") {
        Some(rest) => PathBuf::from(format!("{}{rest}", base.display())),
        None => base.join(text),
    }
}

/// Replaces `$T` and `$HOME` in every string of `value`.
fn substitute(value: Value, base: &Path) -> Value {
    match value {
        Value::String(s) => Value::String(substitute_str(&s, base)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| substitute(v, base)).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, substitute(v, base))).collect::<Map<_, _>>())
        }
        other => other,
    }
}

fn substitute_str(s: &str, base: &Path) -> String {
    let home = std::env::var(if cfg!(windows) { "USERPROFILE" } else { "HOME" }).unwrap_or_default();
    let replaced = if s == "$T" || s.starts_with("$T/") {
        format!("{}{}", base.display(), &s[2..])
    } else {
        s.to_owned()
    };
    if replaced == "$HOME" || replaced.starts_with("$HOME/") {
        format!("{home}{}", &replaced[5..])
    } else {
        replaced
    }
}

/// Decodes a tree key: `\xNN` escapes become raw bytes.
fn decode_key(key: &str) -> OsString {
    platform::os_string(key_bytes(key))
}

/// A tree key's bytes: each `\xNN` escape becomes the byte NN.
fn key_bytes(key: &str) -> Vec<u8> {
    let bytes = key.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'x') && i + 4 <= bytes.len() {
            if let Ok(b) = u8::from_str_radix(&key[i + 2..i + 4], 16) {
                out.push(b);
                i += 4;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// Creates the tree under `base`; returns the paths it chmodded.
fn build_tree(base: &Path, tree: &Value) -> Result<Vec<PathBuf>, String> {
    let entries = tree.as_object().ok_or("a tree is an object")?;
    let mut links = Vec::new();
    let mut modes = Vec::new();
    let mut mtimes = Vec::new();
    for (key, entry) in entries {
        let path = base.join(decode_key(key));
        let parent = path.parent().expect("entries have a parent");
        std::fs::create_dir_all(parent).map_err(|e| format!("{key}: {e}"))?;
        let write = |bytes: &[u8]| std::fs::write(&path, bytes).map_err(|e| format!("{key}: {e}"));
        match entry {
            Value::String(text) => write(text.as_bytes())?,
            Value::Object(spec) => {
                if let Some(text) = spec.get("text").and_then(Value::as_str) {
                    write(text.as_bytes())?;
                } else if let Some(hex) = spec.get("hex").and_then(Value::as_str) {
                    write(&decode_hex(hex)?)?;
                } else if spec.get("dir").is_some() {
                    std::fs::create_dir_all(&path).map_err(|e| format!("{key}: {e}"))?;
                } else if let Some(target) = spec.get("symlink").and_then(Value::as_str) {
                    links.push((path.clone(), substitute_str(target, base)));
                } else if spec.get("fifo").is_some() {
                    platform::mkfifo(&path).map_err(|e| format!("{key}: {e}"))?;
                } else {
                    return Err(format!("{key}: unknown tree entry {entry}"));
                }
                if let Some(mtime) = spec.get("mtime").and_then(Value::as_i64) {
                    mtimes.push((path.clone(), mtime));
                }
                if let Some(mode) = spec.get("mode").and_then(Value::as_str) {
                    let mode = u32::from_str_radix(mode, 8).map_err(|e| format!("{key}: mode {e}"))?;
                    modes.push((path.clone(), mode));
                }
            }
            other => return Err(format!("{key}: unknown tree entry {other}")),
        }
    }
    for (path, target) in links {
        platform::symlink(Path::new(&target), &path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    for (path, mtime) in mtimes {
        let time = filetime::FileTime::from_unix_time(mtime, 0);
        filetime::set_symlink_file_times(&path, time, time).map_err(|e| e.to_string())?;
    }
    for (path, mode) in &modes {
        platform::set_mode(path, *mode).map_err(|e| e.to_string())?;
    }
    Ok(modes.into_iter().map(|(path, _)| path).collect())
}

/// Makes the entries a vector chmodded removable again (they are real files and directories
/// the fixture created, never symlinks, so nothing outside the fixture is touched).
fn restore_permissions(chmodded: &[PathBuf]) {
    for path in chmodded {
        let _ = platform::set_mode(path, 0o755);
    }
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    let clean: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
    (0..clean.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(clean.get(i..i + 2).unwrap_or("x"), 16).map_err(|e| format!("hex: {e}")))
        .collect()
}
