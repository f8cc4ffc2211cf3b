//! The native `Sandbox` class that the package's JavaScript `Sandbox` wraps. Options come in
//! as JSON text (see [`crate::options`]); grep results go out packed (see
//! [`crate::transfer`]), `grepText` and glob results as JSON text (see [`crate::output`]).
//! Every step runs under `fsnative::catch_panic`: [`guarded`] for the work done here,
//! [`CoreCall::run`] for the calls into the core.

use std::sync::Arc;

use fsnative::render::Format;
use fsnative::{GlobRequest, GrepRequest, Intent, Sandbox};
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Result};
use napi_derive::napi;

use crate::call::{Answer, CoreCall, Operation};
use crate::cancel::CancelToken;
use crate::errors::guarded;
use crate::options::build;
use crate::paths::{self, PathArg, PathValue};

/// A set of allowed roots, built once; validation and searches only read it.
#[napi(js_name = "Sandbox")]
pub struct NativeSandbox {
    sandbox: Arc<Sandbox>,
}

#[napi]
impl NativeSandbox {
    /// Validates and canonicalises the roots.
    #[napi(constructor)]
    pub fn new(env: Env, roots: Vec<PathArg>) -> Result<Self> {
        let roots: Vec<_> = roots.into_iter().map(paths::from_js).collect();
        guarded(&env, || Ok(NativeSandbox { sandbox: Arc::new(Sandbox::new(&roots)?) }))
    }

    /// The canonical roots.
    #[napi(getter)]
    pub fn roots(&self, env: Env) -> Result<Vec<PathValue>> {
        guarded(&env, || Ok(self.sandbox.roots().iter().map(|root| paths::to_js(root)).collect()))
    }

    /// The canonical absolute path `path` names, if the sandbox admits it.
    #[napi]
    pub fn validate_path(&self, env: Env, path: PathArg, options: String) -> Result<PathValue> {
        guarded(&env, || {
            let intent = build(&options, Intent::from_options)?;
            Ok(paths::to_js(&self.sandbox.validate(paths::from_js(path), intent)?))
        })
    }

    /// Content search on the thread pool; resolves with the result packed for transfer
    /// (see [`crate::transfer`]).
    #[napi]
    pub fn grep(
        &self,
        env: Env,
        options: String,
        cancel: Option<&CancelToken>,
    ) -> Result<AsyncTask<CoreCall>> {
        let request = guarded(&env, || build(&options, GrepRequest::from_options))?;
        Ok(AsyncTask::new(self.call(Operation::Grep(request), cancel)))
    }

    /// Content search in place; returns the result packed for transfer.
    #[napi]
    pub fn grep_sync(&self, env: Env, options: String) -> Result<Answer> {
        guarded(&env, || self.call(Operation::Grep(build(&options, GrepRequest::from_options)?), None).run())
    }

    /// Content search in place; returns the result's camelCase JSON, which the result packed
    /// by `grepSync` must decode to: the package's tests compare the two.
    #[napi]
    pub fn grep_json_sync(&self, env: Env, options: String) -> Result<Answer> {
        guarded(&env, || {
            self.call(Operation::GrepJson(build(&options, GrepRequest::from_options)?), None).run()
        })
    }

    /// Content search on the thread pool; resolves with the JSON of ripgrep's output in
    /// `format` (its bytes, base64, when `as_bytes`) and the page's truncation.
    #[napi]
    pub fn grep_text(
        &self,
        env: Env,
        options: String,
        format: String,
        as_bytes: bool,
        cancel: Option<&CancelToken>,
    ) -> Result<AsyncTask<CoreCall>> {
        let operation = guarded(&env, || grep_text(&options, &format, as_bytes))?;
        Ok(AsyncTask::new(self.call(operation, cancel)))
    }

    /// Content search in place; returns the JSON of ripgrep's output in `format` (its bytes,
    /// base64, when `as_bytes`) and the page's truncation.
    #[napi]
    pub fn grep_text_sync(
        &self,
        env: Env,
        options: String,
        format: String,
        as_bytes: bool,
    ) -> Result<Answer> {
        guarded(&env, || self.call(grep_text(&options, &format, as_bytes)?, None).run())
    }

    /// File-name search on the thread pool; resolves with the result's JSON.
    #[napi]
    pub fn glob(
        &self,
        env: Env,
        options: String,
        cancel: Option<&CancelToken>,
    ) -> Result<AsyncTask<CoreCall>> {
        let request = guarded(&env, || build(&options, GlobRequest::from_options))?;
        Ok(AsyncTask::new(self.call(Operation::Glob(request), cancel)))
    }

    /// File-name search in place; returns the result's JSON.
    #[napi]
    pub fn glob_sync(&self, env: Env, options: String) -> Result<Answer> {
        guarded(&env, || self.call(Operation::Glob(build(&options, GlobRequest::from_options)?), None).run())
    }
}

/// `grepText`'s operation: the request, the render format, and whether the text crosses as bytes.
fn grep_text(options: &str, format: &str, as_bytes: bool) -> fsnative::Result<Operation> {
    Ok(Operation::GrepText(
        build(options, GrepRequest::from_options)?,
        build(format, Format::from_options)?,
        as_bytes,
    ))
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
