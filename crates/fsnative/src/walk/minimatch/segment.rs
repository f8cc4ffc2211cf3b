//! One path segment of a minimatch pattern: `*`, `?`, `[…]` classes (with `!`/`^` negation,
//! ranges and POSIX names), `\` escapes and the extglobs `@(a|b)`, `?(…)`, `*(…)`, `+(…)` and
//! `!(…)`. With minimatch's `dot: true`, wildcards match a leading `.` too.

use std::collections::HashMap;

/// A compiled segment.
#[derive(Clone, Debug)]
pub(super) enum Segment {
    /// No magic: the name must equal it.
    Literal(String),
    Pattern {
        nodes: Vec<Node>,
        has_ext: bool,
    },
}

#[derive(Clone, Debug)]
pub(super) enum Node {
    Char(char),
    AnyChar,
    Star,
    Class(Class),
    Ext(ExtKind, Vec<Vec<Node>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ExtKind {
    /// `@(…)`: exactly one alternative.
    One,
    /// `?(…)`: zero or one.
    Optional,
    /// `*(…)`: zero or more.
    Any,
    /// `+(…)`: one or more.
    Many,
    /// `!(…)`: anything but an alternative followed by the rest of the segment.
    Not,
}

/// A POSIX class's test (`[:alpha:]` and the like).
type Named = fn(char) -> bool;

#[derive(Clone, Debug)]
pub(super) struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
    named: Vec<Named>,
}

impl Class {
    fn contains(&self, c: char) -> bool {
        let hit = self.ranges.iter().any(|&(a, b)| a <= c && c <= b) || self.named.iter().any(|f| f(c));
        hit != self.negated
    }
}

impl Segment {
    /// Compiles one segment (it holds no `/`).
    pub fn parse(text: &str) -> Segment {
        let chars: Vec<char> = text.chars().collect();
        let mut at = 0;
        let nodes = parse_sequence(&chars, &mut at, false).0;
        if nodes.iter().all(|n| matches!(n, Node::Char(_))) {
            return Segment::Literal(
                nodes.iter().map(|n| if let Node::Char(c) = n { *c } else { '\0' }).collect(),
            );
        }
        let has_ext = nodes.iter().any(|n| matches!(n, Node::Ext(..)));
        Segment::Pattern { nodes, has_ext }
    }

    /// Whether the name `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Segment::Literal(text) => text == name,
            Segment::Pattern { nodes, has_ext } => {
                let chars: Vec<char> = name.chars().collect();
                if *has_ext {
                    Matcher { text: &chars, memo: HashMap::new(), steps: 0 }.run(nodes, 0, 0, chars.len())
                } else {
                    plain_matches(nodes, &chars)
                }
            }
        }
    }
}

/// Parses nodes until the end, or (inside an extglob) until `|` or `)`; returns them and the
/// character that ended them (`None` at the end of the text).
fn parse_sequence(chars: &[char], at: &mut usize, in_ext: bool) -> (Vec<Node>, Option<char>) {
    let mut nodes = Vec::new();
    while *at < chars.len() {
        let c = chars[*at];
        if in_ext && (c == '|' || c == ')') {
            *at += 1;
            return (nodes, Some(c));
        }
        if matches!(c, '!' | '?' | '+' | '*' | '@') && chars.get(*at + 1) == Some(&'(') {
            let start = *at;
            *at += 2;
            if let Some(ext) = parse_ext(c, chars, at) {
                nodes.push(ext);
                continue;
            }
            // Never closed: the characters stand for themselves.
            *at = start + 1;
            nodes.push(Node::Char(c));
            continue;
        }
        *at += 1;
        nodes.push(match c {
            '\\' if *at < chars.len() => {
                *at += 1;
                Node::Char(chars[*at - 1])
            }
            '*' => {
                if matches!(nodes.last(), Some(Node::Star)) {
                    continue;
                }
                Node::Star
            }
            '?' => Node::AnyChar,
            '[' => match parse_class(chars, *at) {
                Some((class, end)) => {
                    *at = end;
                    Node::Class(class)
                }
                None => Node::Char('['),
            },
            other => Node::Char(other),
        });
    }
    (nodes, None)
}

/// The alternatives of an extglob whose `(` was just passed, or `None` if it never closes.
fn parse_ext(kind: char, chars: &[char], at: &mut usize) -> Option<Node> {
    let kind = match kind {
        '@' => ExtKind::One,
        '?' => ExtKind::Optional,
        '*' => ExtKind::Any,
        '+' => ExtKind::Many,
        _ => ExtKind::Not,
    };
    let mut alternatives = Vec::new();
    loop {
        let (nodes, end) = parse_sequence(chars, at, true);
        alternatives.push(nodes);
        match end {
            Some(')') => return Some(Node::Ext(kind, alternatives)),
            Some(_) => {}
            None => return None,
        }
    }
}

/// A `[…]` class whose `[` is just before `start`; with the index after its `]`.
fn parse_class(chars: &[char], start: usize) -> Option<(Class, usize)> {
    let mut class = Class { negated: false, ranges: Vec::new(), named: Vec::new() };
    let mut i = start;
    if matches!(chars.get(i), Some('!' | '^')) {
        class.negated = true;
        i += 1;
    }
    let first = i;
    let mut pending: Option<char> = None;
    let mut range_from: Option<char> = None;
    while i < chars.len() {
        let mut c = chars[i];
        if c == ']' && i > first {
            if let Some(p) = pending {
                class.ranges.push((p, p));
            }
            if range_from.is_some() {
                class.ranges.push(('-', '-'));
            }
            return Some((class, i + 1));
        }
        if c == '[' && chars.get(i + 1) == Some(&':') {
            if let Some((named, end)) = posix_class(chars, i) {
                if let Some(p) = pending.take() {
                    class.ranges.push((p, p));
                }
                class.named.push(named);
                i = end;
                continue;
            }
        }
        if c == '\\' && i + 1 < chars.len() {
            i += 1;
            c = chars[i];
        } else if c == '-' && pending.is_some() && range_from.is_none() && chars.get(i + 1) != Some(&']') {
            range_from = pending.take();
            i += 1;
            continue;
        }
        if let Some(from) = range_from.take() {
            // A reversed range matches nothing.
            if from <= c {
                class.ranges.push((from, c));
            }
        } else {
            if let Some(p) = pending.replace(c) {
                class.ranges.push((p, p));
            }
        }
        i += 1;
    }
    None
}

/// A POSIX class name (`[:alpha:]`) starting at `at`.
fn posix_class(chars: &[char], at: usize) -> Option<(Named, usize)> {
    const NAMES: [(&str, Named); 14] = [
        ("alnum", char::is_alphanumeric),
        ("alpha", char::is_alphabetic),
        ("ascii", |c| c.is_ascii()),
        ("blank", |c| {
            c == '\t'
                || c == ' '
                || (c.is_whitespace() && !c.is_control() && c != '\u{2028}' && c != '\u{2029}')
        }),
        ("cntrl", char::is_control),
        ("digit", char::is_numeric),
        ("graph", |c| !c.is_whitespace() && !c.is_control()),
        ("lower", char::is_lowercase),
        ("print", |c| !c.is_control()),
        ("punct", |c| {
            c.is_ascii_punctuation() && !matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~')
        }),
        ("space", char::is_whitespace),
        ("upper", char::is_uppercase),
        ("word", |c| c.is_alphanumeric() || c == '_'),
        ("xdigit", |c| c.is_ascii_hexdigit()),
    ];
    let rest: String = chars[at..chars.len().min(at + 10)].iter().collect();
    NAMES.iter().find_map(|(name, f)| {
        let spelled = format!("[:{name}:]");
        rest.starts_with(&spelled).then(|| (*f, at + spelled.chars().count()))
    })
}

fn single(node: &Node, c: char) -> bool {
    match node {
        Node::Char(expected) => *expected == c,
        Node::AnyChar => true,
        Node::Class(class) => class.contains(c),
        Node::Star | Node::Ext(..) => false,
    }
}

/// Star, single-character and literal nodes against a name, backtracking to the last star only.
fn plain_matches(nodes: &[Node], text: &[char]) -> bool {
    let (mut n, mut t) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while t < text.len() {
        match nodes.get(n) {
            Some(Node::Star) => {
                resume = Some((n, t));
                n += 1;
            }
            Some(node) if single(node, text[t]) => {
                n += 1;
                t += 1;
            }
            _ => match resume {
                Some((star, from)) => {
                    n = star + 1;
                    t = from + 1;
                    resume = Some((star, from + 1));
                }
                None => return false,
            },
        }
    }
    nodes[n..].iter().all(|node| matches!(node, Node::Star))
}

/// The most states one extglob match decides; past it the name does not match (only a huge
/// pattern of nested extglobs gets there).
const MAX_STEPS: usize = 1_000_000;

/// Matches node sequences holding extglobs, remembering what it decided for each node list,
/// position and span (so no pattern makes it exponential), within [`MAX_STEPS`].
struct Matcher<'t> {
    text: &'t [char],
    memo: HashMap<(usize, usize, usize, usize), bool>,
    steps: usize,
}

impl Matcher<'_> {
    /// Whether `nodes[i..]` matches exactly `text[from..to]`.
    fn run(&mut self, nodes: &[Node], i: usize, from: usize, to: usize) -> bool {
        let key = (nodes.as_ptr() as usize, i, from, to);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return false;
        }
        let result = self.step(nodes, i, from, to);
        self.memo.insert(key, result);
        result
    }

    fn step(&mut self, nodes: &[Node], i: usize, from: usize, to: usize) -> bool {
        let Some(node) = nodes.get(i) else {
            return from == to;
        };
        match node {
            Node::Star => (from..=to).any(|mid| self.run(nodes, i + 1, mid, to)),
            Node::Ext(kind, alternatives) => {
                let ends = |me: &mut Self, start: usize| -> Vec<usize> {
                    (start..=to)
                        .filter(|&end| alternatives.iter().any(|alt| me.run(alt, 0, start, end)))
                        .collect()
                };
                match kind {
                    ExtKind::One => ends(self, from).into_iter().any(|end| self.run(nodes, i + 1, end, to)),
                    ExtKind::Optional => {
                        self.run(nodes, i + 1, from, to)
                            || ends(self, from).into_iter().any(|end| self.run(nodes, i + 1, end, to))
                    }
                    ExtKind::Any | ExtKind::Many => {
                        // Positions reachable by one or more alternatives in a row.
                        let mut reached = vec![false; to + 1];
                        let mut frontier = vec![from];
                        while let Some(start) = frontier.pop() {
                            for end in ends(self, start) {
                                if end > start && !reached[end] {
                                    reached[end] = true;
                                    frontier.push(end);
                                }
                            }
                        }
                        let zero_ok = *kind == ExtKind::Any
                            || alternatives.iter().any(|alt| self.run(alt, 0, from, from));
                        (zero_ok && self.run(nodes, i + 1, from, to))
                            || (from..=to).any(|end| reached[end] && self.run(nodes, i + 1, end, to))
                    }
                    ExtKind::Not => {
                        let excluded =
                            ends(self, from).into_iter().any(|end| self.run(nodes, i + 1, end, to));
                        !excluded && (from..=to).any(|end| self.run(nodes, i + 1, end, to))
                    }
                }
            }
            single_node => {
                from < to && single(single_node, self.text[from]) && self.run(nodes, i + 1, from + 1, to)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Segment;

    fn hit(pattern: &str, name: &str) -> bool {
        Segment::parse(pattern).matches(name)
    }

    #[test]
    fn wildcards_classes_and_extglobs() {
        assert!(hit("*.py", "a.py") && hit("*.py", ".py") && !hit("*.py", "a.pyc"));
        assert!(hit("?.txt", "a.txt") && !hit("?.txt", "ab.txt"));
        assert!(hit("[abc]x", "bx") && !hit("[!abc]x", "bx") && hit("[^abc]x", "dx"));
        assert!(hit("[a-c]", "b") && hit("[[:digit:]]", "7") && hit("[]]", "]"));
        assert!(hit("[", "[") && hit("a[b", "a[b") && hit("\\*", "*") && !hit("\\*", "x"));
        assert!(hit("@(a|b).js", "a.js") && !hit("@(a|b).js", "c.js"));
        assert!(hit("+(ab).txt", "ababab.txt") && hit("*(x)y", "y") && hit("?(x)y", "xy"));
        assert!(hit("!(a).js", "b.js") && !hit("!(a).js", "a.js") && hit("!(a).js", "ab.js"));
        assert!(hit("@(a", "@(a"));
    }
}
