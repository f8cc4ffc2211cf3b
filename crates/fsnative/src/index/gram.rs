//! What a trigram is: three bytes with ASCII letters folded to lower case, packed oldest byte
//! lowest and hashed to 16 bits. Files and patterns are cut into trigrams the same way.

/// ASCII lower case; other bytes as they are.
pub(super) fn fold(byte: u8) -> u8 {
    byte.to_ascii_lowercase()
}

/// The 16-bit hash of three folded bytes packed little-endian.
pub(super) fn gram_hash(gram: u32) -> u16 {
    (gram.wrapping_mul(0x9E37_79B1) >> 16) as u16
}
