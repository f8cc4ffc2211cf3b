//! What a binding needs to turn its host's values into [`Options`](super::Options), re-exported
//! for the bindings by the crate's hidden `host` module: which call's options it converts ([`OptionsOf`]), how
//! deep it may walk a value, the two key spellings, and the complaint about a value with no
//! JSON form ([`unconvertible`]).

use std::borrow::Cow;

use super::{canonical, sandbox, Accept, FromOptions, KeyStyle, FORMATS};
use crate::error::Error;
use crate::render::fff::{FffFindOptions, FffGrepOptions};
use crate::render::StandardOptions;
use crate::request::{FindRequest, GlobRequest, GrepRequest};
use crate::roots::Intent;

/// The call whose options a binding converts; complaints name it ([`OptionsOf::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionsOf {
    /// A sandbox's construction ([`SandboxOptions`](crate::SandboxOptions)).
    Sandbox,
    /// A path validation ([`Intent`]).
    Validate,
    /// A content search ([`GrepRequest`]).
    Grep,
    /// A file-name search ([`GlobRequest`]).
    Glob,
    /// A fuzzy path search ([`FindRequest`]).
    Find,
    /// The rendering of a grep result ([`Format`](crate::render::Format)).
    Render,
    /// The rendering of a find result ([`FindFormat`](crate::render::FindFormat)).
    RenderFind,
    /// A call of one of the FFF drop-in's tools
    /// ([`fff::tools`](crate::render::fff::tools)), whose arguments are Terraphim's.
    FffTool,
}

impl OptionsOf {
    /// Every call, for a binding that exports the list to its host language.
    pub const ALL: [OptionsOf; 8] = [
        OptionsOf::Sandbox,
        OptionsOf::Validate,
        OptionsOf::Grep,
        OptionsOf::Glob,
        OptionsOf::Find,
        OptionsOf::Render,
        OptionsOf::RenderFind,
        OptionsOf::FffTool,
    ];

    /// The call's name in complaints, snake_case (a binding spells it in its [`KeyStyle`]).
    pub const fn name(self) -> &'static str {
        match self {
            OptionsOf::Sandbox => "Sandbox",
            OptionsOf::Validate => "validate",
            OptionsOf::Grep => "grep",
            OptionsOf::Glob => "glob",
            OptionsOf::Find => "find",
            OptionsOf::Render => "render",
            OptionsOf::RenderFind => "render_find",
            OptionsOf::FffTool => "fff_tool",
        }
    }

    /// The call named `name` ([`OptionsOf::name`]).
    pub fn from_name(name: &str) -> Option<OptionsOf> {
        OptionsOf::ALL.into_iter().find(|of| of.name() == name)
    }
}

/// How deep lists and objects may nest in a value a binding converts (no option takes more
/// than a list of strings or an object of scalars). Bindings that walk host values stop here,
/// so a list that contains itself cannot recurse until the stack overflows.
pub const MAX_VALUE_DEPTH: usize = 16;

/// `max_depth` → `maxDepth`: each `_` dropped and the letter after it raised.
pub fn snake_to_camel(name: &str) -> Cow<'_, str> {
    if !name.contains('_') {
        return Cow::Borrowed(name);
    }
    let mut camel = String::with_capacity(name.len());
    for (index, piece) in name.split('_').enumerate() {
        let mut chars = piece.chars();
        match chars.next() {
            Some(first) if index > 0 => {
                camel.push(first.to_ascii_uppercase());
                camel.push_str(chars.as_str());
            }
            _ => camel.push_str(piece),
        }
    }
    Cow::Owned(camel)
}

/// `maxDepth` → `max_depth`: `_` before each ASCII upper-case letter, which is lowered.
pub fn camel_to_snake(name: &str) -> Cow<'_, str> {
    if !name.bytes().any(|b| b.is_ascii_uppercase()) {
        return Cow::Borrowed(name);
    }
    let mut snake = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            snake.push('_');
            snake.push(c.to_ascii_lowercase());
        } else {
            snake.push(c);
        }
    }
    Cow::Owned(snake)
}

/// An [`ErrorCode::InvalidOption`](crate::ErrorCode::InvalidOption) error for a value a
/// binding could not convert to JSON at all (a Python `set`, an integer beyond 64 bits, a
/// string that is not UTF-8): it names the option and says what it accepts, like every other
/// complaint. `got` describes the value in the caller's words.
pub fn unconvertible(of: OptionsOf, key: &str, style: KeyStyle, got: &str) -> Error {
    let name = canonical(key, style);
    let accepts = match of {
        OptionsOf::Grep => GrepRequest::field(&name).map(|field| (field.accepts)()),
        OptionsOf::Glob => GlobRequest::field(&name).map(|field| (field.accepts)()),
        OptionsOf::Find => FindRequest::field(&name).map(|field| (field.accepts)()),
        OptionsOf::Render if name == "format" => Some(Cow::Borrowed(FORMATS)),
        OptionsOf::Render => StandardOptions::field(&name)
            .map(|field| (field.accepts)())
            .or_else(|| FffGrepOptions::field(&name).map(|field| (field.accepts)())),
        OptionsOf::RenderFind => FffFindOptions::field(&name).map(|field| (field.accepts)()),
        OptionsOf::Validate if name == "intent" => Some(Intent::accepts()),
        OptionsOf::Validate => None,
        OptionsOf::Sandbox => sandbox::accepts(&name),
        OptionsOf::FffTool => None,
    };
    let operation = style.spell(of.name());
    let message = match accepts {
        Some(accepts) => format!("{operation} option `{key}` must be {accepts}, not {got}"),
        None => format!("{operation} option `{key}` cannot be {got}"),
    };
    Error::invalid_option(key, message)
}
