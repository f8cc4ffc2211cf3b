//! One call into the core, run on one of the core's helper threads (async methods, see
//! [`CoreCall::start`]) or in place (the `*Sync` methods). Either way it runs under
//! [`fsnative::host::catch_panic`] and yields the [`Answer`] JavaScript takes apart: a grep result
//! packed for transfer, or the camelCase JSON of the other results. On a helper thread the
//! answer is made there, too; the JavaScript thread only wraps it in JavaScript values.

use std::sync::Arc;

use base64::Engine as _;
use fsnative::options::Options;
use fsnative::render::fff::tools::{self, FffTool};
use fsnative::render::{self, FindFormat, Format};
use fsnative::{
    CancelToken, FindRequest, FindStats, GlobRequest, GrepRequest, GrepStats, Sandbox, Truncation,
};
use napi::bindgen_prelude::{Object, ToNapiValue, TypeName};
use napi::{sys, Env, ValueType};
use serde::Serialize;

use crate::errors::to_js;
use crate::output::{camel_case_json, glob_json};
use crate::transfer::GrepTransfer;

/// `grepText`'s answer: ripgrep's output, and what a caller needs to know about its page.
#[derive(Serialize)]
struct RenderedGrep<'a> {
    text: RenderedText,
    truncated: Option<Truncation>,
    next_cursor: Option<&'a str>,
    total_matches: u64,
    stats: &'a GrepStats,
}

/// `findText`'s answer: the rendered text, and what a caller needs to know about the result.
#[derive(Serialize)]
struct RenderedFind<'a> {
    text: String,
    truncated: Option<Truncation>,
    total: u64,
    stats: &'a FindStats,
}

/// ripgrep's output as a string (bytes that are not UTF-8 read as U+FFFD), or its exact bytes
/// as `{ "bytes": base64 }`, the form non-UTF-8 paths take too.
#[derive(Serialize)]
#[serde(untagged)]
enum RenderedText {
    Text(String),
    Bytes { bytes: String },
}

/// What a call does.
pub enum Operation {
    /// `grep`: the result packed for transfer.
    Grep(GrepRequest),
    /// The result as camelCase JSON: what the packed result must decode to.
    GrepJson(GrepRequest),
    /// `grepText`: the result rendered as ripgrep prints it (as bytes when the flag is set),
    /// with its truncation and cursor.
    GrepText(GrepRequest, Format, bool),
    /// `glob`: the result as JSON (in columns, see [`glob_json`]).
    Glob(GlobRequest),
    /// `find`: the result as camelCase JSON.
    Find(FindRequest),
    /// `findText`: the result rendered in a format, with its total and truncation.
    FindText(FindRequest, FindFormat),
    /// `fffTool`: one call of an FFF drop-in tool with Terraphim's arguments; its text.
    FffTool(FffTool, Options),
}

/// An operation bound to its sandbox and cancel token.
pub struct CoreCall {
    /// The sandbox the call searches, shared with its JavaScript object.
    pub sandbox: Arc<Sandbox>,
    /// What to do.
    pub operation: Operation,
    /// Stops the call when its `AbortSignal` fires (a fresh token when there is none).
    pub cancel: CancelToken,
}

impl CoreCall {
    /// Runs the operation; a panic becomes an `INTERNAL` error.
    pub fn run(&self) -> fsnative::Result<Answer> {
        fsnative::host::catch_panic(|| match &self.operation {
            Operation::Grep(request) => {
                GrepTransfer::new(self.sandbox.grep_cancellable(request, &self.cancel)?).map(Answer::Grep)
            }
            Operation::GrepJson(request) => {
                camel_case_json(&self.sandbox.grep_cancellable(request, &self.cancel)?).map(Answer::Json)
            }
            Operation::GrepText(request, format, as_bytes) => {
                let result = self.sandbox.grep_cancellable(request, &self.cancel)?;
                let text = if *as_bytes {
                    let bytes = render::render_bytes(&result, format);
                    RenderedText::Bytes { bytes: base64::engine::general_purpose::STANDARD.encode(bytes) }
                } else {
                    RenderedText::Text(render::render(&result, format))
                };
                camel_case_json(&RenderedGrep {
                    text,
                    truncated: result.truncated,
                    next_cursor: result.next_cursor.as_deref(),
                    total_matches: result.total_matches,
                    stats: &result.stats,
                })
                .map(Answer::Json)
            }
            Operation::Glob(request) => {
                glob_json(&self.sandbox.glob_cancellable(request, &self.cancel)?).map(Answer::Json)
            }
            Operation::Find(request) => {
                camel_case_json(&self.sandbox.find_cancellable(request, &self.cancel)?).map(Answer::Json)
            }
            Operation::FindText(request, format) => {
                let result = self.sandbox.find_cancellable(request, &self.cancel)?;
                camel_case_json(&RenderedFind {
                    text: render::render_find(&result, format),
                    truncated: result.truncated,
                    total: result.total,
                    stats: &result.stats,
                })
                .map(Answer::Json)
            }
            Operation::FffTool(tool, arguments) => {
                camel_case_json(&tools::run(&self.sandbox, *tool, arguments, &self.cancel)?).map(Answer::Json)
            }
        })
    }

    /// Runs the call on a helper thread ([`fsnative::host::run_in_background`]: not on libuv's
    /// pool, whose threads take calls in turn and so each start cold); the promise resolves
    /// with the answer or rejects with the coded error, back on the JavaScript thread, which
    /// keeps turning meanwhile.
    pub fn start(self, env: &Env) -> napi::Result<Object<'_>> {
        let (deferred, promise) = env.create_deferred()?;
        fsnative::host::run_in_background(move || {
            let output = self.run();
            deferred.resolve(move |env| output.map_err(|err| to_js(&env, &err)));
        });
        Ok(promise)
    }
}

/// What a call gives JavaScript.
pub enum Answer {
    /// A grep result, packed (see [`GrepTransfer`]).
    Grep(GrepTransfer),
    /// The camelCase JSON of a result.
    Json(String),
}

impl TypeName for Answer {
    fn type_name() -> &'static str {
        "Answer"
    }

    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

impl ToNapiValue for Answer {
    unsafe fn to_napi_value(env: sys::napi_env, answer: Self) -> napi::Result<sys::napi_value> {
        match answer {
            Answer::Grep(transfer) => GrepTransfer::to_napi_value(env, transfer),
            Answer::Json(json) => String::to_napi_value(env, json),
        }
    }
}
