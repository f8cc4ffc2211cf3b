//! The Windows layer against a real file system: listings, metadata, opens beneath a
//! directory, the watcher, the wake-up and the lock. (Links are not made here: Windows makes
//! them only with a privilege, and Wine not at all; `files::tests` checks their types.)

use std::ffi::OsStr;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::*;
use crate::sys::EntryType;

/// The names and types listed; none of these test files is a cloud placeholder.
fn listing(dir: HandleRef<'_>) -> Vec<(Vec<u8>, Option<EntryType>)> {
    let mut names = Vec::new();
    list_dir(dir, |entry| {
        assert!(!entry.dataless, "{:?} listed as a placeholder", entry.name);
        names.push((entry.name.to_bytes().to_vec(), entry.kind));
    })
    .unwrap();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    names
}

#[test]
fn a_directory_is_listed_and_stated_through_its_handle() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.txt"), "hello").unwrap();
    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    let unicode = OsStr::new("é😀.txt");
    std::fs::write(tmp.path().join(unicode), "").unwrap();
    let dir = open_dir(tmp.path()).unwrap();
    let mut expected = vec![
        (b"a.txt".to_vec(), Some(EntryType::File)),
        (b"sub".to_vec(), Some(EntryType::Dir)),
        (unicode.as_encoded_bytes().to_vec(), Some(EntryType::File)),
    ];
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(listing(dir.handle()), expected);
    assert_eq!(listing(dir.handle()), expected, "a handle listed before is listed whole again");

    let meta = stat_at(dir.handle(), OsStr::new("a.txt"), false).unwrap();
    assert_eq!((meta.kind, meta.size, meta.links, meta.dataless), (EntryType::File, 5, 1, false));
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
    assert!((meta.modified.0 - now).abs() < 600, "{:?} is not about {now}", meta.modified);
    assert!(meta.changed.0 >= meta.modified.0 - 1);
    let file = open_file_at(dir.handle(), OsStr::new("a.txt")).unwrap();
    assert_eq!(stat(file.handle()).unwrap().identity, meta.identity, "one file, one identity");
    assert_eq!(stat_path(&tmp.path().join("a.txt")).unwrap().identity, meta.identity);
    assert_ne!(stat_at(dir.handle(), OsStr::new("sub"), false).unwrap().identity, meta.identity);
    assert_eq!(stat(dir.handle()).unwrap().kind, EntryType::Dir);

    let sub = open_dir_at(dir.handle(), OsStr::new("sub")).unwrap();
    assert!(listing(sub.handle()).is_empty());
}

#[test]
fn opens_beneath_a_directory_take_one_name_and_the_right_kind() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    std::fs::write(tmp.path().join("sub/f.txt"), "x").unwrap();
    let dir = open_dir(tmp.path()).unwrap();
    for name in ["sub\\f.txt", "sub/f.txt", "..", ".", "", "sub:stream", "C:"] {
        let error = open_file_at(dir.handle(), OsStr::new(name)).unwrap_err();
        assert_eq!(error.raw_os_error(), Some(ERROR_INVALID_NAME_CODE), "{name:?}: {error}");
    }
    let sub = open_dir_at(dir.handle(), OsStr::new("sub")).unwrap();
    let error = open_dir_at(sub.handle(), OsStr::new("f.txt")).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotADirectory, "{error}");
    let error = open_file_at(sub.handle(), OsStr::new("missing")).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound, "{error}");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut open_file_at(sub.handle(), OsStr::new("F.TXT")).unwrap(), &mut text)
        .unwrap();
    assert_eq!(text, "x", "names are matched without case, as Windows does");
}

const ERROR_INVALID_NAME_CODE: i32 = windows_sys::Win32::Foundation::ERROR_INVALID_NAME as i32;

#[test]
fn the_filesystem_root_is_the_drive_of_the_path() {
    let tmp = tempfile::tempdir().unwrap();
    let root = open_filesystem_root(tmp.path()).unwrap();
    assert_eq!(stat(root.handle()).unwrap().kind, EntryType::Dir);
    assert!(open_filesystem_root(Path::new("relative\\path")).is_err());
}

#[test]
fn error_classes_round_trip() {
    for class in
        [OsError::Loop, OsError::NameTooLong, OsError::NotALink, OsError::Unopenable, OsError::NoSpace]
    {
        assert_eq!(OsError::of(&class.error()), Some(class));
    }
    assert_eq!(OsError::of(&io::Error::from(io::ErrorKind::NotFound)), None);
}

#[test]
fn a_wake_stays_set_and_a_wait_times_out_without_one() {
    let wake = Wake::new().unwrap();
    let other = Wake::new().unwrap();
    let started = Instant::now();
    assert_eq!(
        wait([wake.handle(), other.handle()], Some(Duration::from_millis(20))).unwrap(),
        [false, false]
    );
    assert!(started.elapsed() >= Duration::from_millis(15));
    other.wake();
    wake.wake();
    assert_eq!(wait([wake.handle(), other.handle()], None).unwrap(), [true, true]);
    assert_eq!(wait([other.handle()], Some(Duration::ZERO)).unwrap(), [true], "still set");
}

#[test]
fn one_handle_at_a_time_holds_the_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("lock");
    let open = || std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path).unwrap();
    let (first, second) = (open(), open());
    assert!(try_lock_exclusive(&first).unwrap());
    assert!(!try_lock_exclusive(&second).unwrap());
    drop(first);
    assert!(try_lock_exclusive(&second).unwrap());
}

/// What the watcher said, written out ([`crate::sys::describe`]).
fn drained(watcher: &mut Watcher) -> Vec<String> {
    let mut out = Vec::new();
    watcher.drain(&mut |event| out.push(crate::sys::describe(&event)));
    out
}

/// Drains until `wanted` has been said, for at most ten seconds; everything said.
fn until(watcher: &mut Watcher, wanted: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut said = Vec::new();
    while !said.iter().any(|line| line == wanted) && Instant::now() < deadline {
        let _ = wait([watcher.handle()], Some(Duration::from_millis(100)));
        said.extend(drained(watcher));
    }
    assert!(said.iter().any(|line| line == wanted), "{wanted:?} not in {said:?}");
    said
}

#[test]
fn the_watcher_hears_names_come_and_go_below_its_root() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    let mut watcher = Watcher::new().unwrap();
    let dir = open_dir(tmp.path()).unwrap();
    assert!(!watcher.watch(dir.handle(), tmp.path(), (1, b"sub"[..].into())), "below a root not watched");
    assert!(watcher.watch(dir.handle(), tmp.path(), (0, Box::default())));
    let sub = open_dir(&tmp.path().join("sub")).unwrap();
    assert!(watcher.watch(sub.handle(), &tmp.path().join("sub"), (0, b"sub"[..].into())));
    assert_eq!(watcher.watched(), 2);
    assert!(drained(&mut watcher).is_empty(), "nothing changed yet");

    std::fs::write(tmp.path().join("sub/new.txt"), "x").unwrap();
    until(&mut watcher, "Appeared file 0:sub|new.txt");
    std::fs::rename(tmp.path().join("sub/new.txt"), tmp.path().join("sub/old.txt")).unwrap();
    let said = until(&mut watcher, "Appeared file 0:sub|old.txt");
    assert!(said.iter().any(|line| line == "Vanished file 0:sub|new.txt"), "{said:?}");
    std::fs::remove_file(tmp.path().join("sub/old.txt")).unwrap();
    drop(sub);
    std::fs::remove_dir(tmp.path().join("sub")).unwrap();
    until(&mut watcher, "Vanished dir 0:|sub");

    watcher.forget_below(0, b"sub");
    assert_eq!(watcher.watched(), 1);
    drop(watcher);
}

#[test]
fn more_changes_than_the_buffer_holds_are_an_overflow() {
    let tmp = tempfile::tempdir().unwrap();
    let mut watcher = Watcher::new().unwrap();
    let dir = open_dir(tmp.path()).unwrap();
    assert!(watcher.watch(dir.handle(), tmp.path(), (0, Box::default())));
    // Each creation is a record of about 100 bytes: 2,000 of them are three times the buffer.
    for at in 0..2000 {
        std::fs::write(tmp.path().join(format!("a-file-with-a-rather-long-name-{at:05}.txt")), "").unwrap();
    }
    until(&mut watcher, "overflow");
}

#[test]
fn a_path_opened_name_by_name_from_its_drive_is_the_directory_it_names() {
    let tmp = tempfile::tempdir().unwrap();
    for path in [tmp.path().to_path_buf(), tmp.path().canonicalize().unwrap()] {
        let mut dir = open_filesystem_root(&path).unwrap();
        for component in path.components() {
            if let std::path::Component::Normal(name) = component {
                dir = open_dir_at(dir.handle(), name)
                    .unwrap_or_else(|e| panic!("{}: {name:?}: {e}", path.display()));
            }
        }
        assert_eq!(
            stat(dir.handle()).unwrap().identity,
            stat_path(tmp.path()).unwrap().identity,
            "{}",
            path.display()
        );
        let mut watcher = Watcher::new().unwrap();
        assert!(watcher.watch(dir.handle(), &path, (0, Box::default())), "{}", path.display());
    }
}

#[test]
fn directories_cap_std_opens_with_these_options_list() {
    use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt};
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    std::fs::write(tmp.path().join("sub/f.txt"), "x").unwrap();
    let root = cap_std::fs::Dir::from_std_file(std::fs::File::from(open_dir(tmp.path()).unwrap()));
    for (relative, expected) in [(".", 1), ("sub", 1)] {
        let mut options = cap_std::fs::OpenOptions::new();
        dir_open_options(&mut options).follow(FollowSymlinks::No);
        let dir = root.open_with(relative, &options).unwrap_or_else(|e| panic!("{relative}: {e}"));
        assert_eq!(listing(dir.handle()).len(), expected, "{relative}");
    }
}
