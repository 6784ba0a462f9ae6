//! Argument parsing of every verb and its usage errors (no server). Each command line is parsed
//! the way `phux` does (`Cli::try_from_args`, the named verb described alone) and must agree
//! with clap's description of the whole command line (`Cli::try_parse_from`).

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers fail loudly by design

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::Parser;
use phux_cli::cli::Cli;
use phux_cli::commands::signal::SignalArg;
use phux_cli::commands::tag::Action;
use phux_cli::commands::values::SplitArg;
use phux_cli::commands::Command;
use phux_core::documents::GridSize;

/// `args` parsed as `phux` parses them, after checking the whole command line agrees.
fn parse_both_ways(args: &[&str]) -> Result<Cli, clap::Error> {
    let argv: Vec<OsString> = std::iter::once("phux")
        .chain(args.iter().copied())
        .map(OsString::from)
        .collect();
    let whole = Cli::try_parse_from(argv.clone()).map(|_| ());
    let alone = Cli::try_from_args(argv);
    match (&whole, &alone) {
        (Ok(()), Ok(_)) => {}
        (Err(w), Err(a)) => assert_eq!(w.kind(), a.kind(), "{args:?}: error kinds differ"),
        _ => panic!(
            "{args:?}: parsed one way, not the other ({:?})",
            whole.err()
        ),
    }
    alone
}

fn parse(args: &[&str]) -> Command {
    match parse_both_ways(args) {
        Ok(cli) => cli.command,
        Err(e) => panic!("{args:?} did not parse: {e}"),
    }
}

fn usage_error(args: &[&str]) -> ErrorKind {
    match parse_both_ways(args) {
        Ok(_) => panic!("{args:?} parsed, expected a usage error"),
        Err(e) => {
            assert_eq!(e.exit_code(), 2, "{args:?}: usage errors exit 2");
            e.kind()
        }
    }
}

#[test]
fn global_socket_goes_before_or_after_the_verb() {
    for argv in [
        &["--socket", "/s.sock", "ls"][..],
        &["ls", "--socket", "/s.sock"][..],
    ] {
        let cli = parse_both_ways(argv).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            cli.globals.context().socket,
            std::path::Path::new("/s.sock")
        );
    }
}

#[test]
fn new_takes_a_name_session_cwd_env_and_command() {
    let Command::New(a) = parse(&[
        "new", "-s", "work", "-c", "/repo", "-e", "K=a=b", "--env", "X=", "--json", "--", "sh",
        "-c", "echo hi",
    ]) else {
        panic!("not new")
    };
    assert_eq!(a.session.as_deref(), Some("work"));
    assert_eq!(a.cwd.as_deref(), Some(std::path::Path::new("/repo")));
    assert_eq!(
        a.env,
        [
            ("K".to_owned(), "a=b".to_owned()),
            ("X".to_owned(), String::new())
        ]
    );
    assert!(a.json);
    assert_eq!(a.command, ["sh", "-c", "echo hi"]);

    let Command::New(a) = parse(&["new", "demo"]) else {
        panic!("not new")
    };
    assert_eq!(a.name.as_deref(), Some("demo"));
    assert!(a.command.is_empty());
}

#[test]
fn new_json_requires_session() {
    assert_eq!(
        usage_error(&["new", "--json"]),
        ErrorKind::MissingRequiredArgument
    );
    assert_eq!(
        usage_error(&["new", "work", "--json"]),
        ErrorKind::MissingRequiredArgument
    );
}

#[test]
fn new_refuses_a_malformed_env_and_two_names() {
    assert_eq!(
        usage_error(&["new", "-e", "NOEQUALS"]),
        ErrorKind::ValueValidation
    );
    assert_eq!(
        usage_error(&["new", "-e", "=v"]),
        ErrorKind::ValueValidation
    );
}

#[test]
fn ls_and_status_take_json() {
    let Command::Ls(a) = parse(&["ls", "--json"]) else {
        panic!("not ls")
    };
    assert!(a.json);
    let Command::Status(a) = parse(&["status"]) else {
        panic!("not status")
    };
    assert!(!a.json);
    assert_eq!(usage_error(&["ls", "extra"]), ErrorKind::UnknownArgument);
}

#[test]
fn spawn_defaults_and_flags() {
    let Command::Spawn(a) = parse(&["spawn"]) else {
        panic!("not spawn")
    };
    assert_eq!(a.split, SplitArg::Horizontal);
    assert_eq!(a.ratio, 0.5);
    assert!(a.target.is_none() && a.command.is_empty() && !a.json);

    let Command::Spawn(a) = parse(&[
        "spawn", "--target", "work:0", "--split", "vertical", "--ratio", "0.3", "-c", "/tmp", "-e",
        "A=1", "--json", "--", "htop",
    ]) else {
        panic!("not spawn")
    };
    assert_eq!(a.target.as_deref(), Some("work:0"));
    assert_eq!(a.split, SplitArg::Vertical);
    assert_eq!(a.ratio, 0.3);
    assert_eq!(a.command, ["htop"]);
    let Command::Spawn(a) = parse(&["spawn", "--split", "v"]) else {
        panic!("not spawn")
    };
    assert_eq!(a.split, SplitArg::Vertical);
}

#[test]
fn spawn_usage_errors() {
    assert_eq!(
        usage_error(&["spawn", "--split", "diagonal"]),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        usage_error(&["spawn", "--ratio", "half"]),
        ErrorKind::ValueValidation
    );
}

#[test]
fn kill_takes_a_target_or_server() {
    let Command::Kill(a) = parse(&["kill", "work:1"]) else {
        panic!("not kill")
    };
    assert_eq!(a.target.as_deref(), Some("work:1"));
    let Command::Kill(a) = parse(&["kill", "--server"]) else {
        panic!("not kill")
    };
    assert!(a.server && a.target.is_none());
    assert_eq!(usage_error(&["kill"]), ErrorKind::MissingRequiredArgument);
    assert_eq!(
        usage_error(&["kill", "@1", "--server"]),
        ErrorKind::ArgumentConflict
    );
}

#[test]
fn rename_takes_two_names() {
    let Command::Rename(a) = parse(&["rename", "old", "new"]) else {
        panic!("not rename")
    };
    assert_eq!((a.session.as_str(), a.new_name.as_str()), ("old", "new"));
    assert_eq!(
        usage_error(&["rename", "old"]),
        ErrorKind::MissingRequiredArgument
    );
}

#[test]
fn resize_parses_geometry() {
    let Command::Resize(a) = parse(&["resize", "--json", "demo", "120x40"]) else {
        panic!("not resize")
    };
    assert_eq!(
        a.geometry,
        GridSize {
            cols: 120,
            rows: 40
        }
    );
    assert!(a.json);
    for bad in ["0x40", "120x0", "120", "axb", "120x40x2"] {
        assert_eq!(
            usage_error(&["resize", "@1", bad]),
            ErrorKind::ValueValidation,
            "{bad}"
        );
    }
}

#[test]
fn signal_names() {
    for (name, want) in [
        ("interrupt", SignalArg::Interrupt),
        ("freeze", SignalArg::Freeze),
        ("resume", SignalArg::Resume),
        ("terminate", SignalArg::Terminate),
        ("kill", SignalArg::Kill),
    ] {
        let Command::Signal(a) = parse(&["signal", "@1", name]) else {
            panic!("not signal")
        };
        assert_eq!(a.signal, want);
    }
    assert_eq!(
        usage_error(&["signal", "@1", "hup"]),
        ErrorKind::InvalidValue
    );
}

#[test]
fn tag_actions_and_aliases() {
    let Command::Tag(a) = parse(&["tag", "ls", "@1", "--json"]) else {
        panic!("not tag")
    };
    assert!(a.json);
    assert!(matches!(a.action, Action::Ls { target: Some(ref t) } if t == "@1"));
    let Command::Tag(a) = parse(&["tag", "list"]) else {
        panic!("not tag")
    };
    assert!(matches!(a.action, Action::Ls { target: None }));
    let Command::Tag(a) = parse(&["tag", "--json", "add", "@1", "#build", "ci"]) else {
        panic!("not tag")
    };
    assert!(a.json);
    assert!(matches!(a.action, Action::Add { ref tags, .. } if tags == &["#build", "ci"]));
    let Command::Tag(a) = parse(&["tag", "remove", "@1", "ci"]) else {
        panic!("not tag")
    };
    assert!(matches!(a.action, Action::Rm { .. }));
    assert_eq!(
        usage_error(&["tag", "add", "@1"]),
        ErrorKind::MissingRequiredArgument
    );
    assert_eq!(
        usage_error(&["tag"]),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
}

#[test]
fn send_keys_takes_everything_after_target_as_keys() {
    let Command::SendKeys(a) = parse(&["send-keys", "@1", "echo -n hi", "-x", "--json", "Enter"])
    else {
        panic!("not send-keys")
    };
    assert_eq!(a.target, "@1");
    assert_eq!(a.keys, ["echo -n hi", "-x", "--json", "Enter"]);
    assert_eq!(
        usage_error(&["send-keys", "@1"]),
        ErrorKind::MissingRequiredArgument
    );
}

#[test]
fn paste_text_is_optional() {
    let Command::Paste(a) = parse(&["paste", "@1"]) else {
        panic!("not paste")
    };
    assert!(a.text.is_none());
    let Command::Paste(a) = parse(&["paste", "@1", "-- not a flag"]) else {
        panic!("not paste")
    };
    assert_eq!(a.text.as_deref(), Some("-- not a flag"));
}

#[test]
fn spatial_edits() {
    let Command::InsertPane(a) = parse(&[
        "insert-pane",
        "@7",
        "@9",
        "--split",
        "vertical",
        "--ratio",
        "0.3",
        "--json",
    ]) else {
        panic!("not insert-pane")
    };
    assert_eq!((a.target.as_str(), a.new_pane.as_str()), ("@7", "@9"));
    assert_eq!((a.split, a.ratio, a.json), (SplitArg::Vertical, 0.3, true));
    let Command::MovePane(a) = parse(&["move-pane", "@1", "work:0.1"]) else {
        panic!("not move-pane")
    };
    assert_eq!((a.split, a.ratio), (SplitArg::Horizontal, 0.5));
    let Command::SwapPane(a) = parse(&["swap-pane", "@1", "@2", "--json"]) else {
        panic!("not swap-pane")
    };
    assert!(a.json);
    assert_eq!(
        usage_error(&["swap-pane", "@1"]),
        ErrorKind::MissingRequiredArgument
    );
    assert_eq!(
        usage_error(&["swap-pane", "@1", "@2", "--ratio", "0.5"]),
        ErrorKind::UnknownArgument
    );
}
