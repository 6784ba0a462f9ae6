//! Occupant identity: the names a foreground process goes by, from its argv and `comm`. For an
//! interpreter (`node`, `bun`, `python3`, `deno`, and a shell running a script) the script's
//! name counts, and so do the directories above it: npm installs put an agent under a package
//! directory (`.../@anthropic-ai/claude-code/cli.js`).

/// Programs whose first non-flag argument is the program that really runs.
const INTERPRETERS: [&str; 11] = [
    "node", "nodejs", "bun", "deno", "python", "python3", "sh", "bash", "dash", "zsh", "env",
];

/// Script extensions dropped from a script's name.
const SCRIPT_EXTENSIONS: [&str; 6] = [".js", ".mjs", ".cjs", ".ts", ".py", ".sh"];

/// Directory names too generic to name an occupant.
const GENERIC_DIRS: [&str; 8] = [
    "bin",
    "lib",
    "dist",
    "build",
    "src",
    "node_modules",
    "usr",
    "local",
];

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn strip_extension(name: &str) -> &str {
    SCRIPT_EXTENSIONS
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(name)
}

/// The names an occupant goes by, most specific first: argv[0]'s basename, `comm`, and for an
/// interpreter the script's name then the directories above it, innermost first.
pub fn occupant_names(argv: &[String], comm: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        if !name.is_empty() && !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    };
    let Some(first) = argv.first() else {
        push(comm);
        return names;
    };
    let program = basename(first);
    push(program.strip_prefix('-').unwrap_or(program));
    push(comm);
    if !INTERPRETERS.contains(&program) {
        return names;
    }
    let mut args = argv[1..].iter();
    while let Some(arg) = args.next() {
        if arg == "-c" || arg == "-e" || arg == "--eval" {
            return names;
        }
        if arg.starts_with('-') || (program == "env" && arg.contains('=')) {
            continue;
        }
        let script = basename(arg);
        if program == "env" {
            // `env NAME=V prog ...`: prog is the occupant, maybe an interpreter itself.
            let rest: Vec<String> = std::iter::once(arg.clone()).chain(args.cloned()).collect();
            for name in occupant_names(&rest, "") {
                push(&name);
            }
            return names;
        }
        push(strip_extension(script));
        push(script);
        let dirs: Vec<&str> = arg.split('/').collect();
        for dir in dirs.iter().rev().skip(1) {
            if !dir.is_empty() && !GENERIC_DIRS.contains(dir) {
                push(dir);
            }
        }
        return names;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(argv: &[&str], comm: &str) -> Vec<String> {
        let argv: Vec<String> = argv.iter().map(|s| (*s).to_owned()).collect();
        occupant_names(&argv, comm)
    }

    #[test]
    fn an_npm_install_is_named_by_its_package() {
        let n = names(
            &[
                "node",
                "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js",
            ],
            "node",
        );
        assert!(n.contains(&"claude-code".to_owned()), "{n:?}");
        assert_eq!(n[0], "node");
    }

    #[test]
    fn a_script_is_named_by_its_file() {
        assert!(names(&["/bin/bash", "/tmp/x/bin/claude"], "claude").contains(&"claude".into()));
        assert!(names(&["python3", "-u", "codex.py"], "python3").contains(&"codex".into()));
        assert_eq!(names(&["bash", "--norc", "-i"], "bash"), vec!["bash"]);
        assert_eq!(names(&["bash", "-c", "claude"], "bash"), vec!["bash"]);
        assert!(names(&["codex", "--model", "x"], "codex").contains(&"codex".into()));
    }
}
