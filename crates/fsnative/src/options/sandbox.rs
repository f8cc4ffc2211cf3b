//! A binding's `Sandbox(roots, options)`: [`SandboxOptions`].
//!
//! ```
//! use fsnative::options::{KeyStyle, Options};
//! use fsnative::{ErrorCode, FrecencyProfile, SandboxOptions};
//! let options: Options = serde_json::from_str(
//!     r#"{"frecency": {"path": "/tmp/frecency", "profile": "ai"}, "recordHits": true,
//!         "thesaurus": {"auth": "security"}, "maxBoost": 10}"#,
//! )?;
//! let sandbox = SandboxOptions::from_options(&options, KeyStyle::CamelCase)?;
//! assert_eq!(sandbox.frecency.map(|f| f.profile), Some(FrecencyProfile::Ai));
//! assert_eq!((sandbox.record_hits, sandbox.boost_weight, sandbox.max_boost), (true, 5, 10));
//!
//! let options: Options = serde_json::from_str(r#"{"record_hits": true}"#)?;
//! let error = SandboxOptions::from_options(&options, KeyStyle::SnakeCase).unwrap_err();
//! assert_eq!((error.code(), error.option()), (ErrorCode::InvalidOption, Some("record_hits")));
//! assert_eq!(error.message(), "Sandbox option `record_hits` needs option `frecency`");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::path::PathBuf;

use serde_json::Value;

use super::index::{sandbox_index, INDEX};
use super::{canonical, rejected, unknown, Accept, KeyStyle, Options, OptionsOf};
use crate::error::{Error, Result};
use crate::rank::{FrecencyOptions, FrecencyProfile, Thesaurus, ThesaurusSource};
use crate::sandbox::SandboxOptions;

const OPERATION: &str = OptionsOf::Sandbox.name();
const FRECENCY: &str = "frecency";
const FRECENCY_PATH: &str = "frecency.path";
const FRECENCY_PROFILE: &str = "frecency.profile";
const RECORD_HITS: &str = "record_hits";
const THESAURUS: &str = "thesaurus";
const BOOST_WEIGHT: &str = "boost_weight";
const MAX_BOOST: &str = "max_boost";
/// Every option of a sandbox.
const NAMES: [&str; 6] = [INDEX, FRECENCY, RECORD_HITS, THESAURUS, BOOST_WEIGHT, MAX_BOOST];

const FRECENCY_ACCEPTS: &str = "a boolean, a path string or an object with `path` and `profile`";
const PATH_ACCEPTS: &str = "a non-empty string";
const THESAURUS_ACCEPTS: &str = "a path string or an object mapping terms to concepts";
const WEIGHT_ACCEPTS: &str = "an integer from 0 to 4294967295";

impl SandboxOptions {
    /// The sandbox `options` describe (keys in `style`):
    /// - `index`: `true` (a warm index with the defaults), an object of index options (see
    ///   [`IndexOptions::from_options`](crate::IndexOptions::from_options)), or `false`/`null`: none.
    /// - `frecency`: a frecency database to record accesses in and rank by: a path string (its
    ///   directory), `true` (the directory [`FRECENCY_DB_ENV`](crate::FRECENCY_DB_ENV) names), or
    ///   an object `{path, profile}` (`path` left out: the environment variable's; `profile`
    ///   `"normal"`, the default, or `"ai"`); `false` or `null`: none.
    /// - `record_hits`: record an access to each file a grep returns (needs `frecency`).
    /// - `thesaurus`: for path boosts: a path string (a JSON file, watched and reloaded) or an
    ///   object, the thesaurus itself (either shape, see [`Thesaurus`]).
    /// - `boost_weight` (default 5) and `max_boost` (default 30): integers, with `thesaurus`.
    pub fn from_options(options: &Options, style: KeyStyle) -> Result<SandboxOptions> {
        let mut sandbox = SandboxOptions::default();
        // Options that only apply with another, as the caller spelled them.
        let (mut weights, mut record_hits) = (None, None);
        for (key, value) in options {
            match canonical(key, style).as_ref() {
                INDEX => sandbox.index = sandbox_index(key, value, style)?,
                FRECENCY => sandbox.frecency = frecency(key, value, style)?,
                RECORD_HITS => {
                    sandbox.record_hits = match value {
                        Value::Null => false,
                        other => other
                            .as_bool()
                            .ok_or_else(|| rejected(OPERATION, key, style, &bool::accepts(), value))?,
                    };
                    record_hits = sandbox.record_hits.then_some(key);
                }
                THESAURUS => sandbox.thesaurus = thesaurus(key, value, style)?,
                name @ (BOOST_WEIGHT | MAX_BOOST) => {
                    let Some(weight) = weight(key, value, style)? else { continue };
                    match name {
                        BOOST_WEIGHT => sandbox.boost_weight = weight,
                        _ => sandbox.max_boost = weight,
                    }
                    weights = Some(key);
                }
                _ => return Err(unknown(OPERATION, key, &NAMES, style)),
            }
        }
        if let (Some(key), None) = (record_hits, &sandbox.frecency) {
            return Err(needs(key, FRECENCY, style));
        }
        if let (Some(key), None) = (weights, &sandbox.thesaurus) {
            return Err(needs(key, THESAURUS, style));
        }
        Ok(sandbox)
    }
}

/// What the sandbox option `name` (snake_case) accepts, in words.
pub(super) fn accepts(name: &str) -> Option<Cow<'static, str>> {
    let words = match name {
        FRECENCY => FRECENCY_ACCEPTS,
        FRECENCY_PATH => PATH_ACCEPTS,
        FRECENCY_PROFILE => return Some(FrecencyProfile::accepts()),
        RECORD_HITS => return Some(bool::accepts()),
        THESAURUS => THESAURUS_ACCEPTS,
        BOOST_WEIGHT | MAX_BOOST => WEIGHT_ACCEPTS,
        _ => return crate::index::IndexOptions::accepts(name),
    };
    Some(Cow::Borrowed(words))
}

/// Option `frecency` (`key` as the caller spelled it).
fn frecency(key: &str, value: &Value, style: KeyStyle) -> Result<Option<FrecencyOptions>> {
    match value {
        Value::Null | Value::Bool(false) => Ok(None),
        Value::Bool(true) => Ok(Some(FrecencyOptions::default())),
        Value::String(path) if !path.is_empty() => {
            Ok(Some(FrecencyOptions { path: Some(PathBuf::from(path)), ..FrecencyOptions::default() }))
        }
        Value::Object(fields) => {
            let mut frecency = FrecencyOptions::default();
            for (field, value) in fields {
                let spelled = format!("{key}.{field}");
                match canonical(&spelled, style).as_ref() {
                    FRECENCY_PATH => match value {
                        Value::Null => {}
                        Value::String(path) if !path.is_empty() => frecency.path = Some(PathBuf::from(path)),
                        other => return Err(rejected(OPERATION, &spelled, style, PATH_ACCEPTS, other)),
                    },
                    FRECENCY_PROFILE if value.is_null() => {}
                    FRECENCY_PROFILE => {
                        frecency.profile = FrecencyProfile::accept(value).ok_or_else(|| {
                            rejected(OPERATION, &spelled, style, &FrecencyProfile::accepts(), value)
                        })?;
                    }
                    _ => return Err(unknown(OPERATION, &spelled, &[FRECENCY_PATH, FRECENCY_PROFILE], style)),
                }
            }
            Ok(Some(frecency))
        }
        other => Err(rejected(OPERATION, key, style, FRECENCY_ACCEPTS, other)),
    }
}

/// Option `thesaurus`.
fn thesaurus(key: &str, value: &Value, style: KeyStyle) -> Result<Option<ThesaurusSource>> {
    match value {
        Value::Null => Ok(None),
        Value::String(path) if !path.is_empty() => Ok(Some(ThesaurusSource::File(PathBuf::from(path)))),
        Value::Object(_) => match Thesaurus::from_value(value) {
            Ok(thesaurus) => Ok(Some(ThesaurusSource::Mapping(thesaurus))),
            Err(error) => {
                let message = format!("{} option `{key}`: {}", style.spell(OPERATION), error.message());
                Err(Error::invalid_option(key, message))
            }
        },
        other => Err(rejected(OPERATION, key, style, THESAURUS_ACCEPTS, other)),
    }
}

/// Option `boost_weight` or `max_boost`: `None` for `null`.
fn weight(key: &str, value: &Value, style: KeyStyle) -> Result<Option<u32>> {
    if value.is_null() {
        return Ok(None);
    }
    match value.as_u64().and_then(|weight| u32::try_from(weight).ok()) {
        Some(weight) => Ok(Some(weight)),
        None => Err(rejected(OPERATION, key, style, WEIGHT_ACCEPTS, value)),
    }
}

/// The error for option `key`, given without option `other` (snake_case) that it needs.
fn needs(key: &str, other: &str, style: KeyStyle) -> Error {
    let message = format!("{} option `{key}` needs option `{}`", style.spell(OPERATION), style.spell(other));
    Error::invalid_option(key, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use serde_json::json;

    fn parse(value: Value, style: KeyStyle) -> Result<SandboxOptions> {
        match value {
            Value::Object(options) => SandboxOptions::from_options(&options, style),
            _ => unreachable!("tests pass objects"),
        }
    }

    #[test]
    fn frecency_forms() {
        let path = |p: &str| Some(PathBuf::from(p));
        let cases = [
            (json!({"frecency": true}), Some(FrecencyOptions::default())),
            (json!({"frecency": false}), None),
            (json!({"frecency": null}), None),
            (json!({"frecency": "/db"}), Some(FrecencyOptions { path: path("/db"), ..Default::default() })),
            (
                json!({"frecency": {"path": "/db", "profile": "ai"}}),
                Some(FrecencyOptions { path: path("/db"), profile: FrecencyProfile::Ai }),
            ),
            (
                json!({"frecency": {"profile": "ai", "path": null}}),
                Some(FrecencyOptions { path: None, profile: FrecencyProfile::Ai }),
            ),
        ];
        for (given, expected) in cases {
            assert_eq!(parse(given.clone(), KeyStyle::SnakeCase).unwrap().frecency, expected, "{given}");
        }
    }

    #[test]
    fn thesaurus_and_weights() {
        let options =
            parse(json!({"thesaurus": "kg.json", "boost_weight": 2, "max_boost": 0}), KeyStyle::SnakeCase);
        let options = options.unwrap();
        assert!(
            matches!(options.thesaurus, Some(ThesaurusSource::File(ref p)) if p == &PathBuf::from("kg.json"))
        );
        assert_eq!((options.boost_weight, options.max_boost), (2, 0));
        let mapping = json!({"thesaurus": {"name": "kg", "data": {"auth": {"id": 1, "nterm": "auth"}}}});
        let options = parse(mapping, KeyStyle::CamelCase).unwrap();
        assert!(matches!(options.thesaurus, Some(ThesaurusSource::Mapping(ref t)) if t.terms() == 1));
        let defaults = parse(json!({"thesaurus": {}, "boostWeight": null}), KeyStyle::CamelCase).unwrap();
        assert_eq!((defaults.boost_weight, defaults.max_boost), (5, 30));
    }

    #[test]
    fn messages_name_the_option_as_the_caller_spelled_it() {
        let cases = [
            (
                json!({"frecency": 3}),
                KeyStyle::SnakeCase,
                "frecency",
                "Sandbox option `frecency` must be a boolean, a path string or an object with `path` and `profile`, not 3",
            ),
            (
                json!({"frecency": {"profile": "fast"}}),
                KeyStyle::SnakeCase,
                "frecency.profile",
                "Sandbox option `frecency.profile` must be \"normal\" or \"ai\", not \"fast\"",
            ),
            (
                json!({"frecency": {"path": ""}}),
                KeyStyle::CamelCase,
                "frecency.path",
                "Sandbox option `frecency.path` must be a non-empty string, not \"\"",
            ),
            (
                json!({"frecency": {"paht": "/db"}}),
                KeyStyle::SnakeCase,
                "frecency.paht",
                "unknown Sandbox option `frecency.paht` (did you mean `frecency.path`?)",
            ),
            (
                json!({"recordHits": true}),
                KeyStyle::CamelCase,
                "recordHits",
                "Sandbox option `recordHits` needs option `frecency`",
            ),
            (
                json!({"record_hits": "yes", "frecency": true}),
                KeyStyle::SnakeCase,
                "record_hits",
                "Sandbox option `record_hits` must be a boolean, not \"yes\"",
            ),
            (
                json!({"maxBoost": 3}),
                KeyStyle::CamelCase,
                "maxBoost",
                "Sandbox option `maxBoost` needs option `thesaurus`",
            ),
            (
                json!({"thesaurus": {}, "boost_weight": -1}),
                KeyStyle::SnakeCase,
                "boost_weight",
                "Sandbox option `boost_weight` must be an integer from 0 to 4294967295, not -1",
            ),
            (
                json!({"thesaurus": {"auth": 1}}),
                KeyStyle::SnakeCase,
                "thesaurus",
                "Sandbox option `thesaurus`: thesaurus term \"auth\" must map to a concept string, not 1",
            ),
            (
                json!({"thesaurus": ["auth"]}),
                KeyStyle::SnakeCase,
                "thesaurus",
                "Sandbox option `thesaurus` must be a path string or an object mapping terms to concepts, not a list",
            ),
            (
                json!({"thesarus": "kg.json"}),
                KeyStyle::SnakeCase,
                "thesarus",
                "unknown Sandbox option `thesarus` (did you mean `thesaurus`?)",
            ),
        ];
        for (given, style, option, message) in cases {
            let error = parse(given.clone(), style).unwrap_err();
            assert_eq!(error.code(), ErrorCode::InvalidOption, "{given}");
            assert_eq!((error.option(), error.message()), (Some(option), message), "{given}");
        }
    }

    #[test]
    fn unconvertible_values_say_what_each_option_accepts() {
        let error =
            crate::host::unconvertible(OptionsOf::Sandbox, "maxBoost", KeyStyle::CamelCase, "a float");
        assert_eq!(
            error.message(),
            "Sandbox option `maxBoost` must be an integer from 0 to 4294967295, not a float"
        );
        let error =
            crate::host::unconvertible(OptionsOf::Sandbox, "frecency.profile", KeyStyle::SnakeCase, "a set");
        assert_eq!(
            error.message(),
            "Sandbox option `frecency.profile` must be \"normal\" or \"ai\", not a set"
        );
    }
}
