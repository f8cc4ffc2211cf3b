//! The thread that reloads a thesaurus file: the OS's watcher on the file's directory (so a
//! file replaced by a rename is seen as well as one written in place), a 500 ms debounce,
//! and a wake-up that stops it.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{Error, ErrorCode, Result};
use crate::sys::{self, AsHandle, Event, Wake, Watcher};

/// How long the file must stay unchanged before it is read again.
pub const RELOAD_DEBOUNCE: Duration = Duration::from_millis(500);

/// The reloading thread; dropping it stops the thread and waits for it.
#[derive(Debug)]
pub(super) struct Reloader {
    wake: Arc<Wake>,
    thread: Option<JoinHandle<()>>,
}

impl Reloader {
    /// Starts watching `path` (absolute): `reload` is called once the file has settled after
    /// a change, `stopped` when the watch ends by itself (its directory gone, say).
    pub fn start(
        path: &Path,
        reload: impl Fn() + Send + 'static,
        stopped: impl Fn(Error) + Send + 'static,
    ) -> Result<Reloader> {
        let dir = path.parent().unwrap_or(Path::new("/"));
        let name = path.file_name().unwrap_or_default().to_os_string();
        let failed = |e: std::io::Error| Error::from_io(&e, dir);
        let mut watcher = Watcher::new().map_err(failed)?;
        let handle = sys::open_dir(dir).map_err(failed)?;
        if !watcher.watch(handle.handle(), dir, (0, Box::default())) {
            return Err(Error::new(
                ErrorCode::Io,
                format!("{}: cannot be watched for changes", dir.display()),
            ));
        }
        let wake = Arc::new(Wake::new().map_err(failed)?);
        let woken = Arc::clone(&wake);
        let thread = std::thread::Builder::new()
            .name("fsnative-thesaurus".to_owned())
            .spawn(move || {
                if let Some(error) = watch(&mut watcher, &woken, &name, &reload) {
                    stopped(error);
                }
            })
            .map_err(|e| Error::new(ErrorCode::Io, format!("cannot start the thesaurus watcher: {e}")))?;
        Ok(Reloader { wake, thread: Some(thread) })
    }
}

impl Drop for Reloader {
    fn drop(&mut self) {
        self.wake.wake();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the pending events say.
#[derive(PartialEq)]
enum Seen {
    Nothing,
    /// The file (or what its name leads to) may have changed.
    Changed,
    /// The directory is gone: nothing more can be seen.
    Gone,
}

/// The thread: waits for events, and reloads once the file has been quiet for
/// [`RELOAD_DEBOUNCE`]; returns when woken through `wake`, or with why it cannot go on.
fn watch(watcher: &mut Watcher, wake: &Wake, name: &OsString, reload: &dyn Fn()) -> Option<Error> {
    let mut due: Option<Instant> = None;
    loop {
        let timeout = due.map(|due| due.saturating_duration_since(Instant::now()));
        match sys::wait([watcher.handle(), wake.handle()], timeout) {
            Ok([_, true]) => return None,
            Ok(_) => {}
            Err(error) => {
                return Some(Error::new(ErrorCode::Io, format!("the thesaurus watcher stopped: {error}")));
            }
        }
        match drain(watcher, name.as_encoded_bytes()) {
            Seen::Changed => due = Some(Instant::now() + RELOAD_DEBOUNCE),
            Seen::Gone => {
                let message = "the thesaurus's directory was removed or moved; it is no longer watched";
                return Some(Error::new(ErrorCode::NotFound, message));
            }
            Seen::Nothing => {}
        }
        if due.is_some_and(|due| Instant::now() >= due) {
            due = None;
            reload();
        }
    }
}

/// Reads every pending event; what they say about the file named `name`.
fn drain(watcher: &mut Watcher, name: &[u8]) -> Seen {
    let mut seen = Seen::Nothing;
    watcher.drain(&mut |event| {
        let now = match event {
            Event::Gone(_) => Seen::Gone,
            Event::Entry { name: changed, .. } if changed == name => Seen::Changed,
            Event::Entry { .. } => Seen::Nothing,
            Event::Rescan(_) | Event::Overflow => Seen::Changed,
        };
        if seen != Seen::Gone && now != Seen::Nothing {
            seen = now;
        }
    });
    seen
}
