//! One call into the core, run on the libuv thread pool (async methods, through napi's
//! `AsyncTask`) or in place (the `*Sync` methods). Either way it runs under
//! [`fsnative::catch_panic`] and yields a result's camelCase JSON.

use std::sync::Arc;

use fsnative::render::{self, Format};
use fsnative::{CancelToken, GlobRequest, GrepRequest, GrepStats, Sandbox, Truncation};
use napi::{Env, Task};
use serde::Serialize;

use crate::errors::rejection;
use crate::output::{camel_case_json, glob_json};

/// `grepText`'s answer: ripgrep's output, and what a caller needs to know about its page.
#[derive(Serialize)]
struct RenderedGrep<'a> {
    text: String,
    truncated: Option<Truncation>,
    next_cursor: Option<&'a str>,
    total_matches: u64,
    stats: &'a GrepStats,
}

/// What a call does.
pub enum Operation {
    /// `grep`: the result as JSON.
    Grep(GrepRequest),
    /// `grepText`: the result rendered as ripgrep prints it, with its truncation and cursor.
    GrepText(GrepRequest, Format),
    /// `glob`: the result as JSON (in columns, see [`glob_json`]).
    Glob(GlobRequest),
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
    pub fn run(&self) -> fsnative::Result<String> {
        fsnative::catch_panic(|| match &self.operation {
            Operation::Grep(request) => {
                camel_case_json(&self.sandbox.grep_cancellable(request, &self.cancel)?)
            }
            Operation::GrepText(request, format) => {
                let result = self.sandbox.grep_cancellable(request, &self.cancel)?;
                camel_case_json(&RenderedGrep {
                    text: render::render(&result, format),
                    truncated: result.truncated,
                    next_cursor: result.next_cursor.as_deref(),
                    total_matches: result.total_matches,
                    stats: &result.stats,
                })
            }
            Operation::Glob(request) => glob_json(&self.sandbox.glob_cancellable(request, &self.cancel)?),
        })
    }
}

impl Task for CoreCall {
    type Output = fsnative::Result<String>;
    type JsValue = String;

    /// Runs on a libuv worker thread; the JavaScript thread keeps turning meanwhile.
    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.run())
    }

    /// Back on the JavaScript thread: resolves with the text or rejects with the coded error.
    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<String> {
        output.map_err(|err| rejection(env, err))
    }
}
