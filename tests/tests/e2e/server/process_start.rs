//! What `phux`'s own entry point keeps of Rust's start-up (see `cli/src/main.rs`): a closed
//! pipe is an error the command reports, not a silent death by SIGPIPE.

#![allow(clippy::expect_used, clippy::unwrap_used)] // a test fails loudly by design

use phux_tests::TestServer;
use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

#[test]
fn a_reader_that_went_away_is_not_a_signal() {
    let server = TestServer::start();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = server
        .phux(&["ls", "--json"])
        .stdout(writer)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.signal(), None, "phux died of a signal: {status:?}");
    assert!(status.code().is_some());
}
