//! The watcher on macOS: one FSEvents stream per root, with file-level events
//! (`FileEvents | NoDefer | WatchRoot`), delivered on a dispatch queue of its own.
//!
//! CoreServices and CoreFoundation are loaded with `dlopen` when the first index starts, not
//! linked: linking them needs the macOS SDK, which a cross build from Linux cannot have, and a
//! module that never indexes then never loads them. Their functions are C functions with
//! stable signatures since macOS 10.7. Where they cannot be loaded, no watcher can be made and
//! the index says why in its status, as when inotify is missing on Linux.
//!
//! Never stale: FSEvents delivers asynchronously, so before a search the index flushes every
//! stream with `FSEventStreamFlushSync`, which hands over synchronously whatever the daemon
//! holds, and only then answers. [`Watcher::pending`] is therefore always true. What the
//! events mean is decided in [`Paths::translate`], shared with the Linux simulation.

use std::ffi::{c_char, c_void, CStr};
use std::io;
use std::path::Path;
use std::ptr::null;
use std::sync::{Arc, Mutex, OnceLock};

use crate::sys::fsevents::{PathEvent, Paths};
use crate::sys::{DirKey, Event, Handle, HandleRef};

const CORE_SERVICES: &CStr = c"/System/Library/Frameworks/CoreServices.framework/CoreServices";
const CORE_FOUNDATION: &CStr = c"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation";

/// `kFSEventStreamCreateFlag…`.
const CREATE_NO_DEFER: u32 = 0x02;
const CREATE_WATCH_ROOT: u32 = 0x04;
const CREATE_FILE_EVENTS: u32 = 0x10;
/// `kFSEventStreamEventIdSinceNow`.
const SINCE_NOW: u64 = u64::MAX;
/// `kCFStringEncodingUTF8`.
const UTF8: u32 = 0x0800_0100;
/// Seconds FSEvents may hold events to coalesce them before it delivers them unasked: the
/// index reads them between searches, and flushes before each.
const LATENCY: f64 = 0.05;

type Callback = extern "C" fn(*const c_void, *mut c_void, usize, *mut c_void, *const u32, *const u64);

/// `FSEventStreamContext`.
#[repr(C)]
struct Context {
    version: isize,
    info: *mut c_void,
    retain: *const c_void,
    release: *const c_void,
    copy_description: *const c_void,
}

/// The functions loaded from CoreServices, CoreFoundation and libdispatch.
struct Api {
    string_create: unsafe extern "C" fn(*const c_void, *const u8, isize, u32, u8) -> *const c_void,
    array_create:
        unsafe extern "C" fn(*const c_void, *const *const c_void, isize, *const c_void) -> *const c_void,
    array_callbacks: *const c_void,
    release: unsafe extern "C" fn(*const c_void),
    stream_create: unsafe extern "C" fn(
        *const c_void,
        Callback,
        *const Context,
        *const c_void,
        u64,
        f64,
        u32,
    ) -> *mut c_void,
    set_queue: unsafe extern "C" fn(*mut c_void, *mut c_void),
    start: unsafe extern "C" fn(*mut c_void) -> u8,
    flush_sync: unsafe extern "C" fn(*mut c_void),
    stop: unsafe extern "C" fn(*mut c_void),
    invalidate: unsafe extern "C" fn(*mut c_void),
    stream_release: unsafe extern "C" fn(*mut c_void),
    queue_create: unsafe extern "C" fn(*const c_char, *const c_void) -> *mut c_void,
    queue_release: unsafe extern "C" fn(*mut c_void),
}

// SAFETY: the pointers are to immutable data and functions of loaded system libraries, which
// are never unloaded.
unsafe impl Send for Api {}
unsafe impl Sync for Api {}

/// Loads the functions once per process.
fn api() -> io::Result<&'static Api> {
    static API: OnceLock<Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(|why| io::Error::other(why.clone()))
}

fn load() -> Result<Api, String> {
    // SAFETY: dlopen and dlsym take NUL-terminated names; each symbol is cast to the type its
    // header declares.
    unsafe {
        let open = |path: &CStr| {
            let handle = libc::dlopen(path.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL);
            if handle.is_null() {
                Err(format!("cannot load {}", path.to_string_lossy()))
            } else {
                Ok(handle)
            }
        };
        let services = open(CORE_SERVICES)?;
        let foundation = open(CORE_FOUNDATION)?;
        Ok(Api {
            string_create: function(foundation, c"CFStringCreateWithBytes")?,
            array_create: function(foundation, c"CFArrayCreate")?,
            array_callbacks: symbol(foundation, c"kCFTypeArrayCallBacks")?,
            release: function(foundation, c"CFRelease")?,
            stream_create: function(services, c"FSEventStreamCreate")?,
            set_queue: function(services, c"FSEventStreamSetDispatchQueue")?,
            start: function(services, c"FSEventStreamStart")?,
            flush_sync: function(services, c"FSEventStreamFlushSync")?,
            stop: function(services, c"FSEventStreamStop")?,
            invalidate: function(services, c"FSEventStreamInvalidate")?,
            stream_release: function(services, c"FSEventStreamRelease")?,
            queue_create: function(libc::RTLD_DEFAULT, c"dispatch_queue_create")?,
            queue_release: function(libc::RTLD_DEFAULT, c"dispatch_release")?,
        })
    }
}

/// The address of `name` in `library` (a handle from `dlopen`, or `RTLD_DEFAULT`).
unsafe fn symbol(library: *mut c_void, name: &CStr) -> Result<*mut c_void, String> {
    // SAFETY: `name` is NUL-terminated; `library` is a handle dlopen gave, or RTLD_DEFAULT.
    let found = unsafe { libc::dlsym(library, name.as_ptr()) };
    if found.is_null() {
        Err(format!("FSEvents: {} not found", name.to_string_lossy()))
    } else {
        Ok(found)
    }
}

/// The function `name` of `library` as `F`, a function pointer type of its signature.
///
/// # Safety
/// `F` must be the symbol's signature.
unsafe fn function<F: Copy>(library: *mut c_void, name: &CStr) -> Result<F, String> {
    const { assert!(size_of::<F>() == size_of::<*mut c_void>()) };
    // SAFETY: `F` is a function pointer of the symbol's type (the caller's promise), of the
    // size of the address it is made from.
    unsafe { symbol(library, name).map(|found| std::mem::transmute_copy::<*mut c_void, F>(&found)) }
}

/// What the streams' callbacks hand over: the events, and a pipe that says some wait.
struct Delivered {
    events: Mutex<Vec<PathEvent>>,
    signal: Handle,
}

/// Runs on a stream's dispatch queue for every batch of events.
extern "C" fn delivered(
    _stream: *const c_void,
    info: *mut c_void,
    count: usize,
    paths: *mut c_void,
    flags: *const u32,
    ids: *const u64,
) {
    // SAFETY: `info` is the `Delivered` the stream was made with, which outlives the stream;
    // without `UseCFTypes`, `paths` is an array of `count` C strings, and `flags` and `ids`
    // have `count` entries each.
    let (target, paths, flags, ids) = unsafe {
        (
            &*(info as *const Delivered),
            std::slice::from_raw_parts(paths as *const *const c_char, count),
            std::slice::from_raw_parts(flags, count),
            std::slice::from_raw_parts(ids, count),
        )
    };
    let Ok(mut events) = target.events.lock() else { return };
    for at in 0..count {
        // SAFETY: each path is a NUL-terminated string that lives through the call.
        let path = unsafe { CStr::from_ptr(paths[at]) }.to_bytes().to_vec();
        events.push(PathEvent { path, flags: flags[at], id: ids[at] });
    }
    let _ = rustix::io::write(&target.signal, &[1]);
}

/// One running stream and its queue.
struct Stream {
    api: &'static Api,
    stream: *mut c_void,
    queue: *mut c_void,
}

// SAFETY: FSEvents streams and dispatch queues may be used from any thread; through a shared
// reference a stream is only flushed, which FSEvents allows from any thread.
unsafe impl Send for Stream {}
unsafe impl Sync for Stream {}

impl Stream {
    /// Starts a stream on the directory at `path`, delivering to `target`.
    fn start(api: &'static Api, path: &[u8], target: &Arc<Delivered>) -> Option<Stream> {
        // SAFETY: every object made here is released here or by `Drop`; the context's `info`
        // points into `target`, which the watcher keeps alive until its streams are dropped.
        unsafe {
            let string = (api.string_create)(null(), path.as_ptr(), path.len() as isize, UTF8, 0);
            if string.is_null() {
                return None;
            }
            let array = (api.array_create)(null(), &string, 1, api.array_callbacks);
            (api.release)(string);
            if array.is_null() {
                return None;
            }
            let context = Context {
                version: 0,
                info: Arc::as_ptr(target) as *mut c_void,
                retain: null(),
                release: null(),
                copy_description: null(),
            };
            let flags = CREATE_FILE_EVENTS | CREATE_NO_DEFER | CREATE_WATCH_ROOT;
            let stream = (api.stream_create)(null(), delivered, &context, array, SINCE_NOW, LATENCY, flags);
            (api.release)(array);
            if stream.is_null() {
                return None;
            }
            let queue = (api.queue_create)(c"fsnative-fsevents".as_ptr(), null());
            (api.set_queue)(stream, queue);
            let stream = Stream { api, stream, queue };
            ((api.start)(stream.stream) != 0).then_some(stream)
        }
    }

    fn flush(&self) {
        // SAFETY: the stream is started and valid until dropped.
        unsafe { (self.api.flush_sync)(self.stream) }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: stopping and invalidating a stream (started or not) before its release is
        // what FSEvents asks; the queue is released after the stream that used it.
        unsafe {
            (self.api.stop)(self.stream);
            (self.api.invalidate)(self.stream);
            (self.api.stream_release)(self.stream);
            if !self.queue.is_null() {
                (self.api.queue_release)(self.queue);
            }
        }
    }
}

/// The FSEvents watcher: a stream per watched root.
pub(crate) struct Watcher {
    /// Dropped first: no callback runs once they are gone.
    streams: Vec<Stream>,
    target: Arc<Delivered>,
    signal: Handle,
    paths: Paths,
    api: &'static Api,
}

impl Watcher {
    /// A watcher with nothing watched yet; fails when FSEvents cannot be loaded.
    pub fn new() -> io::Result<Watcher> {
        let api = api()?;
        let (signal, ring) = super::pipe()?;
        let target = Arc::new(Delivered { events: Mutex::new(Vec::new()), signal: ring });
        Ok(Watcher { streams: Vec::new(), target, signal, paths: Paths::default(), api })
    }

    /// Watches the directory at `path` as `key`: a root starts a stream that covers its whole
    /// tree; a directory below a covered root needs nothing more.
    pub fn watch(&mut self, _dir: HandleRef<'_>, path: &Path, key: DirKey) -> bool {
        let root = key.0;
        if key.1.is_empty() && !self.paths.covers(root) {
            let bytes = path.as_os_str().as_encoded_bytes();
            match Stream::start(self.api, bytes, &self.target) {
                Some(stream) => self.streams.push(stream),
                None => return false,
            }
        }
        if !self.paths.covers(root) && !key.1.is_empty() {
            return false;
        }
        self.paths.watch(path.as_os_str().as_encoded_bytes(), key);
        true
    }

    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        self.paths.forget_below(root, dir);
    }

    pub fn watched(&self) -> usize {
        self.paths.watched()
    }

    /// Always: events are only known to be in once the streams are flushed.
    pub fn pending(&self) -> bool {
        true
    }

    pub fn handle(&self) -> HandleRef<'_> {
        std::os::fd::AsFd::as_fd(&self.signal)
    }

    /// Flushes every stream, then hands the events delivered so far to `sink`.
    pub fn drain(&mut self, sink: &mut dyn FnMut(Event<'_>)) {
        for stream in &self.streams {
            stream.flush();
        }
        let mut byte = [0u8; 64];
        while matches!(rustix::io::read(&self.signal, &mut byte), Ok(n) if n > 0) {}
        let events = match self.target.events.lock() {
            Ok(mut events) => std::mem::take(&mut *events),
            Err(_) => return sink(Event::Overflow),
        };
        for event in &events {
            self.paths.translate(event, sink);
        }
    }
}
