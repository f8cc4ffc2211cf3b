//! How the grep targets read their input: a flags byte, then a pattern, then (after a 0xff
//! byte) the contents of the file it is searched in.

/// The flags, the pattern (UTF-8, else `None`) and the contents.
pub fn flags_pattern_contents(data: &[u8]) -> Option<(u8, &str, &[u8])> {
    let (&flags, rest) = data.split_first()?;
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let pattern = std::str::from_utf8(&rest[..split]).ok()?;
    Some((flags, pattern, rest.get(split + 1..).unwrap_or(&[])))
}
