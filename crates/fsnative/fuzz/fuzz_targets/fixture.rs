//! The fixture tree the fuzz targets share: a root with nested directories, links that stay
//! inside, links that lead out, a loop, a dangling link, and an outside secret.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub struct Fixture {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub sandbox: fsnative::Sandbox,
}

pub fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical temp dir");
        let root = base.join("root");
        let outside = base.join("outside");
        for d in ["a/b/c", "d", ".hidden"] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        std::fs::create_dir_all(&outside).expect("mkdir");
        std::fs::write(root.join("a/b/c/file.txt"), "needle inside\n").expect("write");
        std::fs::write(root.join("top.txt"), "top needle\n").expect("write");
        std::fs::write(outside.join("secret.txt"), "SECRET\n").expect("write");
        let links: [(&str, &Path); 6] = [
            ("link_in", Path::new("a/b")),
            ("link_out", &outside),
            ("a/up", Path::new("../../outside")),
            ("loop1", Path::new("loop2")),
            ("loop2", Path::new("loop1")),
            ("dangling", Path::new("../outside/missing")),
        ];
        for (name, target) in links {
            symlink(target, root.join(name)).expect("symlink");
        }
        let sandbox = fsnative::Sandbox::new([&root]).expect("sandbox");
        Fixture { _dir: dir, root, sandbox }
    })
}
