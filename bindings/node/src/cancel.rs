//! The native side of `signal`: a token the JavaScript package cancels when its
//! `AbortSignal` fires, read by the core between files and lines of a running call.

use napi_derive::napi;

/// A cancel flag shared with the calls it was passed to.
#[napi]
#[derive(Default)]
pub struct CancelToken {
    token: fsnative::CancelToken,
}

#[napi]
impl CancelToken {
    /// A token that has not been cancelled.
    #[napi(constructor)]
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Asks every call holding this token to stop as soon as it can.
    #[napi]
    pub fn cancel(&self) {
        self.token.cancel();
    }

    /// The core's token, for a call to share.
    pub fn core(&self) -> fsnative::CancelToken {
        self.token.clone()
    }
}
