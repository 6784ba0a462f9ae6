//! Prints the figures of the many-machines issue, local and satellite side by side:
//!
//! 1. `phux snapshot` of a pane on the hub vs. the same through the hub on a satellite (over
//!    the stand-in ssh, over a real sshd on localhost when one can start, and over the
//!    satellite's TLS WebSocket listener, `wss://`);
//! 2. output recorded at the hub (`phux rec PANE -o x.cast`): MB/s local vs. satellite;
//! 3. `phux ls --json` on a hub with 10 satellites of 10 panes each;
//! 4. `phux ls --json` with one satellite unreachable vs. none.
//!
//! `cargo run -p phux-tests --example hosts_bench [--release] -- [--mb N] [--runs N]`.
//! Figures, not a test: nothing here asserts a time.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::{Duration, Instant};

use phux_tests::fleet::Fleet;
use phux_tests::listening::Listening;
use phux_tests::sshd::Sshd;
use phux_tests::{run_with_deadline, stderr, TestServer};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<usize>().unwrap())
    };
    let mb = value("--mb").unwrap_or(100);
    let runs = value("--runs").unwrap_or(30);
    println!("phux: {}", phux_tests::phux_bin().display());

    let mut fleet = Fleet::start();
    fleet.add_satellite("devbox");
    let far = fleet.satellites["devbox"].plain_shell("w", "sh");
    let far = format!("devbox/{far}");
    fleet.wait_listed(&far);
    let near = fleet.hub.plain_shell("home", "sh");

    println!("\n1. snapshot, median of {runs} runs of the CLI");
    let local = median(runs, || time(&fleet, &["snapshot", &near]));
    let stand_in = median(runs, || time(&fleet, &["snapshot", &far]));
    row("local @N", local, local);
    row("satellite (stand-in ssh)", stand_in, local);
    let real = real_ssh_fleet();
    if let Some((real_fleet, real_far, _sshd, _satellite)) = &real {
        let over_ssh = median(runs, || time(real_fleet, &["snapshot", real_far]));
        row("satellite (sshd on localhost)", over_ssh, local);
        let trip = round_trip(real_fleet, "real", runs * 10);
        println!(
            "   satellite - local = {:.2} ms; one request over the ssh link = {:.2} ms \
             (goal: <= one round trip + 1 ms)",
            ms(over_ssh) - ms(local),
            ms(trip)
        );
    } else {
        println!("   (no sshd on localhost: the real-ssh row is skipped)");
    }
    let wss = wss_fleet();
    let (wss_fleet, wss_far, _wss_satellite) = &wss;
    let over_wss = median(runs, || time(wss_fleet, &["snapshot", wss_far]));
    row("satellite (wss on localhost)", over_wss, local);
    let trip = round_trip(wss_fleet, "viawss", runs * 10);
    println!(
        "   satellite - local = {:.2} ms; one request over the wss link = {:.2} ms",
        ms(over_wss) - ms(local),
        ms(trip)
    );

    println!("\n2. {mb} MB of output recorded at the hub");
    let local_rate = record_rate(&fleet, None, mb);
    println!("   local                         {local_rate:8.1} MB/s");
    let far_rate = record_rate(&fleet, Some("devbox"), mb);
    println!(
        "   satellite (stand-in ssh)      {far_rate:8.1} MB/s  ({:.2}x local; goal >= 0.8x)",
        far_rate / local_rate
    );
    if let Some((real_fleet, _, _sshd, _satellite)) = &real {
        let rate = record_rate(real_fleet, Some("real"), mb);
        println!(
            "   satellite (sshd on localhost) {rate:8.1} MB/s  ({:.2}x local)",
            rate / local_rate
        );
    }
    let rate = record_rate(wss_fleet, Some("viawss"), mb);
    println!(
        "   satellite (wss on localhost)  {rate:8.1} MB/s  ({:.2}x local)",
        rate / local_rate
    );
    drop(real);
    drop(wss);

    println!("\n3. ls --json, 10 satellites of 10 panes each");
    let mut big = Fleet::start();
    for i in 0..10 {
        let name = format!("s{i}");
        big.add_satellite(&name);
        for p in 0..10 {
            let server = &big.satellites[&name];
            let output = server.run(&[
                "new",
                "-s",
                &format!("p{p}"),
                "--json",
                "--",
                "sleep",
                "3600",
            ]);
            assert!(output.status.success(), "{}", stderr(&output));
        }
    }
    big.wait_listed("s9/@10");
    let listed = big.listing()["terminals"].as_array().unwrap().len();
    let ls = median(runs, || time(&big, &["ls", "--json"]));
    let bare = TestServer::start();
    let empty = median(runs, || {
        let start = Instant::now();
        let output = run_with_deadline(&mut bare.phux(&["ls", "--json"]), Duration::from_secs(10));
        assert!(output.status.success());
        start.elapsed()
    });
    row(&format!("hub, {listed} terminals"), ls, empty);
    row("lone server, no satellites", empty, empty);

    println!("\n4. ls --json with a satellite unreachable");
    big.set_down("s0", true);
    let mut s0 = big.satellites.remove("s0").unwrap();
    s0.crash();
    let start = Instant::now();
    while big.listing()["unreachable"].as_array().unwrap().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(50));
    }
    let down = median(runs, || time(&big, &["ls", "--json"]));
    row("one of 10 unreachable", down, ls);
    println!(
        "   delay from the unreachable satellite: {:.2} ms (goal < 100 ms)",
        ms(down) - ms(ls)
    );
}

/// The median time of one request answered by satellite `name` over an open tunnel: a round
/// trip over the link (plus the hub's hop), measured in-process.
fn round_trip(fleet: &Fleet, name: &str, runs: usize) -> Duration {
    let mut client = phux_cli::client::Client::connect(&fleet.hub.socket).unwrap();
    client.tunnel(name).unwrap();
    client.state().unwrap();
    median(runs, || {
        let start = Instant::now();
        client.state().unwrap();
        start.elapsed()
    })
}

/// A hub whose satellite `real` is reached over a real sshd on localhost.
fn real_ssh_fleet() -> Option<(Fleet, String, Sshd, TestServer)> {
    let empty = tempfile::NamedTempFile::new().unwrap();
    let satellite = TestServer::start_with_env(&[], &[("PHUX_CONFIG", empty.path().as_os_str())]);
    let sshd = Sshd::start(&satellite.socket)
        .map_err(|why| println!("   (sshd: {why})"))
        .ok()?;
    let fleet = Fleet::start_with_ssh(Some(&sshd.ssh_command()));
    let output = fleet.run(&[
        "host",
        "add",
        "real",
        &sshd.endpoint(),
        "--role",
        "satellite",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let pane = satellite.plain_shell("w", "sh");
    let far = format!("real/{pane}");
    fleet.wait_listed(&far);
    Some((fleet, far, sshd, satellite))
}

/// A hub whose satellite `viawss` is reached over its listener (`wss://127.0.0.1:PORT`), paired
/// with a token and the certificate pinned, as `docs/remote.md` says.
fn wss_fleet() -> (Fleet, String, Listening) {
    let satellite = Listening::start();
    let paired = satellite.pair(&[]);
    let token_file = satellite.token_file("hub.token", paired["token"].as_str().unwrap());
    let port = satellite.port;
    let fleet = Fleet::start();
    let output = fleet.run(&[
        "host",
        "add",
        "viawss",
        &format!("wss://127.0.0.1:{port}"),
        "--role",
        "satellite",
        "--token-file",
        token_file.to_str().unwrap(),
        "--fingerprint",
        paired["cert_fingerprint"].as_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let pane = satellite.server.plain_shell("w", "sh");
    let far = format!("viawss/{pane}");
    fleet.wait_listed(&far);
    (fleet, far, satellite)
}

/// MB/s of `rec PANE -o x.cast` while the pane writes `mb` MB (after a go from send-keys, so
/// the clock starts with the output) and exits.
fn record_rate(fleet: &Fleet, satellite: Option<&str>, mb: usize) -> f64 {
    let script = format!("read go; head -c {mb}000000 /dev/zero | tr '\\0' x");
    let mut spawn = vec!["spawn", "--json"];
    if let Some(name) = satellite {
        spawn.extend(["--satellite", name]);
    } else {
        spawn.extend(["--target", "home"]);
    }
    spawn.extend(["--", "sh", "-c", &script]);
    let output = fleet.run(&spawn);
    assert!(output.status.success(), "spawn: {}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let pane = match satellite {
        Some(name) => format!("{name}/@{}", doc["terminal_id"]),
        None => format!("@{}", doc["terminal_id"]),
    };
    let cast = fleet
        .dir
        .path()
        .join(format!("bench-{}.cast", pane.replace('/', "-")));
    let rec = fleet
        .phux(&["rec", &pane, "-o", cast.to_str().unwrap(), "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    let go = fleet.run(&["send-keys", &pane, "Enter"]);
    assert!(go.status.success(), "send-keys: {}", stderr(&go));
    let output = rec.wait_with_output().unwrap();
    let elapsed = start.elapsed();
    assert!(output.status.success(), "rec: {}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let bytes = doc["bytes"].as_f64().unwrap();
    bytes / 1e6 / elapsed.as_secs_f64()
}

fn time(fleet: &Fleet, args: &[&str]) -> Duration {
    let start = Instant::now();
    let output = run_with_deadline(&mut fleet.phux(args), Duration::from_secs(20));
    let elapsed = start.elapsed();
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    elapsed
}

fn median(runs: usize, mut measure: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..runs.max(1)).map(|_| measure()).collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn row(label: &str, value: Duration, reference: Duration) {
    println!(
        "   {label:<30} {:8.2} ms  ({:.2}x)",
        ms(value),
        ms(value) / ms(reference)
    );
}
