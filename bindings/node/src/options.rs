//! Options arrive as the JSON text of a camelCase JavaScript object; their keys are renamed
//! with the one naming rule and the core's serde types (`deny_unknown_fields`) check them.
//! Any problem becomes an [`INVALID_OPTION`](crate::errors::INVALID_OPTION) error, which
//! JavaScript throws as a `TypeError` naming the option as the caller spelled it. Parsing runs
//! under `fsnative::catch_panic`, like every other step of an entry point.

use fsnative::render::Format;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::errors::{guarded, invalid_option, Result};
use crate::keys::{camel_to_snake, snake_to_camel};

/// Why options cannot be used, naming the option in camelCase.
type Problem = String;

/// Parses the JSON text of the options of `operation` (e.g. "grep") into the core type `T`.
pub fn parse<T: DeserializeOwned>(json: &str, operation: &str) -> Result<T> {
    guarded(|| {
        snake_case_object(json, operation)
            .and_then(|options| deserialize(options, operation))
            .map_err(invalid_option)
    })
}

/// Parses the `format` argument of `grepText`: `{ format: "standard" | "json", …options }`.
/// The tag is read here rather than by serde's tagged enum so that errors in the options
/// after it still name the option.
pub fn parse_format(json: &str) -> Result<Format> {
    guarded(|| format(json).map_err(invalid_option))
}

fn format(json: &str) -> Result<Format, Problem> {
    const OPERATION: &str = "format";
    let mut options = snake_case_object(json, OPERATION)?;
    let tag = options.remove("format").unwrap_or_else(|| Value::from("standard"));
    match tag.as_str() {
        Some("standard") => Ok(Format::Standard(deserialize(options, OPERATION)?)),
        Some("json") => Ok(Format::Json(deserialize(options, OPERATION)?)),
        _ => Err(format!("format option `format`: expected `standard` or `json`, got {tag}")),
    }
}

/// The options object with its keys renamed to snake_case. A key that is not the camelCase
/// spelling of its snake_case name (`max_depth`, `Max_depth`) is refused, so each option has
/// exactly one name.
fn snake_case_object(json: &str, operation: &str) -> Result<Map<String, Value>, Problem> {
    let value: Value = serde_json::from_str(json).map_err(|err| format!("{operation} options: {err}"))?;
    let Value::Object(camel) = value else {
        return Err(format!("{operation} options must be an object"));
    };
    let mut snake = Map::with_capacity(camel.len());
    for (key, value) in camel {
        let renamed = camel_to_snake(&key).into_owned();
        if snake_to_camel(&renamed) != key {
            let hint = snake_to_camel(&key);
            return Err(format!("unknown {operation} option `{key}` (options are camelCase: `{hint}`)"));
        }
        snake.insert(renamed, value);
    }
    Ok(snake)
}

/// Deserializes snake_case options into `T`, naming the failing option in camelCase.
fn deserialize<T: DeserializeOwned>(options: Map<String, Value>, operation: &str) -> Result<T, Problem> {
    serde_path_to_error::deserialize(Value::Object(options)).map_err(|err| {
        let option = snake_to_camel(&err.path().to_string()).into_owned();
        let message = err.inner().to_string();
        // Only this message quotes option names; others quote the caller's values.
        let message =
            if message.starts_with("unknown field") { camel_case_quoted(&message) } else { message };
        if option == "." {
            format!("{operation} options: {message}")
        } else {
            format!("{operation} option `{option}`: {message}")
        }
    })
}

/// Renames every `quoted` name in serde's message with [`snake_to_camel`].
fn camel_case_quoted(message: &str) -> String {
    message
        .split('`')
        .enumerate()
        .map(|(index, part)| if index % 2 == 1 { snake_to_camel(part) } else { part.into() })
        .collect::<Vec<_>>()
        .join("`")
}
