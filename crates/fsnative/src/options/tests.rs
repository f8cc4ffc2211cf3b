//! Tests of option parsing: defaults, aliases, messages and round trips.

use super::*;
use serde_json::json;

fn options(value: Value) -> Options {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("tests pass objects"),
    }
}

fn grep_error(value: Value, style: KeyStyle) -> Error {
    GrepRequest::from_options(&options(value), style).unwrap_err()
}

#[test]
fn defaults_and_aliases_come_from_the_core() {
    let request =
        GrepRequest::from_options(&options(json!({"pattern": "x", "path": "a"})), KeyStyle::SnakeCase);
    let expected = GrepRequest { paths: OneOrMany(vec!["a".into()]), ..GrepRequest::new("x") };
    assert_eq!(request.unwrap(), expected);
    let glob =
        GlobRequest::from_options(&options(json!({"patterns": ["*"], "limit": null})), KeyStyle::SnakeCase);
    assert_eq!(glob.unwrap().limit, None);
    let camel = options(json!({"pattern": "x", "maxDepth": 3, "caseMode": "smart", "typesNot": "py"}));
    let request = GrepRequest::from_options(&camel, KeyStyle::CamelCase).unwrap();
    assert_eq!((request.max_depth, request.case_mode), (Some(3), CaseMode::Smart));
    assert_eq!(request.types_not, OneOrMany(vec!["py".into()]));
}

#[test]
fn find_defaults_and_complaints() {
    let request = FindRequest::from_options(&options(json!({"query": "mian"})), KeyStyle::CamelCase).unwrap();
    assert_eq!(request, FindRequest::new("mian"));
    assert_eq!(request.limit, Some(crate::request::DEFAULT_FIND_LIMIT));
    let request =
        FindRequest::from_options(&options(json!({"query": "x", "limit": null})), KeyStyle::SnakeCase);
    assert_eq!(request.unwrap().limit, None);
    let error =
        FindRequest::from_options(&options(json!({"query": "x", "timeoutMs": -1})), KeyStyle::CamelCase);
    assert_eq!(
        error.unwrap_err().message(),
        "find option `timeoutMs` must be a non-negative integer, not -1"
    );
    let error = FindRequest::from_options(&options(json!({"query": "x", "paths": "a"})), KeyStyle::SnakeCase);
    assert_eq!(error.unwrap_err().message(), "unknown find option `paths` (did you mean `path`?)");
    let error = FindRequest::from_options(&options(json!({"constraints": ["*.rs"]})), KeyStyle::SnakeCase);
    assert_eq!(error.unwrap_err().message(), "find option `constraints` must be a string, not a list");
}

#[test]
fn messages_name_the_option_and_what_it_accepts() {
    let cases = [
        (json!({"limit": -1}), "grep option `limit` must be a non-negative integer, not -1"),
        (json!({"context": 1.5}), "grep option `context` must be a non-negative integer, not 1.5"),
        (json!({"hidden": "yes"}), "grep option `hidden` must be a boolean, not \"yes\""),
        (
            json!({"mode": "lines"}),
            "grep option `mode` must be \"content\", \"files\" or \"count\", not \"lines\"",
        ),
        (json!({"paths": ["a", 1]}), "grep option `paths` must be a string or a list of strings, not a list"),
        (json!({"bogus": 1}), "unknown grep option `bogus`"),
        (json!({"max_dpeth": 1}), "unknown grep option `max_dpeth` (did you mean `max_depth`?)"),
        (json!({"maxDepth": 1}), "unknown grep option `maxDepth` (did you mean `max_depth`?)"),
    ];
    for (given, message) in cases {
        let error = grep_error(given.clone(), KeyStyle::SnakeCase);
        assert_eq!((error.code(), error.message()), (ErrorCode::InvalidOption, message), "{given}");
        let key = given.as_object().and_then(|o| o.keys().next().cloned());
        assert_eq!(error.option(), key.as_deref());
    }
    let error = grep_error(json!({"max_depth": 1}), KeyStyle::CamelCase);
    assert_eq!(error.message(), "unknown grep option `max_depth` (did you mean `maxDepth`?)");
    let error = grep_error(json!({"maxDepth": -2}), KeyStyle::CamelCase);
    assert_eq!(error.message(), "grep option `maxDepth` must be a non-negative integer, not -2");
    let error = grep_error(json!({"pattern": "a", "patterns": "b"}), KeyStyle::SnakeCase);
    assert_eq!(error.message(), "grep options `pattern` and `patterns` are the same option; give one");
}

#[test]
fn render_formats_and_intents() {
    let standard = Format::from_options(&options(json!({"heading": true})), KeyStyle::SnakeCase).unwrap();
    assert_eq!(standard, Format::Standard(StandardOptions { heading: true, ..StandardOptions::default() }));
    let json = Format::from_options(
        &options(json!({"format": "json", "pathStyle": "relative"})),
        KeyStyle::CamelCase,
    );
    assert!(matches!(json, Ok(Format::Json(JsonOptions { path_style: crate::render::PathStyle::Relative }))));
    let error =
        Format::from_options(&options(json!({"format": "json", "heading": true})), KeyStyle::SnakeCase);
    assert_eq!(error.unwrap_err().message(), "render option `heading` applies to the standard format only");
    let error = Format::from_options(&options(json!({"format": "xml"})), KeyStyle::SnakeCase).unwrap_err();
    assert_eq!(
        error.message(),
        "render option `format` must be \"standard\", \"json\" or \"fff\", not \"xml\""
    );
    assert_eq!(Intent::from_options(&Options::new(), KeyStyle::SnakeCase), Ok(Intent::Read));
    assert_eq!(
        Intent::from_options(&options(json!({"intent": "write"})), KeyStyle::SnakeCase),
        Ok(Intent::Write)
    );
    let error = Intent::from_options(&options(json!({"intent": "rw"})), KeyStyle::CamelCase).unwrap_err();
    assert_eq!(error.message(), "validate option `intent` must be \"read\" or \"write\", not \"rw\"");
}

#[test]
fn every_listed_choice_parses_and_every_field_round_trips() {
    for name in ["sensitive", "insensitive", "smart"] {
        assert!(CaseMode::accept(&json!(name)).is_some());
    }
    for name in ["content", "files", "count"] {
        assert!(OutputMode::accept(&json!(name)).is_some());
    }
    let names = ["path", "mtime", "frecency", "none", "files", "dirs", "all", "absolute", "relative"];
    for name in names.into_iter().chain(["read", "write"]) {
        let parsed =
            SortOrder::accept(&json!(name)).map(|_| ()).or(EntryKind::accept(&json!(name)).map(|_| ()));
        let parsed = parsed.or(crate::render::PathStyle::accept(&json!(name)).map(|_| ()));
        assert!(parsed.or(Intent::accept(&json!(name)).map(|_| ())).is_some(), "{name}");
    }
    // Every field of the serde form is in the table, and reads back what serde reads.
    let full = GrepRequest { limit: None, ..GrepRequest::new("x") };
    let value = serde_json::to_value(&full).unwrap();
    assert_eq!(GrepRequest::from_options(&options(value), KeyStyle::SnakeCase), Ok(full));
    let full = GlobRequest { max_depth: Some(2), constraints: Some("*.rs".into()), ..GlobRequest::new("x") };
    let value = serde_json::to_value(&full).unwrap();
    assert_eq!(GlobRequest::from_options(&options(value), KeyStyle::SnakeCase), Ok(full));
    let full =
        FindRequest { path: Some("a".into()), constraints: Some("!test/".into()), ..FindRequest::new("x") };
    let value = serde_json::to_value(&full).unwrap();
    assert_eq!(FindRequest::from_options(&options(value), KeyStyle::SnakeCase), Ok(full));
}

#[test]
fn unconvertible_values_are_named_with_the_option() {
    let error = crate::host::unconvertible(OptionsOf::Grep, "globs", KeyStyle::SnakeCase, "a set");
    assert_eq!(error.message(), "grep option `globs` must be a string or a list of strings, not a set");
    assert_eq!((error.code(), error.option()), (ErrorCode::InvalidOption, Some("globs")));
}
