//! Options from a host language, checked in one place.
//!
//! A binding hands over its caller's options as loosely typed data, a JSON object
//! ([`Options`], which the Python and the Node binding both build cheaply), and gets back a
//! [`GrepRequest`], [`GlobRequest`], [`render::Format`](crate::render::Format), [`Intent`] or
//! [`SandboxOptions`](crate::SandboxOptions) with every default applied, or an
//! [`ErrorCode::InvalidOption`] error. Nothing about options is decided in a binding: which
//! names exist (and their aliases), what each accepts, the defaults, and the wording of every
//! complaint live here.
//!
//! The one thing that differs between languages, how option names are spelled, is a
//! parameter: [`KeyStyle::SnakeCase`] (`max_depth`, Python) or [`KeyStyle::CamelCase`]
//! (`maxDepth`, JavaScript). Messages name the option as the caller spelled it and say what it
//! accepts in words, e.g. ``grep option `limit` must be a non-negative integer, not -1``; an
//! unknown name is refused with the right spelling when it is a case mix-up or a near miss.
//! `null` leaves an option at its default, except where `null` is itself a value (`limit`:
//! no cap).
//!
//! ```
//! use fsnative::options::{KeyStyle, Options};
//! use fsnative::{ErrorCode, GrepRequest};
//! let options: Options = serde_json::from_str(r#"{"pattern": "TODO", "maxDepth": 2}"#)?;
//! let request = GrepRequest::from_options(&options, KeyStyle::CamelCase)?;
//! assert_eq!((request.max_depth, request.limit), (Some(2), Some(1000)));
//!
//! let options: Options = serde_json::from_str(r#"{"pattern": "TODO", "maxDepth": 2}"#)?;
//! let error = GrepRequest::from_options(&options, KeyStyle::SnakeCase).unwrap_err();
//! assert_eq!(error.code(), ErrorCode::InvalidOption);
//! assert_eq!(error.option(), Some("maxDepth"));
//! assert_eq!(error.message(), "unknown grep option `maxDepth` (did you mean `max_depth`?)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod host_values;
pub(crate) mod index;
mod sandbox;
use host_values::{camel_to_snake, snake_to_camel, OptionsOf};

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};
use crate::render::fff::{FffFindOptions, FffGrepOptions};
use crate::render::{FindFormat, Format, JsonOptions, StandardOptions};
use crate::request::{
    CaseMode, EntryKind, FindRequest, GlobRequest, GlobSyntax, GrepRequest, OneOrMany, OutputMode, SortOrder,
};
use crate::roots::Intent;

/// A caller's options: names (in the caller's [`KeyStyle`]) to JSON-like values.
pub type Options = serde_json::Map<String, Value>;

/// How a caller spells option names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyStyle {
    /// `max_depth` (Python, the core's serde names, the conformance vectors).
    SnakeCase,
    /// `maxDepth` (JavaScript).
    CamelCase,
}

impl KeyStyle {
    /// The core's snake_case `name` in this style.
    pub fn spell(self, name: &str) -> Cow<'_, str> {
        match self {
            KeyStyle::SnakeCase => Cow::Borrowed(name),
            KeyStyle::CamelCase => snake_to_camel(name),
        }
    }

    /// The other style's spelling of `key`, as a suggestion for a key given in the wrong one.
    fn other_spelling(self, key: &str) -> Cow<'_, str> {
        match self {
            KeyStyle::SnakeCase => camel_to_snake(key),
            KeyStyle::CamelCase => snake_to_camel(key),
        }
    }
}

impl GrepRequest {
    /// The request `options` describe (keys in `style`); see the [module docs](self).
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<GrepRequest> {
        fill(GrepRequest::default(), options.iter(), style)
    }
}

impl GlobRequest {
    /// The request `options` describe (keys in `style`); see the [module docs](self).
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<GlobRequest> {
        fill(GlobRequest::default(), options.iter(), style)
    }
}

impl FindRequest {
    /// The request `options` describe (keys in `style`); see the [module docs](self).
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<FindRequest> {
        fill(FindRequest::default(), options.iter(), style)
    }
}

impl Format {
    /// The render format `options` describe: `format` (`"standard"`, the default, or
    /// `"json"`) and that format's options.
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<Format> {
        let rest = options.iter().filter(|(key, _)| key.as_str() != "format");
        match options.get("format").filter(|given| !given.is_null()) {
            None => fill(StandardOptions::default(), rest, style).map(Format::Standard),
            Some(given) => match given.as_str() {
                Some("standard") => fill(StandardOptions::default(), rest, style).map(Format::Standard),
                Some("json") => {
                    if let Some((key, _)) = options.iter().find(|(key, _)| {
                        JsonOptions::field(&canonical(key, style)).is_none()
                            && StandardOptions::field(&canonical(key, style)).is_some()
                    }) {
                        let message = format!("render option `{key}` applies to the standard format only");
                        return Err(Error::invalid_option(key, message));
                    }
                    fill(JsonOptions::default(), rest, style).map(Format::Json)
                }
                Some("fff") => fill(FffGrepOptions::default(), rest, style).map(Format::Fff),
                _ => Err(rejected(OptionsOf::Render.name(), "format", style, FORMATS, given)),
            },
        }
    }
}

impl FindFormat {
    /// The render format of a find result `options` describe: `format` `"fff"` (the default
    /// and only one) and its options, `query` and `path`.
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<FindFormat> {
        let rest = options.iter().filter(|(key, _)| key.as_str() != "format");
        match options.get("format").filter(|given| !given.is_null()) {
            None => fill(FffFindOptions::default(), rest, style).map(FindFormat::Fff),
            Some(given) if given.as_str() == Some("fff") => {
                fill(FffFindOptions::default(), rest, style).map(FindFormat::Fff)
            }
            Some(given) => Err(rejected(OptionsOf::RenderFind.name(), "format", style, r#""fff""#, given)),
        }
    }
}

impl Intent {
    /// The intent of a path validation: option `intent`, `"read"` (the default) or `"write"`.
    /// No other option exists.
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<Intent> {
        let mut intent = Intent::Read;
        for (key, value) in options {
            if key != "intent" {
                return Err(unknown(OptionsOf::Validate.name(), key, &["intent"], style));
            }
            if !value.is_null() {
                intent = Intent::accept(value).ok_or_else(|| {
                    rejected(OptionsOf::Validate.name(), key, style, &Intent::accepts(), value)
                })?;
            }
        }
        Ok(intent)
    }
}

/// What the `format` of a render accepts.
const FORMATS: &str = r#""standard", "json" or "fff""#;

/// The snake_case name a key stands for, if it is spelled in `style` (a key in the other style
/// gives a name that no option has).
fn canonical(key: &str, style: KeyStyle) -> Cow<'_, str> {
    match style {
        KeyStyle::SnakeCase => Cow::Borrowed(key),
        KeyStyle::CamelCase if key.contains('_') => Cow::Owned(format!("_{key}")),
        KeyStyle::CamelCase => camel_to_snake(key),
    }
}

/// One option of a request type: its snake_case name, an alias, what it accepts in words, and
/// how a value is stored.
struct Field<T> {
    name: &'static str,
    alias: Option<&'static str>,
    accepts: fn() -> Cow<'static, str>,
    set: fn(&mut T, &Value) -> bool,
}

/// A type built from options: its operation's name and its table of fields.
trait FromOptions: Sized + 'static {
    const OPERATION: &'static str;
    const FIELDS: &'static [Field<Self>];

    fn field(name: &str) -> Option<&'static Field<Self>> {
        Self::FIELDS.iter().find(|field| field.name == name || field.alias == Some(name))
    }
}

/// Sets the fields `options` name on `target`, refusing unknown names, names given twice
/// (under a name and its alias) and values a field does not accept.
fn fill<'a, T: FromOptions>(
    mut target: T,
    options: impl Iterator<Item = (&'a String, &'a Value)>,
    style: KeyStyle,
) -> Result<T> {
    let mut seen: Vec<(&'static str, &str)> = Vec::new();
    for (key, value) in options {
        let names = || T::FIELDS.iter().flat_map(|field| [Some(field.name), field.alias]).flatten();
        let field = T::field(&canonical(key, style))
            .ok_or_else(|| unknown(T::OPERATION, key, &names().collect::<Vec<_>>(), style))?;
        if let Some((_, first)) = seen.iter().find(|(name, _)| *name == field.name) {
            let message = format!(
                "{} options `{first}` and `{key}` are the same option; give one",
                style.spell(T::OPERATION)
            );
            return Err(Error::invalid_option(key, message));
        }
        seen.push((field.name, key));
        if !(field.set)(&mut target, value) {
            return Err(rejected(T::OPERATION, key, style, &(field.accepts)(), value));
        }
    }
    Ok(target)
}

/// The error for an unknown option `key`, suggesting the name meant when there is one.
fn unknown(operation: &str, key: &str, names: &[&str], style: KeyStyle) -> Error {
    let spelled: Vec<Cow<'_, str>> = names.iter().map(|name| style.spell(name)).collect();
    let other = style.other_spelling(key);
    let meant = spelled.iter().find(|name| **name == other || name.eq_ignore_ascii_case(key)).or_else(|| {
        spelled
            .iter()
            .filter(|name| edit_distance(name, key) <= 2)
            .min_by_key(|name| edit_distance(name, key))
    });
    let operation = style.spell(operation);
    let message = match meant {
        Some(name) => format!("unknown {operation} option `{key}` (did you mean `{name}`?)"),
        None => format!("unknown {operation} option `{key}`"),
    };
    Error::invalid_option(key, message)
}

/// The error for `value`, which option `key` does not accept.
fn rejected(operation: &str, key: &str, style: KeyStyle, accepts: &str, value: &Value) -> Error {
    let operation = style.spell(operation);
    Error::invalid_option(
        key,
        format!("{operation} option `{key}` must be {accepts}, not {}", describe(value)),
    )
}

/// A value as a complaint shows it: numbers and (short) strings as given, other kinds by name.
fn describe(value: &Value) -> String {
    const SHOWN: usize = 40;
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(_) => "a boolean".to_owned(),
        Value::Number(number) => number.to_string(),
        Value::String(text) if text.chars().count() <= SHOWN => format!("{text:?}"),
        Value::String(text) => format!("{:?}…", text.chars().take(SHOWN).collect::<String>()),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// Levenshtein distance, for suggesting a near miss.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// A field type: what values it accepts, and in which words.
trait Accept: Sized {
    fn accepts() -> Cow<'static, str>;
    fn accept(value: &Value) -> Option<Self>;
}

impl Accept for bool {
    fn accepts() -> Cow<'static, str> {
        Cow::Borrowed("a boolean")
    }
    fn accept(value: &Value) -> Option<bool> {
        value.as_bool()
    }
}

impl Accept for u64 {
    fn accepts() -> Cow<'static, str> {
        Cow::Borrowed("a non-negative integer")
    }
    fn accept(value: &Value) -> Option<u64> {
        value.as_u64()
    }
}

impl Accept for usize {
    fn accepts() -> Cow<'static, str> {
        u64::accepts()
    }
    fn accept(value: &Value) -> Option<usize> {
        // On a 32-bit system a count beyond the address space means "no bound".
        value.as_u64().map(|count| usize::try_from(count).unwrap_or(usize::MAX))
    }
}

impl Accept for String {
    fn accepts() -> Cow<'static, str> {
        Cow::Borrowed("a string")
    }
    fn accept(value: &Value) -> Option<String> {
        value.as_str().map(str::to_owned)
    }
}

impl Accept for OneOrMany {
    fn accepts() -> Cow<'static, str> {
        Cow::Borrowed("a string or a list of strings")
    }
    fn accept(value: &Value) -> Option<OneOrMany> {
        match value {
            Value::String(one) => Some(OneOrMany(vec![one.clone()])),
            Value::Array(many) => many.iter().map(|item| item.as_str().map(str::to_owned)).collect(),
            _ => None,
        }
    }
}

/// `null` is a value of its own for an optional field (`limit: null`: no cap).
impl<T: Accept> Accept for Option<T> {
    fn accepts() -> Cow<'static, str> {
        T::accepts()
    }
    fn accept(value: &Value) -> Option<Option<T>> {
        if value.is_null() {
            Some(None)
        } else {
            T::accept(value).map(Some)
        }
    }
}

/// Enums are accepted by their serde names, which are listed once here for the words; serde
/// itself parses them, so a name listed here that serde does not know is never accepted (the
/// tests check every listed name).
macro_rules! choices {
    ($($kind:ty: [$($name:literal),+ $(,)?];)+) => {$(
        impl Accept for $kind {
            fn accepts() -> Cow<'static, str> {
                Cow::Borrowed(choices!(@words $($name),+))
            }
            fn accept(value: &Value) -> Option<$kind> {
                let name = value.as_str().filter(|name| [$($name),+].contains(name))?;
                parse(name)
            }
        }
    )+};
    (@words $last:literal) => { concat!("\"", $last, "\"") };
    (@words $first:literal, $last:literal) => { concat!("\"", $first, "\" or \"", $last, "\"") };
    (@words $first:literal, $($rest:literal),+) => { concat!("\"", $first, "\", ", choices!(@words $($rest),+)) };
}

choices! {
    CaseMode: ["sensitive", "insensitive", "smart"];
    OutputMode: ["content", "files", "count"];
    SortOrder: ["path", "mtime", "frecency", "none"];
    EntryKind: ["files", "dirs", "all"];
    GlobSyntax: ["glob", "minimatch"];
    crate::render::PathStyle: ["absolute", "relative"];
    Intent: ["read", "write"];
    crate::rank::FrecencyProfile: ["normal", "ai"];
}

fn parse<T: DeserializeOwned>(name: &str) -> Option<T> {
    serde_json::from_value(Value::String(name.to_owned())).ok()
}

/// Stores `value` in `slot` if its type accepts it; `null` leaves a non-optional field at its
/// default.
fn store<T: Accept>(slot: &mut T, value: &Value) -> bool {
    match T::accept(value) {
        Some(accepted) => {
            *slot = accepted;
            true
        }
        None => value.is_null(),
    }
}

/// The table of a request type's options: each field once, with its alias; the field's own
/// type says what it accepts.
macro_rules! option_fields {
    ($target:ty, $operation:expr, [$($field:ident $(| $alias:ident)?),+ $(,)?]) => {
        impl FromOptions for $target {
            const OPERATION: &'static str = $operation;
            const FIELDS: &'static [Field<$target>] = &[$(Field {
                name: stringify!($field),
                alias: option_fields!(@alias $($alias)?),
                accepts: || {
                    fn words<T: Accept>(_: fn(&$target) -> &T) -> Cow<'static, str> {
                        T::accepts()
                    }
                    words(|target: &$target| &target.$field)
                },
                set: |target, value| store(&mut target.$field, value),
            }),+];
        }
    };
    (@alias) => { None };
    (@alias $alias:ident) => { Some(stringify!($alias)) };
}

option_fields!(GrepRequest, OptionsOf::Grep.name(), [
    patterns | pattern, fixed_strings, case_mode, word, multiline, invert, paths | path,
    globs | glob, types | type, types_not, constraints, hidden, follow_links, no_ignore, max_depth,
    max_filesize, search_binary, mode, context, before_context, after_context,
    max_count_per_file, section_end_patterns, limit, max_columns, sort, cursor, timeout_ms,
    threads,
]);

option_fields!(
    GlobRequest,
    OptionsOf::Glob.name(),
    [
        patterns | pattern,
        paths | path,
        syntax,
        exclude,
        case_insensitive,
        constraints,
        hidden,
        git_dir,
        follow_links,
        no_ignore,
        max_depth,
        kind,
        sort,
        limit,
        timeout_ms,
    ]
);

option_fields!(FindRequest, OptionsOf::Find.name(), [query, path, limit, constraints, timeout_ms]);

option_fields!(StandardOptions, OptionsOf::Render.name(), [path_style, with_filename, heading, line_number]);

option_fields!(JsonOptions, OptionsOf::Render.name(), [path_style]);

option_fields!(FffGrepOptions, OptionsOf::Render.name(), [path, base, patterns]);

option_fields!(FffFindOptions, OptionsOf::RenderFind.name(), [query, path]);

impl Error {
    /// An [`ErrorCode::InvalidOption`] error about option `key` (as the caller spelled it).
    fn invalid_option(key: &str, message: String) -> Error {
        Error::new(ErrorCode::InvalidOption, message).with_option(key)
    }
}

#[cfg(test)]
mod tests;
