//! The one key-naming rule between JavaScript (camelCase) and the core's serde (snake_case).
//!
//! `camel_to_snake` puts `_` before each ASCII upper-case letter and lowers it;
//! `snake_to_camel` drops each `_` and raises the letter after it. They are inverse on every
//! snake_case name the core uses, so options go in and results come out through the same rule.

use std::borrow::Cow;
use std::convert::Infallible;

use napi_derive::napi;

/// `maxDepth` → `max_depth`. Borrows when there is nothing to change.
pub fn camel_to_snake(key: &str) -> Cow<'_, str> {
    if !key.bytes().any(|b| b.is_ascii_uppercase()) {
        return Cow::Borrowed(key);
    }
    let mut snake = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            snake.push('_');
            snake.push(c.to_ascii_lowercase());
        } else {
            snake.push(c);
        }
    }
    Cow::Owned(snake)
}

/// `max_depth` → `maxDepth`. Borrows when there is nothing to change.
pub fn snake_to_camel(key: &str) -> Cow<'_, str> {
    if !key.contains('_') {
        return Cow::Borrowed(key);
    }
    let mut camel = String::with_capacity(key.len());
    let Ok(()) = write_camel(key, |piece| -> Result<(), Infallible> {
        camel.push_str(piece);
        Ok(())
    });
    Cow::Owned(camel)
}

/// [`snake_to_camel`] as a stream of pieces passed to `write`, allocating nothing (results
/// are serialized with it, once per key).
pub fn write_camel<E>(key: &str, mut write: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let mut pieces = key.split('_');
    if let Some(first) = pieces.next() {
        write(first)?;
    }
    for piece in pieces {
        match piece.as_bytes().first() {
            Some(&initial) if initial.is_ascii_lowercase() => {
                write(char::from(initial.to_ascii_uppercase()).encode_utf8(&mut [0; 4]))?;
                write(&piece[1..])?;
            }
            _ => write(piece)?,
        }
    }
    Ok(())
}

/// `snake_to_camel` for JavaScript, so tests convert names with the binding's own rule.
#[napi(js_name = "snakeToCamel")]
pub fn snake_to_camel_js(key: String) -> String {
    snake_to_camel(&key).into_owned()
}

/// `camel_to_snake` for JavaScript, so tests convert names with the binding's own rule.
#[napi(js_name = "camelToSnake")]
pub fn camel_to_snake_js(key: String) -> String {
    camel_to_snake(&key).into_owned()
}
