//! The native `Sandbox` class that the package's JavaScript `Sandbox` wraps. Options come in
//! as JSON text (see [`crate::options`]); grep results go out packed (see
//! [`crate::transfer`]), `grepText`, glob and find results and the index's status as JSON text
//! (see [`crate::output`]).
//! Every step runs under `fsnative::host::catch_panic`: [`guarded`] for the work done here,
//! [`CoreCall::run`] for the calls into the core.

use std::sync::Arc;
use std::time::Duration;

use fsnative::options::Options;
use fsnative::render::fff::tools::FffTool;
use fsnative::render::{FindFormat, Format};
use fsnative::{FindRequest, GlobRequest, GrepRequest, Intent, Sandbox, SandboxOptions};
use napi::bindgen_prelude::Object;
use napi::{Env, Result};
use napi_derive::napi;

use crate::call::{Answer, CoreCall, Operation};
use crate::cancel::CancelToken;
use crate::errors::{guarded, to_js};
use crate::options::build;
use crate::output::camel_case_json;
use crate::paths::{self, PathArg, PathValue};

/// A set of allowed roots, built once; validation and searches only read it.
#[napi(js_name = "Sandbox")]
pub struct NativeSandbox {
    sandbox: Arc<Sandbox>,
}

#[napi]
impl NativeSandbox {
    /// Validates and canonicalises the roots; starts a warm index, opens a frecency database
    /// and loads a thesaurus when the options (JSON; none: no options) ask for them.
    #[napi(constructor)]
    pub fn new(env: Env, roots: Vec<PathArg>, options: Option<String>) -> Result<Self> {
        let roots: Vec<_> = roots.into_iter().map(paths::from_js).collect();
        guarded(&env, || {
            let options = options.as_deref().unwrap_or("{}");
            let sandbox = Sandbox::with_options(&roots, &build(options, SandboxOptions::from_options)?)?;
            Ok(NativeSandbox { sandbox: Arc::new(sandbox) })
        })
    }

    /// The camelCase JSON of the index's status, or null without an index.
    #[napi]
    pub fn index_status(&self, env: Env) -> Result<Option<String>> {
        guarded(&env, || self.sandbox.index_status().as_ref().map(camel_case_json).transpose())
    }

    /// Resolves, from a thread of its own (a wait can be long: it holds no thread of the
    /// pool), with whether the index became ready within `timeout_ms` (none: no limit).
    #[napi(ts_return_type = "Promise<boolean>")]
    pub fn wait_for_index<'env>(&self, env: &'env Env, timeout_ms: Option<f64>) -> Result<Object<'env>> {
        let unit = Duration::from_millis(1);
        let timeout = guarded(env, || fsnative::host::wait_timeout("timeoutMs", timeout_ms, unit))?;
        let (deferred, promise) = env.create_deferred::<bool, _>()?;
        let sandbox = Arc::clone(&self.sandbox);
        let spawned = std::thread::Builder::new().name("fsnative-wait".to_owned()).spawn(move || {
            let outcome = fsnative::host::catch_panic(|| Ok(sandbox.wait_for_index(timeout)));
            deferred.resolve(move |env| outcome.map_err(|error| to_js(&env, &error)));
        });
        if let Err(error) = spawned {
            let error =
                fsnative::Error::new(fsnative::ErrorCode::Io, format!("cannot start a thread: {error}"));
            return Err(to_js(env, &error));
        }
        Ok(promise)
    }

    /// Stops the index and frees its memory; searches walk from then on.
    #[napi]
    pub fn close(&self, env: Env) -> Result<()> {
        guarded(&env, || {
            self.sandbox.close();
            Ok(())
        })
    }

    /// Records an access to `path` (validated first) in the frecency database.
    #[napi]
    pub fn record_access(&self, env: Env, path: PathArg) -> Result<()> {
        guarded(&env, || self.sandbox.record_access(paths::from_js(path)))
    }

    /// The frecency score of `path` (validated first).
    #[napi]
    pub fn frecency_score(&self, env: Env, path: PathArg) -> Result<f64> {
        guarded(&env, || self.sandbox.frecency_score(paths::from_js(path)))
    }

    /// The path boost of `path` (validated first).
    #[napi]
    pub fn path_boost(&self, env: Env, path: PathArg) -> Result<u32> {
        guarded(&env, || self.sandbox.path_boost(paths::from_js(path)))
    }

    /// The camelCase JSON of the thesaurus's status, or null without a thesaurus.
    #[napi]
    pub fn thesaurus_status(&self, env: Env) -> Result<Option<String>> {
        guarded(&env, || self.sandbox.thesaurus_status().as_ref().map(camel_case_json).transpose())
    }

    /// The camelCase JSON of the frecency database's path and profile, or null without one.
    #[napi]
    pub fn frecency_status(&self, env: Env) -> Result<Option<String>> {
        guarded(&env, || self.sandbox.frecency_status().as_ref().map(camel_case_json).transpose())
    }

    #[napi(getter)]
    pub fn roots(&self, env: Env) -> Result<Vec<PathValue>> {
        guarded(&env, || Ok(self.sandbox.roots().iter().map(|root| paths::to_js(root)).collect()))
    }

    /// The canonical absolute path `path` names, if the sandbox admits it.
    #[napi]
    pub fn validate(&self, env: Env, path: PathArg, options: String) -> Result<PathValue> {
        guarded(&env, || {
            let intent = build(&options, Intent::from_options)?;
            Ok(paths::to_js(&self.sandbox.validate(paths::from_js(path), intent)?))
        })
    }

    /// Content search on a helper thread; resolves with the result packed for transfer
    /// (see [`crate::transfer`]).
    #[napi]
    pub fn grep<'env>(
        &self,
        env: &'env Env,
        options: String,
        cancel: Option<&CancelToken>,
    ) -> Result<Object<'env>> {
        let request = guarded(env, || build(&options, GrepRequest::from_options))?;
        self.call(Operation::Grep(request), cancel).start(env)
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

    /// Content search on a helper thread; resolves with the JSON of ripgrep's output in
    /// `format` (its bytes, base64, when `as_bytes`) and the page's truncation.
    #[napi]
    pub fn grep_text<'env>(
        &self,
        env: &'env Env,
        options: String,
        format: String,
        as_bytes: bool,
        cancel: Option<&CancelToken>,
    ) -> Result<Object<'env>> {
        let operation = guarded(env, || grep_text(&options, &format, as_bytes))?;
        self.call(operation, cancel).start(env)
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

    /// File-name search on a helper thread; resolves with the result's JSON.
    #[napi]
    pub fn glob<'env>(
        &self,
        env: &'env Env,
        options: String,
        cancel: Option<&CancelToken>,
    ) -> Result<Object<'env>> {
        let request = guarded(env, || build(&options, GlobRequest::from_options))?;
        self.call(Operation::Glob(request), cancel).start(env)
    }

    /// File-name search in place; returns the result's JSON.
    #[napi]
    pub fn glob_sync(&self, env: Env, options: String) -> Result<Answer> {
        guarded(&env, || self.call(Operation::Glob(build(&options, GlobRequest::from_options)?), None).run())
    }

    /// Fuzzy path search on a helper thread; resolves with the result's JSON.
    #[napi]
    pub fn find<'env>(
        &self,
        env: &'env Env,
        options: String,
        cancel: Option<&CancelToken>,
    ) -> Result<Object<'env>> {
        let request = guarded(env, || build(&options, FindRequest::from_options))?;
        self.call(Operation::Find(request), cancel).start(env)
    }

    /// Fuzzy path search on a helper thread; resolves with the JSON of the result rendered in
    /// `format` (see `fsnative::render::FindFormat`).
    #[napi]
    pub fn find_text<'env>(
        &self,
        env: &'env Env,
        options: String,
        format: String,
        cancel: Option<&CancelToken>,
    ) -> Result<Object<'env>> {
        let operation = guarded(env, || {
            Ok(Operation::FindText(
                build(&options, FindRequest::from_options)?,
                build(&format, FindFormat::from_options)?,
            ))
        })?;
        self.call(operation, cancel).start(env)
    }

    /// One call of an FFF drop-in tool (`find_files`, `grep`, `multi_grep`) on a helper
    /// thread, with Terraphim's arguments (JSON, their own snake_case names); resolves with
    /// the JSON of its text.
    #[napi]
    pub fn fff_tool<'env>(
        &self,
        env: &'env Env,
        tool: String,
        arguments: String,
        cancel: Option<&CancelToken>,
    ) -> Result<Object<'env>> {
        let operation = guarded(env, || {
            let tool = FffTool::named(&tool)?;
            let arguments: Options = serde_json::from_str(&arguments).map_err(|err| {
                fsnative::Error::new(
                    fsnative::ErrorCode::Internal,
                    format!("arguments are not the JSON of an object: {err}"),
                )
            })?;
            Ok(Operation::FffTool(tool, arguments))
        })?;
        self.call(operation, cancel).start(env)
    }

    /// Fuzzy path search in place; returns the result's JSON.
    #[napi]
    pub fn find_sync(&self, env: Env, options: String) -> Result<Answer> {
        guarded(&env, || self.call(Operation::Find(build(&options, FindRequest::from_options)?), None).run())
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
