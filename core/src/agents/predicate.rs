//! Predicates: the tree a rule's `match` holds. Leaves look at a region's text (`contains`,
//! `regex`, `line-regex`); `all`, `any` and `not` combine them. Every child is evaluated, so the
//! evidence tree shows which conjunct failed, not only that one did.

use regex::{Regex, RegexBuilder};
use serde::Serialize;

/// Deepest nesting a predicate may have.
pub const MAX_DEPTH: usize = 8;
/// Most matchers (nodes) a rule's predicate may hold.
pub const MAX_MATCHERS: usize = 32;
/// Longest pattern a leaf may hold, in characters.
pub const MAX_PATTERN_CHARS: usize = 512;

/// Largest compiled program one pattern may have (the regex crate's `size_limit`), in bytes.
pub const MAX_PATTERN_COMPILED_BYTES: usize = 256 * 1024;
/// Largest lazy-DFA cache one pattern may grow (`dfa_size_limit`), in bytes.
pub const MAX_PATTERN_DFA_BYTES: usize = 256 * 1024;
/// Largest compiled size all of a manifest's patterns may have together, in bytes. A pattern
/// is charged the smallest of the compile tiers its program fits in.
pub const MAX_MANIFEST_COMPILED_BYTES: usize = 16 * 1024 * 1024;
/// The size limits a pattern is compiled under, smallest first: the first that holds it is
/// what the pattern costs the manifest.
/// (4096 patterns, the most a manifest holds, fit the total at the smallest tier.)
const COMPILE_TIERS: [usize; 4] = [2 * 1024, 16 * 1024, 64 * 1024, MAX_PATTERN_COMPILED_BYTES];

/// A compiled-size bound a manifest broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "bound", content = "bytes")]
pub enum SizeLimit {
    /// One pattern's compiled program.
    Pattern(usize),
    /// All of a manifest's compiled patterns together.
    Manifest(usize),
}

/// Why a predicate was refused: the problem in words, and the size bound when that is it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredicateError {
    pub message: String,
    pub limit: Option<SizeLimit>,
}

impl From<String> for PredicateError {
    fn from(message: String) -> Self {
        PredicateError {
            message,
            limit: None,
        }
    }
}

/// What a manifest's patterns have cost so far, in bytes (see `COMPILE_TIERS`).
#[derive(Debug, Default)]
pub struct CompileBudget {
    spent: usize,
}

/// The operators, by their manifest spelling.
pub const OPERATORS: [&str; 6] = ["contains", "regex", "line-regex", "all", "any", "not"];

/// A compiled predicate.
#[derive(Debug, Clone)]
pub enum Predicate {
    /// Lowercased needle; matched against the lowercased region text.
    Contains(String, String),
    Regex(Regex),
    LineRegex(Regex),
    All(Vec<Predicate>),
    Any(Vec<Predicate>),
    Not(Box<Predicate>),
}

/// One node of an evaluated predicate, as `explain` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    pub op: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    pub matched: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Evidence>,
}

impl Predicate {
    /// Parses a `match` value; `Err` carries the problem, in words.
    pub fn parse(value: &toml::Value) -> Result<Predicate, String> {
        Self::parse_within(value, &mut CompileBudget::default()).map_err(|e| e.message)
    }

    /// Parses a `match` value, charging its patterns' compiled size to `budget` (one per
    /// manifest).
    pub fn parse_within(
        value: &toml::Value,
        budget: &mut CompileBudget,
    ) -> Result<Predicate, PredicateError> {
        let mut count = 0;
        let predicate = parse_node(value, 1, &mut count, budget)?;
        if count > MAX_MATCHERS {
            return Err(format!(
                "the predicate has {count} matchers; at most {MAX_MATCHERS} are allowed"
            )
            .into());
        }
        Ok(predicate)
    }

    /// Whether the region's `lines` satisfy this predicate.
    pub fn matches(&self, lines: &[String]) -> bool {
        self.evaluate(lines).matched
    }

    /// Evaluates every node, returning the evidence tree.
    pub fn evaluate(&self, lines: &[String]) -> Evidence {
        let leaf = |op, pattern: &str, matched| Evidence {
            op,
            pattern: Some(pattern.to_owned()),
            matched,
            children: Vec::new(),
        };
        match self {
            Predicate::Contains(pattern, needle) => {
                let matched = lines.join("\n").to_lowercase().contains(needle.as_str());
                leaf("contains", pattern, matched)
            }
            Predicate::Regex(re) => leaf("regex", re.as_str(), re.is_match(&lines.join("\n"))),
            Predicate::LineRegex(re) => leaf(
                "line-regex",
                re.as_str(),
                lines.iter().any(|l| re.is_match(l)),
            ),
            Predicate::All(children) => {
                combine("all", children, lines, |c| c.iter().all(|e| e.matched))
            }
            Predicate::Any(children) => {
                combine("any", children, lines, |c| c.iter().any(|e| e.matched))
            }
            Predicate::Not(child) => {
                let inner = child.evaluate(lines);
                Evidence {
                    op: "not",
                    pattern: None,
                    matched: !inner.matched,
                    children: vec![inner],
                }
            }
        }
    }
}

fn combine(
    op: &'static str,
    children: &[Predicate],
    lines: &[String],
    decide: impl Fn(&[Evidence]) -> bool,
) -> Evidence {
    let children: Vec<Evidence> = children.iter().map(|c| c.evaluate(lines)).collect();
    Evidence {
        op,
        pattern: None,
        matched: decide(&children),
        children,
    }
}

fn parse_node(
    value: &toml::Value,
    depth: usize,
    count: &mut usize,
    budget: &mut CompileBudget,
) -> Result<Predicate, PredicateError> {
    if depth > MAX_DEPTH {
        return Err(format!("predicates nest deeper than {MAX_DEPTH} levels").into());
    }
    *count += 1;
    let table = value
        .as_table()
        .ok_or_else(|| "a predicate must be a table such as { contains = \"text\" }".to_owned())?;
    let mut keys = table.keys();
    let (Some(op), None) = (keys.next(), keys.next()) else {
        return Err(format!(
            "a predicate has exactly one operator (one of {}), found {}",
            OPERATORS.join(", "),
            table.len()
        )
        .into());
    };
    let Some(arg) = table.get(op) else {
        return Err(format!("predicate operator {op:?} has no value").into());
    };
    match op.as_str() {
        "contains" => {
            let pattern = pattern(op, arg)?;
            Ok(Predicate::Contains(pattern.clone(), pattern.to_lowercase()))
        }
        "regex" => Ok(Predicate::Regex(compile(op, &pattern(op, arg)?, budget)?)),
        "line-regex" => Ok(Predicate::LineRegex(compile(
            op,
            &pattern(op, arg)?,
            budget,
        )?)),
        "all" | "any" => {
            let items = arg
                .as_array()
                .ok_or_else(|| format!("{op:?} takes a list of predicates"))?;
            if items.is_empty() {
                return Err(format!("{op:?} needs at least one predicate").into());
            }
            let children = items
                .iter()
                .map(|item| parse_node(item, depth + 1, count, budget))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if op == "all" {
                Predicate::All(children)
            } else {
                Predicate::Any(children)
            })
        }
        "not" => Ok(Predicate::Not(Box::new(parse_node(
            arg,
            depth + 1,
            count,
            budget,
        )?))),
        other => Err(format!(
            "unknown predicate operator {other:?} (expected one of {})",
            OPERATORS.join(", ")
        )
        .into()),
    }
}

fn pattern(op: &str, value: &toml::Value) -> Result<String, String> {
    let text = value
        .as_str()
        .ok_or_else(|| format!("{op:?} takes a string"))?;
    let chars = text.chars().count();
    if chars > MAX_PATTERN_CHARS {
        return Err(format!(
            "a {op:?} pattern is {chars} characters long; at most {MAX_PATTERN_CHARS} are allowed"
        ));
    }
    if text.is_empty() {
        return Err(format!("a {op:?} pattern is empty"));
    }
    Ok(text.to_owned())
}

/// Compiles `pattern` under the size limits, charging what it costs to `budget`: a pattern
/// whose program passes the per-pattern limit, or that takes the manifest past its total, is
/// refused naming the limit (a pattern within the length bound can still compile to gigabytes).
fn compile(op: &str, pattern: &str, budget: &mut CompileBudget) -> Result<Regex, PredicateError> {
    let build = |limit: usize| {
        RegexBuilder::new(pattern)
            .size_limit(limit)
            .dfa_size_limit(MAX_PATTERN_DFA_BYTES)
            .build()
    };
    for tier in COMPILE_TIERS {
        match build(tier) {
            Ok(regex) => {
                if budget.spent + tier > MAX_MANIFEST_COMPILED_BYTES {
                    return Err(PredicateError {
                        message: format!(
                            "the {op:?} pattern {pattern:?} takes the manifest's compiled patterns past {} KiB together (the limit)",
                            MAX_MANIFEST_COMPILED_BYTES / 1024
                        ),
                        limit: Some(SizeLimit::Manifest(MAX_MANIFEST_COMPILED_BYTES)),
                    });
                }
                budget.spent += tier;
                return Ok(regex);
            }
            Err(regex::Error::CompiledTooBig(_)) => continue,
            Err(e) => return Err(format!("invalid {op:?} pattern {pattern:?}: {e}").into()),
        }
    }
    Err(PredicateError {
        message: format!(
            "the {op:?} pattern {pattern:?} compiles past {} KiB (the limit for one pattern); simplify it (bounded repetitions of classes such as \\w multiply its size)",
            MAX_PATTERN_COMPILED_BYTES / 1024
        ),
        limit: Some(SizeLimit::Pattern(MAX_PATTERN_COMPILED_BYTES)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Predicate, String> {
        let value: toml::Value = toml::from_str(&format!("m = {text}")).unwrap();
        Predicate::parse(&value["m"])
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn contains_ignores_case_and_line_regex_needs_one_row() {
        let p = parse(
            r#"{ all = [ { contains = "Do You Want" }, { line-regex = '^\s*\d+\.\s+\S' } ] }"#,
        )
        .unwrap();
        assert!(p.matches(&lines("do you want to proceed?\n  1. Yes\n  2. No")));
        let evidence = p.evaluate(&lines("do you want to proceed?"));
        assert!(!evidence.matched);
        assert!(evidence.children[0].matched && !evidence.children[1].matched);
    }

    #[test]
    fn bounds_are_enforced() {
        let deep = (0..9).fold(r#"{ contains = "x" }"#.to_owned(), |inner, _| {
            format!("{{ not = {inner} }}")
        });
        assert!(parse(&deep).unwrap_err().contains("deeper than 8"));
        let many = format!(
            "{{ any = [ {} ] }}",
            vec![r#"{ contains = "x" }"#; 32].join(", ")
        );
        assert!(parse(&many).unwrap_err().contains("33 matchers"));
        let long = format!("{{ contains = \"{}\" }}", "a".repeat(513));
        assert!(parse(&long).unwrap_err().contains("513 characters"));
        assert!(parse(r#"{ regex = "(" }"#)
            .unwrap_err()
            .contains("invalid \"regex\""));
        assert!(parse(r#"{ startswith = "x" }"#)
            .unwrap_err()
            .contains("unknown predicate"));
    }

    /// A pattern within the length bound compiled for a minute to gigabytes: its compiled size
    /// is bounded and the refusal names the limit.
    #[test]
    fn a_pattern_that_compiles_too_big_is_refused_naming_the_limit() {
        let value: toml::Value =
            toml::from_str(r#"m = { regex = '(\w{1,100}\s){1,100}' }"#).unwrap();
        let error =
            Predicate::parse_within(&value["m"], &mut CompileBudget::default()).unwrap_err();
        assert_eq!(
            error.limit,
            Some(SizeLimit::Pattern(MAX_PATTERN_COMPILED_BYTES))
        );
        assert!(error.message.contains("256 KiB"), "{}", error.message);
        // Patterns that each fit still cannot add up past the manifest's total.
        let value: toml::Value = toml::from_str(r#"m = { regex = 'x' }"#).unwrap();
        let mut budget = CompileBudget::default();
        let refused = std::iter::repeat(())
            .map(|_| Predicate::parse_within(&value["m"], &mut budget))
            .take(MAX_MANIFEST_COMPILED_BYTES / COMPILE_TIERS[0] + 1)
            .find_map(Result::err)
            .expect("the total is bounded");
        assert_eq!(
            refused.limit,
            Some(SizeLimit::Manifest(MAX_MANIFEST_COMPILED_BYTES))
        );
    }
}
