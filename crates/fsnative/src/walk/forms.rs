//! Unicode normalization forms, where the file system ignores them: on macOS a name stored in
//! NFD (as HFS+ stored every name, and as many tools still write them) opens by its NFC
//! spelling and the reverse, so glob patterns and find queries, which compare text instead of
//! asking the file system, compare both sides in NFC there. Elsewhere the two spellings are
//! two names, and nothing is normalized.

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// Whether names are compared in NFC here (see the module's documentation).
pub(crate) const UNIFIED: bool = crate::sys::NAMES_IGNORE_NORMALIZATION;

/// `text` in NFC; borrowed when it already is (as all ASCII text is).
pub(crate) fn nfc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() || is_nfc_quick(text.chars()) == IsNormalized::Yes {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfc().collect())
    }
}

/// The name `bytes` in NFC when it is UTF-8; other names as they are.
pub(crate) fn nfc_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    if bytes.is_ascii() {
        return Cow::Borrowed(bytes);
    }
    match std::str::from_utf8(bytes).map(nfc) {
        Ok(Cow::Owned(text)) => Cow::Owned(text.into_bytes()),
        _ => Cow::Borrowed(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_meet_in_nfc_and_other_names_stay() {
        let composed = "caf\u{e9}/r\u{e9}sum\u{e9}.txt";
        let decomposed = "cafe\u{301}/re\u{301}sume\u{301}.txt";
        assert_eq!(nfc(decomposed), composed);
        assert!(matches!(nfc(composed), Cow::Borrowed(_)), "already NFC");
        assert!(matches!(nfc("plain/ascii.rs"), Cow::Borrowed(_)));
        assert_eq!(nfc_bytes(decomposed.as_bytes()).as_ref(), composed.as_bytes());
        let not_utf8 = b"caf\xe9.txt";
        assert_eq!(nfc_bytes(not_utf8).as_ref(), not_utf8, "a name that is not UTF-8 is kept");
        // Hangul: a syllable and its jamo.
        assert_eq!(nfc("\u{1112}\u{1161}\u{11ab}"), "\u{d55c}");
    }
}
