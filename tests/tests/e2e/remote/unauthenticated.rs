//! Issue 50: 256 TCP connections that send nothing, reopened whenever the listener dropped
//! them, held it (legitimate wss connections succeeded 0 of 16 in 35 s) and wrote 151,755 log
//! lines. Connections without a token now have a pool of their own, a place per address that
//! a newcomer takes back from a silent one, a 3 s TLS deadline, and rate-limited log lines.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use phux_tests::listening::Listening;
use phux_tests::owner_ls;

const IDLE: usize = 256;
const ATTACK: Duration = Duration::from_secs(15);
const LEGITIMATE: usize = 16;

/// Holds [`IDLE`] connections that send nothing, reopening each the moment it is dropped,
/// until `stop`; returns how many times one was reopened.
fn hold_idle(port: u16, stop: &AtomicBool) -> usize {
    let connect = || TcpStream::connect(("127.0.0.1", port)).ok();
    let mut held: Vec<Option<TcpStream>> = (0..IDLE).map(|_| connect()).collect();
    let mut reopened = 0;
    let mut probe = [0u8; 1];
    while !stop.load(Ordering::SeqCst) {
        for slot in &mut held {
            let gone = match slot {
                Some(stream) => {
                    stream.set_nonblocking(true).ok();
                    match stream.peek(&mut probe) {
                        Ok(0) => true,
                        Ok(_) => false,
                        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                    }
                }
                None => true,
            };
            if gone {
                *slot = connect();
                reopened += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    reopened
}

/// Dials [`LEGITIMATE`] wss sessions one after another (hello answered by welcome), printing
/// one line per attempt: its outcome and how long it took.
const DIAL: &str = r#"
ok = 0
for i in range(int(os.environ["N"])):
    start = time.time()
    try:
        s = tls(); head = upgrade(s, "/wire", "Authorization: Bearer " + os.environ["TOKEN"] + "\r\n")
        send(s, 2, frame({"type": "hello", "protocol": {"major": 1, "minor": 0}, "client": "probe"}))
        welcome = wire_messages(s, 1)[0]
        good = welcome.get("type") == "welcome"
        s.close()
    except Exception as e:
        good = False
    ok += good
    print(json.dumps({"ok": good, "s": time.time() - start}), flush=True)
    time.sleep(0.5)
"#;

/// Dials [`LEGITIMATE`] sessions from `source` while the idle connections are held.
fn dial_during(listening: &Listening, token: &str, source: &str) -> Vec<serde_json::Value> {
    let mut dialer = listening.probe_spawn(
        DIAL,
        &[
            ("TOKEN", token),
            ("N", &LEGITIMATE.to_string()),
            ("SOURCE", source),
        ],
    );
    let dials = BufReader::new(dialer.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str(&l).ok())
        .collect();
    let _ = dialer.wait();
    dials
}

fn succeeded(dials: &[serde_json::Value]) -> usize {
    dials.iter().filter(|d| d["ok"] == true).count()
}

/// The attacker holds its connections from 127.0.0.1; a legitimate client from another
/// address (127.0.0.2) is never held out, and one from the attacker's own address is counted.
#[test]
fn idle_connections_reopened_in_a_loop_hold_no_one_out_and_the_log_stays_small() {
    let listening = Listening::start();
    let token = listening.pair(&[]);
    let token = token["token"].as_str().unwrap().to_owned();
    let log_path = listening.server.dir.path().join("server.log");
    let log_before = std::fs::metadata(&log_path).map_or(0, |m| m.len());
    let stop = Arc::new(AtomicBool::new(false));
    let port = listening.port;
    let (figures, (reopened, elsewhere, same)) =
        owner_ls::during(&listening.server, "256 idle TCP", || {
            std::thread::scope(|scope| {
                let attacker = scope.spawn(|| hold_idle(port, &stop));
                std::thread::sleep(Duration::from_secs(1));
                let started = Instant::now();
                let elsewhere = dial_during(&listening, &token, "127.0.0.2");
                let same = dial_during(&listening, &token, "127.0.0.1");
                std::thread::sleep(ATTACK.saturating_sub(started.elapsed()));
                stop.store(true, Ordering::SeqCst);
                (attacker.join().unwrap(), elsewhere, same)
            })
        });
    figures.assert_all_ok();
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let log_growth = std::fs::metadata(&log_path).map_or(0, |m| m.len()) - log_before;
    let remote_lines = log.lines().filter(|l| l.contains("remote:")).count();
    println!(
        "256 idle TCP: idle connections reopened {reopened} times; legitimate wss from another \
         address {}/{}, from the attacker's own address {}/{}; log grew {log_growth} bytes, \
         {remote_lines} remote lines",
        succeeded(&elsewhere),
        elsewhere.len(),
        succeeded(&same),
        same.len(),
    );
    assert_eq!(elsewhere.len(), LEGITIMATE, "{elsewhere:?}");
    assert_eq!(
        succeeded(&elsewhere),
        LEGITIMATE,
        "legitimate wss sessions failed: {elsewhere:?}"
    );
    assert!(
        reopened > 0,
        "the listener never let go of an idle connection"
    );
    // One line per kind per 10 s, and one per legitimate session: not one per refusal.
    assert!(
        remote_lines < 100,
        "{remote_lines} remote lines for {reopened} reopened connections:\n{log}"
    );
}
