//! The one error type of fsnative, with stable string codes.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong, as a stable code that every binding exposes unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The path resolves outside every allowed root.
    OutsideSandbox,
    /// The path (or a root) does not exist.
    NotFound,
    /// A directory was required (a root, or a path component) but something else was found.
    NotADirectory,
    /// The path is malformed: empty, contains NUL, or is too long for the system.
    InvalidPath,
    /// Resolving the path followed too many symlinks, or a symlink loop.
    SymlinkLoop,
    /// The operating system refused access while resolving or reading.
    PermissionDenied,
    /// A search pattern does not parse.
    InvalidPattern,
    /// A search pattern exceeds the size, nesting or length limits.
    PatternTooLarge,
    /// A glob (include/exclude filter or glob pattern) does not parse.
    InvalidGlob,
    /// A pagination cursor is malformed or belongs to another request.
    InvalidCursor,
    /// An argument has a value that cannot be used (no pattern, an unknown file type, …).
    InvalidArgument,
    /// An option is unknown, or its value has the wrong type or is out of range; the message
    /// names the option and says what it accepts, and [`Error::option`] names it (the
    /// `options` module checks options).
    InvalidOption,
    /// Any other I/O failure.
    Io,
    /// An internal failure (a panic caught at a boundary). Always a bug.
    Internal,
}

impl ErrorCode {
    /// The stable string form, e.g. `"OUTSIDE_SANDBOX"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::OutsideSandbox => "OUTSIDE_SANDBOX",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::NotADirectory => "NOT_A_DIRECTORY",
            ErrorCode::InvalidPath => "INVALID_PATH",
            ErrorCode::SymlinkLoop => "SYMLINK_LOOP",
            ErrorCode::PermissionDenied => "PERMISSION_DENIED",
            ErrorCode::InvalidPattern => "INVALID_PATTERN",
            ErrorCode::PatternTooLarge => "PATTERN_TOO_LARGE",
            ErrorCode::InvalidGlob => "INVALID_GLOB",
            ErrorCode::InvalidCursor => "INVALID_CURSOR",
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::InvalidOption => "INVALID_OPTION",
            ErrorCode::Io => "IO",
            ErrorCode::Internal => "INTERNAL",
        }
    }

    /// Every code, for bindings that build one exception class per code.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::OutsideSandbox,
        ErrorCode::NotFound,
        ErrorCode::NotADirectory,
        ErrorCode::InvalidPath,
        ErrorCode::SymlinkLoop,
        ErrorCode::PermissionDenied,
        ErrorCode::InvalidPattern,
        ErrorCode::PatternTooLarge,
        ErrorCode::InvalidGlob,
        ErrorCode::InvalidCursor,
        ErrorCode::InvalidArgument,
        ErrorCode::InvalidOption,
        ErrorCode::Io,
        ErrorCode::Internal,
    ];
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An fsnative error: a stable [`ErrorCode`] and a message a person can act on, with the
/// option or the path it is about when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    message: String,
    option: Option<String>,
    path: Option<PathBuf>,
}

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Builds an error from a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error { code, message: message.into(), option: None, path: None }
    }

    /// This error, about the file or directory at `path` (the path its message names).
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Error {
        self.path = Some(path.into());
        self
    }

    /// This error, about the option named `option` (as the caller spelled it).
    pub fn with_option(mut self, option: impl Into<String>) -> Error {
        self.option = Some(option.into());
        self
    }

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The option the error is about, as the caller spelled it (always set for
    /// [`ErrorCode::InvalidOption`]).
    pub fn option(&self) -> Option<&str> {
        self.option.as_deref()
    }

    /// The path the error is about, as its message names it: set for errors about a file or
    /// a path (`NOT_FOUND`, `NOT_A_DIRECTORY`, `PERMISSION_DENIED`, `SYMLINK_LOOP`, `IO`,
    /// `INVALID_PATH`). An `OUTSIDE_SANDBOX` error carries only the path the caller gave,
    /// never one learned by resolving it.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Maps an I/O error met on `path` to the matching code.
    pub(crate) fn from_io(err: &std::io::Error, path: &Path) -> Error {
        use std::io::ErrorKind as K;
        let shown = path.display();
        let code = match err.kind() {
            K::NotFound => ErrorCode::NotFound,
            K::PermissionDenied => ErrorCode::PermissionDenied,
            K::NotADirectory => ErrorCode::NotADirectory,
            K::InvalidFilename => ErrorCode::InvalidPath,
            _ => match crate::sys::OsError::of(err) {
                Some(crate::sys::OsError::Loop) => ErrorCode::SymlinkLoop,
                Some(crate::sys::OsError::NameTooLong) => ErrorCode::InvalidPath,
                _ => ErrorCode::Io,
            },
        };
        Error::new(code, format!("{shown}: {err}")).with_path(path)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

/// Runs `work`, turning a panic inside it into an [`ErrorCode::Internal`] error, so that no
/// panic crosses into a host language. Bindings wrap every call into the core with it.
pub fn catch_panic<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .unwrap_or_else(|payload| Err(panic_error(&*payload)))
}

/// The [`ErrorCode::Internal`] error for a caught panic's payload. Not generic, so that the
/// bindings' many instances of [`catch_panic`] share it.
#[cold]
fn panic_error(payload: &(dyn std::any::Any + Send)) -> Error {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    Error::new(ErrorCode::Internal, format!("internal error (a bug in fsnative, please report it): {what}"))
}
