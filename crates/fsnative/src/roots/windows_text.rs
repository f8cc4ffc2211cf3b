//! The Windows path spellings the sandbox refuses before it resolves anything, because Win32
//! would read them as something else than the name they seem to be: a device, an alternate
//! data stream, a name with its trailing dots or spaces dropped, a path relative to another
//! drive's current directory, or one of the prefixes that turn Win32's checks off.
//!
//! A pure function of the text, applied where the OS layer says Windows' rules hold
//! (`sys::WINDOWS_PATH_RULES`), and tested on every system. 8.3 short names, case variants,
//! junctions and links are not questions of text: they are resolved through handles, as
//! every other path is.

/// Device names: any component whose name before its first dot (and before trailing spaces)
/// is one of these, in any case, opens the device (`NUL.txt`, `con `, `dir\COM1.log`).
const DEVICES: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];
/// ...and these followed by a digit 0-9 or a superscript 1, 2 or 3.
const NUMBERED_DEVICES: [&str; 2] = ["COM", "LPT"];

/// Why Win32 would not open `path` as the name it spells, or `None` when it would.
pub(crate) fn refusal(path: &str) -> Option<String> {
    let unified = path.replace('/', "\\");
    for prefix in [r"\\?\", r"\\.\", r"\??\"] {
        if unified.starts_with(prefix) {
            return Some(format!("{prefix} paths are not accepted: they turn off Win32's path checks"));
        }
    }
    let bytes = unified.as_bytes();
    let (drive, rest) = match bytes {
        [letter, b':', ..] if letter.is_ascii_alphabetic() => unified.split_at(2),
        _ => ("", unified.as_str()),
    };
    if !drive.is_empty() && !rest.starts_with('\\') {
        return Some(format!(
            "{path}: a drive-relative path ({drive} without a separator) depends on that drive's current directory"
        ));
    }
    let unc = drive.is_empty() && rest.starts_with(r"\\");
    for (at, name) in rest.split('\\').enumerate() {
        if name.is_empty() || name == "." || name == ".." || (unc && at <= 3) {
            // Empty (a separator doubled or leading), dot names and the UNC server and share
            // are left to resolution.
            continue;
        }
        if name.contains(':') {
            return Some(format!("{path}: {name:?} names an alternate data stream"));
        }
        if name.ends_with('.') || name.ends_with(' ') {
            return Some(format!("{path}: {name:?} ends with a dot or a space, which Win32 drops"));
        }
        if is_device(name) {
            return Some(format!("{path}: {name:?} names a device"));
        }
    }
    None
}

/// Whether the file name `name` opens a device on Windows.
fn is_device(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    if DEVICES.contains(&upper.as_str()) {
        return true;
    }
    NUMBERED_DEVICES.iter().any(|device| {
        upper.strip_prefix(device).is_some_and(|number| {
            matches!(number, "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "¹" | "²" | "³")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_win32_reads_as_something_else_is_refused() {
        let refused = [
            r"\\?\C:\root\a.txt",
            r"\\.\C:\root\a.txt",
            r"\??\C:\root\a.txt",
            "//?/C:/root/a.txt",
            r"\\.\PhysicalDrive0",
            "C:foo",
            "C:",
            r"C:..\root\a.txt",
            r"C:\root\CON",
            r"C:\root\con.txt",
            r"C:\root\NUL",
            r"C:\root\nul.tar.gz",
            r"C:\root\COM1",
            r"C:\root\lpt9.log",
            r"C:\root\COM¹",
            r"C:\root\CONIN$",
            r"C:\root\conout$",
            r"C:\root\AUX ",
            r"C:\root\dir\PRN.md",
            "C:/root/sub/Con",
            r"C:\root\a.txt:secret",
            r"C:\root\a.txt::$DATA",
            r"C:\root\dir:stream\b",
            r"C:\root\secret.txt.",
            r"C:\root\secret.txt ",
            r"C:\root\dir.\a.txt",
            r"C:\root\... ",
            r"\\server\share\CON",
            r"\\server\share\a.txt:x",
        ];
        for path in refused {
            assert!(refusal(path).is_some(), "{path}");
        }
    }

    #[test]
    fn ordinary_names_pass() {
        let accepted = [
            r"C:\root\a.txt",
            "C:/root/a.txt",
            r"C:\root/mixed\slashes.txt",
            r"C:\root\CONSOLE.txt",
            r"C:\root\COM10",
            r"C:\root\LPT",
            r"C:\root\nullable.rs",
            r"C:\root\SECRET~1.TXT",
            r"C:\root\.gitignore",
            r"C:\root\..\root\a.txt",
            r"C:\",
            r"\\server\share\dir\a.txt",
            r"relative\path.txt",
            "/usr/lib/x",
        ];
        for path in accepted {
            assert_eq!(refusal(path), None, "{path}");
        }
    }
}
