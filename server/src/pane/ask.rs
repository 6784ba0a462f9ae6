//! The ask title sentinel: a pane titled `phux-ask[ID]:QUESTION??s=A|B` is asking a question
//! with suggested answers A and B, exactly as `phux ask` reports one.

/// A question parsed from a title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TitleAsk {
    pub id: String,
    pub question: String,
    pub suggestions: Vec<String>,
}

pub fn parse_title(title: &str) -> Option<TitleAsk> {
    let rest = title.strip_prefix("phux-ask[")?;
    let (id, rest) = rest.split_once("]:")?;
    let (question, suggestions) = match rest.split_once("??s=") {
        Some((question, list)) => (
            question,
            list.split('|')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        // `QUESTION??` with no suggestions: the sentinel is not part of the question.
        None => (rest.strip_suffix("??").unwrap_or(rest), Vec::new()),
    };
    if question.is_empty() {
        return None;
    }
    Some(TitleAsk {
        id: id.to_string(),
        question: question.to_string(),
        suggestions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_contract_example() {
        let ask = parse_title("phux-ask[deploy]:Approve deploy??s=Yes|No").unwrap();
        assert_eq!(ask.id, "deploy");
        assert_eq!(ask.question, "Approve deploy");
        assert_eq!(ask.suggestions, vec!["Yes", "No"]);
        assert_eq!(
            parse_title("phux-ask[]:Continue?").unwrap().suggestions,
            Vec::<String>::new()
        );
        assert_eq!(
            parse_title("phux-ask[x]:Ship it??").unwrap().question,
            "Ship it"
        );
        assert!(parse_title("vim README.md").is_none());
        assert!(parse_title("phux-ask[x]:").is_none());
    }
}
