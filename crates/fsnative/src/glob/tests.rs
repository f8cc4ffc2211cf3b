use super::*;

/// A walk that yields a cloud placeholder (no file system here can make one: the listing's
/// mark is given by hand) lists it when its name matches, and counts it as skipped; one that
/// does not match is neither listed nor counted.
#[test]
fn a_matching_placeholder_is_listed_and_counted_as_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let roots = Roots::new([dir.path()]).unwrap();
    let root = roots.paths()[0].clone();
    let request = GlobRequest::new("*.pdf");
    let patterns = Patterns::compile(&request).unwrap();
    let skipped = SkipCounters::default();
    let base_len = root.as_os_str().len() + 1;
    let matcher = WalkMatcher {
        roots: &roots,
        request: &request,
        patterns: &patterns,
        skipped: &skipped,
        target: 0,
        base_len,
    };
    let walked = |name: &str, dataless: bool| Walked {
        path: root.join(name),
        kind: WalkedKind::File,
        at: None,
        dataless,
    };

    let found = matcher.found(walked("cloud.pdf", true)).expect("a placeholder is still listed");
    assert_eq!((found.relative, found.is_dir), (PathBuf::from("cloud.pdf"), false));
    assert!(matcher.found(walked("local.pdf", false)).is_some());
    assert!(matcher.found(walked("cloud.txt", true)).is_none());
    assert_eq!(SkipCounters::get(&skipped.special), 1);
}
