//! A thesaurus: terms, each standing for a concept, compiled to one Aho-Corasick automaton.

use std::collections::HashMap;
use std::path::Path;

use aho_corasick::{AhoCorasick, MatchKind};
use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};

/// Compiled terms and the concept each stands for.
///
/// Two JSON shapes are read. A plain object maps each term to its concept:
/// `{"auth": "authentication", "login": "authentication", "db": "database"}`. Terraphim's
/// thesaurus shape, `{"name": "...", "data": {"auth": {"id": 1, "nterm": "authentication",
/// "url": null}, ...}}`, maps each term to a normalised term whose `id` is the concept (as
/// Terraphim's `KgPathScorer` counts them); an entry without `id` stands for its `nterm`.
///
/// Matching is Terraphim's: ASCII case-insensitive, leftmost-longest, non-overlapping, on the
/// raw bytes of the text (term boundaries are not required: `auth` matches `oauth2`).
///
/// ```
/// use fsnative::Thesaurus;
/// let thesaurus = Thesaurus::from_pairs([("auth", "security"), ("login", "security"), ("db", "storage")])?;
/// assert_eq!(thesaurus.concepts_in(b"src/Auth/login_db.rs"), 2);
/// assert_eq!((thesaurus.terms(), thesaurus.concepts()), (3, 2));
/// # Ok::<(), fsnative::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Thesaurus {
    automaton: AhoCorasick,
    /// The concept of each pattern, by number.
    concept_of: Vec<u32>,
    concepts: usize,
}

impl Thesaurus {
    /// A thesaurus of `(term, concept)` pairs. Terms must not be empty; several terms may
    /// share a concept.
    pub fn from_pairs<T, C>(pairs: impl IntoIterator<Item = (T, C)>) -> Result<Thesaurus>
    where
        T: AsRef<str>,
        C: AsRef<str>,
    {
        let mut numbers: HashMap<String, u32> = HashMap::new();
        let mut terms = Vec::new();
        let mut concept_of = Vec::new();
        for (term, concept) in pairs {
            let term = term.as_ref();
            if term.is_empty() {
                return Err(invalid("a thesaurus term must not be empty".to_owned()));
            }
            let next = numbers.len() as u32;
            concept_of.push(*numbers.entry(concept.as_ref().to_owned()).or_insert(next));
            terms.push(term.to_owned());
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .ascii_case_insensitive(true)
            .build(&terms)
            .map_err(|e| invalid(format!("the thesaurus cannot be compiled: {e}")))?;
        Ok(Thesaurus { automaton, concept_of, concepts: numbers.len() })
    }

    /// A thesaurus from JSON text, in either shape (see [`Thesaurus`]).
    pub fn from_json(text: &[u8]) -> Result<Thesaurus> {
        let value: Value =
            serde_json::from_slice(text).map_err(|e| invalid(format!("the thesaurus is not JSON: {e}")))?;
        Thesaurus::from_value(&value)
    }

    /// A thesaurus from a JSON value, in either shape.
    pub fn from_value(value: &Value) -> Result<Thesaurus> {
        let Value::Object(top) = value else {
            return Err(invalid("a thesaurus must be a JSON object".to_owned()));
        };
        let Some(Value::Object(data)) = top.get("data") else {
            let mut pairs = Vec::with_capacity(top.len());
            for (term, concept) in top {
                let concept = concept.as_str().ok_or_else(|| {
                    invalid(format!("thesaurus term {term:?} must map to a concept string, not {concept}"))
                })?;
                pairs.push((term.as_str(), concept));
            }
            return Thesaurus::from_pairs(pairs);
        };
        let mut pairs = Vec::with_capacity(data.len());
        for (term, entry) in data {
            let concept = match (entry.get("id"), entry.get("nterm")) {
                (Some(Value::Number(id)), _) => format!("id:{id}"),
                (Some(Value::String(id)), _) => format!("id:{id}"),
                (None | Some(Value::Null), Some(Value::String(nterm))) => format!("nterm:{nterm}"),
                _ => {
                    return Err(invalid(format!(
                        "thesaurus entry {term:?} must be an object with an `id` or an `nterm`"
                    )))
                }
            };
            pairs.push((term.as_str(), concept));
        }
        Thesaurus::from_pairs(pairs)
    }

    /// Reads and compiles the thesaurus file at `path`.
    pub fn load(path: &Path) -> Result<Thesaurus> {
        let text = std::fs::read(path).map_err(|e| Error::from_io(&e, path))?;
        Thesaurus::from_json(&text).map_err(|e| {
            Error::new(e.code(), format!("thesaurus {}: {}", path.display(), e.message())).with_path(path)
        })
    }

    /// How many distinct concepts the terms found in `text` stand for.
    pub fn concepts_in(&self, text: &[u8]) -> usize {
        let mut seen: Vec<u32> = Vec::new();
        for found in self.automaton.find_iter(text) {
            let concept = self.concept_of[found.pattern().as_usize()];
            if !seen.contains(&concept) {
                seen.push(concept);
            }
        }
        seen.len()
    }

    /// How many terms it has.
    pub fn terms(&self) -> usize {
        self.concept_of.len()
    }

    /// How many distinct concepts its terms stand for.
    pub fn concepts(&self) -> usize {
        self.concepts
    }
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}
