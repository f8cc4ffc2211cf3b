//! The native `Sandbox` class that the package's JavaScript `Sandbox` wraps. Options come in
//! as JSON text (see [`crate::options`]); grep results go out packed (see
//! [`crate::transfer`]), `grepText` and glob results as JSON text (see [`crate::output`]).
//! Every step runs under `fsnative::catch_panic`: [`guarded`] for the work done here,
//! [`CoreCall::run`] for the calls into the core.

use std::sync::Arc;

use fsnative::{GlobRequest, GrepRequest, Intent, Sandbox};
use napi::bindgen_prelude::AsyncTask;
use napi_derive::napi;
use serde::Deserialize;

use crate::call::{Answer, CoreCall, Operation};
use crate::cancel::CancelToken;
use crate::errors::{from_core, guarded, Result};
use crate::options;
use crate::paths::{self, PathArg, PathValue};

/// A set of allowed roots, built once; validation and searches only read it.
#[napi(js_name = "Sandbox")]
pub struct NativeSandbox {
    sandbox: Arc<Sandbox>,
}

/// The options of `validatePath`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidateOptions {
    #[serde(default = "read_intent")]
    intent: Intent,
}

fn read_intent() -> Intent {
    Intent::Read
}

#[napi]
impl NativeSandbox {
    /// Validates and canonicalises the roots.
    #[napi(constructor)]
    pub fn new(roots: Vec<PathArg>) -> Result<Self> {
        guarded(|| {
            let roots: Vec<_> = roots.into_iter().map(paths::from_js).collect();
            let sandbox = Sandbox::new(&roots).map_err(from_core)?;
            Ok(NativeSandbox { sandbox: Arc::new(sandbox) })
        })
    }

    /// The canonical roots.
    #[napi(getter)]
    pub fn roots(&self) -> Result<Vec<PathValue>> {
        guarded(|| Ok(self.sandbox.roots().iter().map(|root| paths::to_js(root)).collect()))
    }

    /// The canonical absolute path `path` names, if the sandbox admits it.
    #[napi]
    pub fn validate_path(&self, path: PathArg, options: String) -> Result<PathValue> {
        guarded(|| {
            let ValidateOptions { intent } = options::parse(&options, "validatePath")?;
            let resolved = self.sandbox.validate(paths::from_js(path), intent).map_err(from_core)?;
            Ok(paths::to_js(&resolved))
        })
    }

    /// Content search on the thread pool; resolves with the result packed for transfer
    /// (see [`crate::transfer`]).
    #[napi]
    pub fn grep(&self, options: String, cancel: Option<&CancelToken>) -> Result<AsyncTask<CoreCall>> {
        let request: GrepRequest = options::parse(&options, "grep")?;
        Ok(AsyncTask::new(self.call(Operation::Grep(request), cancel)))
    }

    /// Content search in place; returns the result packed for transfer.
    #[napi]
    pub fn grep_sync(&self, options: String) -> Result<Answer> {
        let request: GrepRequest = options::parse(&options, "grep")?;
        self.call(Operation::Grep(request), None).run().map_err(from_core)
    }

    /// Content search in place; returns the result's camelCase JSON, which the result packed
    /// by `grepSync` must decode to: the package's tests compare the two.
    #[napi]
    pub fn grep_json_sync(&self, options: String) -> Result<Answer> {
        let request: GrepRequest = options::parse(&options, "grep")?;
        self.call(Operation::GrepJson(request), None).run().map_err(from_core)
    }

    /// Content search on the thread pool; resolves with the JSON of ripgrep's output in
    /// `format` and the page's truncation.
    #[napi]
    pub fn grep_text(
        &self,
        options: String,
        format: String,
        cancel: Option<&CancelToken>,
    ) -> Result<AsyncTask<CoreCall>> {
        let request: GrepRequest = options::parse(&options, "grep")?;
        let format = options::parse_format(&format)?;
        Ok(AsyncTask::new(self.call(Operation::GrepText(request, format), cancel)))
    }

    /// Content search in place; returns the JSON of ripgrep's output in `format` and the
    /// page's truncation.
    #[napi]
    pub fn grep_text_sync(&self, options: String, format: String) -> Result<Answer> {
        let request: GrepRequest = options::parse(&options, "grep")?;
        let format = options::parse_format(&format)?;
        self.call(Operation::GrepText(request, format), None).run().map_err(from_core)
    }

    /// File-name search on the thread pool; resolves with the result's JSON.
    #[napi]
    pub fn glob(&self, options: String, cancel: Option<&CancelToken>) -> Result<AsyncTask<CoreCall>> {
        let request: GlobRequest = options::parse(&options, "glob")?;
        Ok(AsyncTask::new(self.call(Operation::Glob(request), cancel)))
    }

    /// File-name search in place; returns the result's JSON.
    #[napi]
    pub fn glob_sync(&self, options: String) -> Result<Answer> {
        let request: GlobRequest = options::parse(&options, "glob")?;
        self.call(Operation::Glob(request), None).run().map_err(from_core)
    }
}

impl NativeSandbox {
    fn call(&self, operation: Operation, cancel: Option<&CancelToken>) -> CoreCall {
        CoreCall {
            sandbox: Arc::clone(&self.sandbox),
            operation,
            cancel: cancel.map(CancelToken::core).unwrap_or_default(),
        }
    }
}
