//! Detection manifests: one TOML file per agent kind, parsed and checked whole. A manifest that
//! breaks a bound (too many rules, too deep, too many matchers, a long pattern, a bad regex, an
//! unknown state or region) is refused with the file, the rule and the problem: a half-loaded
//! manifest is worse than none.

use std::collections::BTreeSet;

use crate::agents::predicate::{CompileBudget, Predicate, SizeLimit};
use crate::agents::record::AgentState;
use crate::agents::region::Region;

/// Most rules one manifest may hold.
pub const MAX_RULES: usize = 128;

/// One detection rule.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    /// `None` on a freeze rule.
    pub state: Option<AgentState>,
    pub priority: i64,
    pub region: Region,
    pub visible_idle: bool,
    pub skip_state_update: bool,
    pub predicate: Predicate,
}

/// A loaded manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub kind: String,
    pub name: String,
    pub binaries: Vec<String>,
    pub rules: Vec<Rule>,
    /// Where it came from (`builtin:claude` or a file path), for messages.
    pub origin: String,
}

/// Why a manifest was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {}{problem}", rule.as_ref().map(|r| format!("rule {r:?}: ")).unwrap_or_default())]
pub struct ManifestError {
    pub file: String,
    pub rule: Option<String>,
    pub problem: String,
    /// The compiled-size bound broken, when that is the problem.
    pub limit: Option<SizeLimit>,
}

impl Manifest {
    /// Parses and checks `text`; `origin` names the file in errors.
    pub fn parse(origin: &str, text: &str) -> Result<Manifest, ManifestError> {
        let error = |rule: Option<&str>, problem: String| ManifestError {
            file: origin.to_owned(),
            rule: rule.map(str::to_owned),
            problem,
            limit: None,
        };
        let doc: toml::Table =
            toml::from_str(text).map_err(|e| error(None, format!("not valid TOML: {e}")))?;
        let string = |key: &str| -> Result<String, ManifestError> {
            match doc.get(key) {
                Some(toml::Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                Some(_) => Err(error(None, format!("`{key}` must be a non-empty string"))),
                None => Err(error(None, format!("`{key}` is missing"))),
            }
        };
        let kind = string("kind")?;
        let name = match doc.get("name") {
            None => kind.clone(),
            Some(_) => string("name")?,
        };
        let binaries = match doc.get("binaries") {
            None => Vec::new(),
            Some(toml::Value::Array(items)) => items
                .iter()
                .map(|i| i.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| error(None, "`binaries` must be a list of strings".into()))?,
            Some(_) => return Err(error(None, "`binaries` must be a list of strings".into())),
        };
        for key in doc.keys() {
            if !["kind", "name", "binaries", "rules"].contains(&key.as_str()) {
                return Err(error(None, format!("unknown key `{key}`")));
            }
        }
        let raw_rules = match doc.get("rules") {
            None => Vec::new(),
            Some(toml::Value::Array(items)) => items.clone(),
            Some(_) => {
                return Err(error(
                    None,
                    "`rules` must be an array of tables ([[rules]])".into(),
                ))
            }
        };
        if raw_rules.len() > MAX_RULES {
            return Err(error(
                None,
                format!("{} rules; at most {MAX_RULES} are allowed", raw_rules.len()),
            ));
        }
        let mut seen = BTreeSet::new();
        let mut rules = Vec::with_capacity(raw_rules.len());
        let mut budget = CompileBudget::default();
        for (index, raw) in raw_rules.iter().enumerate() {
            let rule = parse_rule(index, raw, &mut budget).map_err(|(rule, problem, limit)| {
                ManifestError {
                    limit,
                    ..error(Some(&rule), problem)
                }
            })?;
            if !seen.insert(rule.id.clone()) {
                return Err(error(
                    Some(&rule.id),
                    "the id is used by another rule".into(),
                ));
            }
            rules.push(rule);
        }
        Ok(Manifest {
            kind,
            name,
            binaries,
            rules,
            origin: origin.to_owned(),
        })
    }

    /// Whether an occupant called any of `names` selects this manifest.
    pub fn claims(&self, names: &[String]) -> bool {
        names.iter().any(|n| self.binaries.iter().any(|b| b == n))
    }
}

type RuleError = (String, String, Option<SizeLimit>);

fn parse_rule(
    index: usize,
    raw: &toml::Value,
    budget: &mut CompileBudget,
) -> Result<Rule, RuleError> {
    let fallback_id = format!("#{}", index + 1);
    let table = raw.as_table().ok_or_else(|| {
        (
            fallback_id.clone(),
            "a rule must be a table".to_owned(),
            None,
        )
    })?;
    let id = match table.get("id") {
        Some(toml::Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            return Err((
                fallback_id,
                "`id` is missing or not a non-empty string".into(),
                None,
            ))
        }
    };
    let fail = |problem: String| (id.clone(), problem, None);
    for key in table.keys() {
        let known = [
            "id",
            "state",
            "priority",
            "region",
            "visible-idle",
            "skip-state-update",
            "match",
        ];
        if !known.contains(&key.as_str()) {
            return Err(fail(format!("unknown key `{key}`")));
        }
    }
    let state = match table.get("state") {
        None => None,
        Some(toml::Value::String(s)) => Some(
            s.parse::<AgentState>()
                .ok()
                .filter(|s| *s != AgentState::Unknown)
                .ok_or_else(|| {
                    fail(format!(
                        "unknown state {s:?} (expected idle, working, blocked or done)"
                    ))
                })?,
        ),
        Some(_) => return Err(fail("`state` must be a string".into())),
    };
    let flag = |key: &str| -> Result<bool, RuleError> {
        match table.get(key) {
            None => Ok(false),
            Some(toml::Value::Boolean(b)) => Ok(*b),
            Some(_) => Err(fail(format!("`{key}` must be true or false"))),
        }
    };
    let visible_idle = flag("visible-idle")?;
    let skip_state_update = flag("skip-state-update")?;
    match (skip_state_update, state) {
        (true, Some(_)) => {
            return Err(fail(
                "a freeze rule (skip-state-update) takes no state".into(),
            ))
        }
        (false, None) => {
            return Err(fail(
                "`state` is missing (only a freeze rule omits it)".into(),
            ))
        }
        _ => {}
    }
    if visible_idle && state != Some(AgentState::Idle) {
        return Err(fail("visible-idle is only for an idle rule".into()));
    }
    let priority = match table.get("priority") {
        None => 0,
        Some(toml::Value::Integer(n)) => *n,
        Some(_) => return Err(fail("`priority` must be an integer".into())),
    };
    let region = match table.get("region") {
        None => Region::Viewport,
        Some(toml::Value::String(s)) => {
            Region::parse(s).ok_or_else(|| fail(format!("unknown region {s:?}")))?
        }
        Some(_) => return Err(fail("`region` must be a string".into())),
    };
    let predicate = match table.get("match") {
        Some(value) => {
            Predicate::parse_within(value, budget).map_err(|e| (id.clone(), e.message, e.limit))?
        }
        None => return Err(fail("`match` is missing".into())),
    };
    Ok(Rule {
        id,
        state,
        priority,
        region,
        visible_idle,
        skip_state_update,
        predicate,
    })
}

/// The manifests in force: the built-ins, with a directory's files replacing a built-in of the
/// same kind or adding kinds.
#[derive(Debug, Clone, Default)]
pub struct ManifestSet {
    manifests: Vec<Manifest>,
}

impl ManifestSet {
    /// The compiled-in manifests.
    pub fn builtin() -> Result<ManifestSet, ManifestError> {
        let mut set = ManifestSet::default();
        for (kind, text) in crate::agents::builtin::MANIFESTS {
            set.insert(Manifest::parse(&format!("builtin:{kind}"), text)?);
        }
        Ok(set)
    }

    /// Adds `manifest`, replacing one of the same kind.
    pub fn insert(&mut self, manifest: Manifest) {
        self.manifests.retain(|m| m.kind != manifest.kind);
        self.manifests.push(manifest);
    }

    pub fn get(&self, kind: &str) -> Option<&Manifest> {
        self.manifests.iter().find(|m| m.kind == kind)
    }

    /// The manifest an occupant with these candidate names selects, trying names in order.
    pub fn for_occupant(&self, names: &[String]) -> Option<&Manifest> {
        names.iter().find_map(|name| {
            self.manifests
                .iter()
                .find(|m| m.binaries.iter().any(|b| b == name))
        })
    }

    /// Every kind, sorted: the roster a refusal lists.
    pub fn kinds(&self) -> Vec<String> {
        let mut kinds: Vec<String> = self.manifests.iter().map(|m| m.kind.clone()).collect();
        kinds.sort();
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        Manifest::parse("rules/x.toml", text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn the_builtins_load() {
        let set = ManifestSet::builtin().unwrap();
        assert_eq!(
            set.kinds(),
            vec!["claude", "codex", "omp", "opencode", "pi"]
        );
    }

    #[test]
    fn refusals_name_the_file_the_rule_and_the_problem() {
        let head = "kind = \"x\"\n";
        assert_eq!(
            refused(&format!("{head}[[rules]]\nid = \"a\"\nstate = \"sleeping\"\nmatch = {{ contains = \"x\" }}")),
            "rules/x.toml: rule \"a\": unknown state \"sleeping\" (expected idle, working, blocked or done)"
        );
        assert_eq!(
            refused(&format!("{head}[[rules]]\nid = \"a\"\nstate = \"idle\"\nregion = \"middle\"\nmatch = {{ contains = \"x\" }}")),
            "rules/x.toml: rule \"a\": unknown region \"middle\""
        );
        assert!(refused(&format!(
            "{head}[[rules]]\nid = \"a\"\nstate = \"idle\"\nmatch = {{ regex = \"[\" }}"
        ))
        .starts_with("rules/x.toml: rule \"a\": invalid \"regex\" pattern"));
        let many: String = (0..129)
            .map(|i| {
                format!(
                    "[[rules]]\nid = \"r{i}\"\nstate = \"idle\"\nmatch = {{ contains = \"x\" }}\n"
                )
            })
            .collect();
        assert_eq!(
            refused(&format!("{head}{many}")),
            "rules/x.toml: 129 rules; at most 128 are allowed"
        );
        assert!(refused("name = \"x\"").contains("`kind` is missing"));
        assert!(refused("kind = ").starts_with("rules/x.toml: not valid TOML"));
        assert!(refused(&format!("{head}[[rules]]\nid = \"a\"\nstate = \"idle\"\nskip-state-update = true\nmatch = {{ contains = \"x\" }}"))
            .contains("takes no state"));
        assert!(refused(&format!("{head}[[rules]]\nid = \"a\"\nstate = \"idle\"\nmatch = {{ contains = \"x\" }}\n[[rules]]\nid = \"a\"\nstate = \"idle\"\nmatch = {{ contains = \"y\" }}"))
            .contains("used by another rule"));
    }
}
