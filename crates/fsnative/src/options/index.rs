//! A sandbox's option `index`: whether the sandbox keeps a warm index, and how
//! ([`IndexOptions`]); and how long `wait_for_index` waits ([`wait_timeout`]).
//!
//! Option `index` is `true` (an index with the defaults), an object of index options, or
//! `false`, `null` or absent (no index). Index options are named `index.<name>` in complaints
//! and in [`Error::option`], in the caller's spelling (`index.max_files`, `index.maxFiles`):
//!
//! ```
//! use fsnative::options::{KeyStyle, Options};
//! use fsnative::{ErrorCode, IndexOptions, SandboxOptions};
//! let options: Options = serde_json::from_str(r#"{"index": {"maxFiles": 5000}}"#)?;
//! let index = SandboxOptions::from_options(&options, KeyStyle::CamelCase)?.index;
//! assert_eq!(index, Some(IndexOptions { max_files: 5000, ..IndexOptions::default() }));
//!
//! let options: Options = serde_json::from_str(r#"{"index": {"max_files": 0}}"#)?;
//! let error = SandboxOptions::from_options(&options, KeyStyle::SnakeCase).unwrap_err();
//! assert_eq!((error.code(), error.option()), (ErrorCode::InvalidOption, Some("index.max_files")));
//! assert_eq!(error.message(), "Sandbox option `index.max_files` must be a positive integer, not 0");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::{fill, rejected, store, Accept, Field, FromOptions, KeyStyle, Options, OptionsOf};
use crate::error::{Error, ErrorCode, Result};
use crate::index::IndexOptions;

/// The operation complaints about these options name.
const OPERATION: &str = OptionsOf::Sandbox.name();
/// The sandbox option of the index.
pub(super) const INDEX: &str = "index";
/// What option `index` accepts.
const INDEX_ACCEPTS: &str = "a boolean or an object of index options";
/// What `index.max_files` accepts.
const POSITIVE: &str = "a positive integer";
/// What `index.persist` accepts.
const DIRECTORY: &str = "a non-empty path string";

/// Option `index` of a sandbox (`key` as the caller spelled it): `Some` for `true` (the
/// defaults) or an object of index options, `None` for `false` or `null`.
pub(super) fn sandbox_index(key: &str, value: &Value, style: KeyStyle) -> Result<Option<IndexOptions>> {
    match value {
        Value::Null | Value::Bool(false) => Ok(None),
        Value::Bool(true) => Ok(Some(IndexOptions::default())),
        Value::Object(fields) => IndexOptions::from_options(fields, style).map(Some),
        other => Err(rejected(OPERATION, key, style, INDEX_ACCEPTS, other)),
    }
}

impl IndexOptions {
    /// The index options an object of them describes (`max_files`, `max_memory`, `content`,
    /// `allow_home`, `persist`, `cache_memory`, keys in `style`); what is left out (or `null`)
    /// keeps its default.
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<IndexOptions> {
        let named: Vec<(String, Value)> =
            options.iter().map(|(key, value)| (format!("{INDEX}.{key}"), value.clone())).collect();
        fill(IndexOptions::default(), named.iter().map(|(key, value)| (key, value)), style)
    }

    /// What the option `name` (snake_case, `index` or `index.<field>`) accepts, in words.
    pub(super) fn accepts(name: &str) -> Option<Cow<'static, str>> {
        match name {
            INDEX => Some(Cow::Borrowed(INDEX_ACCEPTS)),
            _ => IndexOptions::field(name).map(|field| (field.accepts)()),
        }
    }
}

impl FromOptions for IndexOptions {
    const OPERATION: &'static str = OPERATION;
    const FIELDS: &'static [Field<IndexOptions>] = &[
        Field {
            name: "index.max_files",
            alias: None,
            accepts: || Cow::Borrowed(POSITIVE),
            set: |options, value| match value.as_u64().filter(|&count| count > 0) {
                // On a 32-bit system a count beyond the address space means "no bound".
                Some(count) => {
                    options.max_files = usize::try_from(count).unwrap_or(usize::MAX);
                    true
                }
                None => value.is_null(),
            },
        },
        Field {
            name: "index.max_memory",
            alias: None,
            accepts: usize::accepts,
            set: |options, value| store(&mut options.max_memory, value),
        },
        Field {
            name: "index.content",
            alias: None,
            accepts: bool::accepts,
            set: |options, value| store(&mut options.content, value),
        },
        Field {
            name: "index.allow_home",
            alias: None,
            accepts: bool::accepts,
            set: |options, value| store(&mut options.allow_home, value),
        },
        Field {
            name: "index.cache_memory",
            alias: None,
            accepts: usize::accepts,
            set: |options, value| store(&mut options.cache_memory, value),
        },
        Field {
            name: "index.persist",
            alias: None,
            accepts: || Cow::Borrowed(DIRECTORY),
            set: |options, value| match value {
                Value::Null => true,
                Value::String(dir) if !dir.is_empty() => {
                    options.persist = Some(PathBuf::from(dir));
                    true
                }
                _ => false,
            },
        },
    ];
}

/// How long `wait_for_index` waits: `amount` times `unit` (a second for Python, a
/// millisecond for JavaScript). `None` or infinity: until the index is ready (or fails or
/// closes). A negative or NaN amount is an [`ErrorCode::InvalidArgument`] error that names
/// the argument as the caller spells it (`name`).
///
/// ```
/// use std::time::Duration;
/// use fsnative::host::wait_timeout;
/// let unit = Duration::from_millis(1);
/// assert_eq!(wait_timeout("timeoutMs", Some(1500.0), unit), Ok(Some(Duration::from_millis(1500))));
/// assert_eq!(wait_timeout("timeoutMs", None, unit), Ok(None));
/// let error = wait_timeout("timeoutMs", Some(-1.0), unit).unwrap_err();
/// assert_eq!(error.message(), "`timeoutMs` must be a non-negative number, not -1");
/// ```
pub fn wait_timeout(name: &str, amount: Option<f64>, unit: Duration) -> Result<Option<Duration>> {
    match amount {
        None => Ok(None),
        Some(amount) if amount >= 0.0 => {
            let nanos = amount * unit.as_nanos() as f64;
            Ok((nanos < u64::MAX as f64).then(|| Duration::from_nanos(nanos as u64)))
        }
        Some(amount) => Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("`{name}` must be a non-negative number, not {amount}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sandbox_options(value: Value, style: KeyStyle) -> Result<Option<IndexOptions>> {
        match value {
            Value::Object(options) => crate::SandboxOptions::from_options(&options, style).map(|s| s.index),
            _ => unreachable!("tests pass objects"),
        }
    }

    #[test]
    fn index_true_false_absent_and_objects() {
        let defaults = IndexOptions::default();
        for style in [KeyStyle::SnakeCase, KeyStyle::CamelCase] {
            assert_eq!(sandbox_options(json!({}), style), Ok(None));
            assert_eq!(sandbox_options(json!({"index": false}), style), Ok(None));
            assert_eq!(sandbox_options(json!({"index": null}), style), Ok(None));
            assert_eq!(sandbox_options(json!({"index": true}), style), Ok(Some(defaults.clone())));
            assert_eq!(sandbox_options(json!({"index": {}}), style), Ok(Some(defaults.clone())));
            let nulls = json!({"index": {"content": null}});
            assert_eq!(sandbox_options(nulls, style), Ok(Some(defaults.clone())));
        }
        let snake = json!({"index": {"max_files": 10, "max_memory": 0, "content": false, "allow_home": true,
            "persist": "/var/cache/idx", "cache_memory": 0}});
        let camel = json!({"index": {"maxFiles": 10, "maxMemory": 0, "content": false, "allowHome": true,
            "persist": "/var/cache/idx", "cacheMemory": 0}});
        let expected = IndexOptions {
            max_files: 10,
            max_memory: 0,
            content: false,
            allow_home: true,
            persist: Some(PathBuf::from("/var/cache/idx")),
            cache_memory: 0,
        };
        assert_eq!(sandbox_options(snake, KeyStyle::SnakeCase), Ok(Some(expected.clone())));
        assert_eq!(sandbox_options(camel, KeyStyle::CamelCase), Ok(Some(expected)));
        // Every field of the serde form is in the table, and reads back what serde reads.
        let full = IndexOptions {
            max_files: 7,
            max_memory: 9,
            content: false,
            allow_home: true,
            persist: Some("d".into()),
            cache_memory: 11,
        };
        let value = json!({ "index": serde_json::to_value(&full).unwrap() });
        assert_eq!(sandbox_options(value, KeyStyle::SnakeCase), Ok(Some(full)));
    }

    #[test]
    fn messages_name_the_option_as_the_caller_spelled_it() {
        let cases = [
            (
                json!({"index": {"max_files": 0}}),
                KeyStyle::SnakeCase,
                "index.max_files",
                "Sandbox option `index.max_files` must be a positive integer, not 0",
            ),
            (
                json!({"index": {"maxFiles": -3}}),
                KeyStyle::CamelCase,
                "index.maxFiles",
                "Sandbox option `index.maxFiles` must be a positive integer, not -3",
            ),
            (
                json!({"index": {"max_files": 1.5}}),
                KeyStyle::SnakeCase,
                "index.max_files",
                "Sandbox option `index.max_files` must be a positive integer, not 1.5",
            ),
            (
                json!({"index": {"maxMemory": "1G"}}),
                KeyStyle::CamelCase,
                "index.maxMemory",
                "Sandbox option `index.maxMemory` must be a non-negative integer, not \"1G\"",
            ),
            (
                json!({"index": {"content": 1}}),
                KeyStyle::SnakeCase,
                "index.content",
                "Sandbox option `index.content` must be a boolean, not 1",
            ),
            (
                json!({"index": {"allow_home": "yes"}}),
                KeyStyle::SnakeCase,
                "index.allow_home",
                "Sandbox option `index.allow_home` must be a boolean, not \"yes\"",
            ),
            (
                json!({"index": {"persist": ""}}),
                KeyStyle::SnakeCase,
                "index.persist",
                "Sandbox option `index.persist` must be a non-empty path string, not \"\"",
            ),
            (
                json!({"index": {"persist": true}}),
                KeyStyle::CamelCase,
                "index.persist",
                "Sandbox option `index.persist` must be a non-empty path string, not a boolean",
            ),
            (
                json!({"index": {"max_file": 1}}),
                KeyStyle::SnakeCase,
                "index.max_file",
                "unknown Sandbox option `index.max_file` (did you mean `index.max_files`?)",
            ),
            (
                json!({"index": {"max_files": 1}}),
                KeyStyle::CamelCase,
                "index.max_files",
                "unknown Sandbox option `index.max_files` (did you mean `index.maxFiles`?)",
            ),
            (
                json!({"index": {"allowHome": true}}),
                KeyStyle::SnakeCase,
                "index.allowHome",
                "unknown Sandbox option `index.allowHome` (did you mean `index.allow_home`?)",
            ),
            (
                json!({"index": "yes"}),
                KeyStyle::SnakeCase,
                "index",
                "Sandbox option `index` must be a boolean or an object of index options, not \"yes\"",
            ),
            (
                json!({"index": [1]}),
                KeyStyle::CamelCase,
                "index",
                "Sandbox option `index` must be a boolean or an object of index options, not a list",
            ),
            (
                json!({"indx": true}),
                KeyStyle::CamelCase,
                "indx",
                "unknown Sandbox option `indx` (did you mean `index`?)",
            ),
            (json!({"roots": []}), KeyStyle::SnakeCase, "roots", "unknown Sandbox option `roots`"),
        ];
        for (given, style, option, message) in cases {
            let error = sandbox_options(given.clone(), style).unwrap_err();
            assert_eq!(error.code(), ErrorCode::InvalidOption, "{given}");
            assert_eq!((error.option(), error.message()), (Some(option), message), "{given}");
        }
    }

    #[test]
    fn unconvertible_values_of_index_options_say_what_they_accept() {
        let error =
            crate::host::unconvertible(OptionsOf::Sandbox, "index.max_files", KeyStyle::SnakeCase, "a set");
        assert_eq!(error.message(), "Sandbox option `index.max_files` must be a positive integer, not a set");
        assert_eq!(error.option(), Some("index.max_files"));
        let error =
            crate::host::unconvertible(OptionsOf::Sandbox, "index", KeyStyle::CamelCase, "a function");
        assert_eq!(
            error.message(),
            "Sandbox option `index` must be a boolean or an object of index options, not a function"
        );
    }

    #[test]
    fn wait_timeouts() {
        let second = Duration::from_secs(1);
        assert_eq!(wait_timeout("timeout", Some(0.0), second), Ok(Some(Duration::ZERO)));
        assert_eq!(wait_timeout("timeout", Some(0.25), second), Ok(Some(Duration::from_millis(250))));
        assert_eq!(wait_timeout("timeout", Some(f64::INFINITY), second), Ok(None));
        assert_eq!(wait_timeout("timeout", Some(1e300), second), Ok(None));
        for bad in [-0.5, f64::NAN, f64::NEG_INFINITY] {
            let error = wait_timeout("timeout", Some(bad), second).unwrap_err();
            assert_eq!(error.code(), ErrorCode::InvalidArgument, "{bad}");
            assert!(error.message().starts_with("`timeout` must be a non-negative number, not "), "{bad}");
        }
    }
}
