//! Which characters a path holds, as 64 bits: a fuzzy path search skips a path that lacks
//! more of its query's characters than the typos it allows, without aligning anything.
//! Letters (case folded) and digits have a bit each; every other byte shares the rest.

/// The bit of one byte.
fn bit(byte: u8) -> u64 {
    let byte = byte.to_ascii_lowercase();
    let at = match byte {
        b'a'..=b'z' => byte - b'a',
        b'0'..=b'9' => 26 + (byte - b'0'),
        _ => 36 + byte % 28,
    };
    1 << at
}

/// The characters of `bytes`.
pub(crate) fn char_set(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |set, &byte| set | bit(byte))
}

/// The ASCII characters of a query (others would take several bytes, so several bits, and
/// could count as more than one missing character).
pub(crate) fn query_char_set(query: &str) -> u64 {
    query.bytes().filter(u8::is_ascii).fold(0, |set, byte| set | bit(byte))
}

/// At least how many characters of the query (`query_char_set`) a path (`char_set`) lacks.
pub(crate) fn missing(query: u64, path: u64) -> u32 {
    (query & !path).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_characters_are_a_lower_bound() {
        let path = char_set(b"src/Handler_12.rs");
        assert_eq!(missing(query_char_set("handler"), path), 0);
        assert_eq!(missing(query_char_set("HANDLER"), path), 0);
        assert_eq!(missing(query_char_set("hxndlqr"), path), 2);
        assert_eq!(missing(query_char_set("h\u{e9}"), path), 0, "non-ASCII query characters are not counted");
    }
}
