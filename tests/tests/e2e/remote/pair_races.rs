//! Issue 50: `phux pair revoke ID & phux pair --name x &`, 30 times, lost 19 revocations and 8
//! printed tokens, and a "revoked" token was admitted. Every change to the token store is now
//! one read-modify-write under its lock; this runs pair, revoke and rotate at once, as real
//! processes, 100 rounds, and checks that nothing printed was lost.

use std::time::Duration;

use phux_server::remote::tokens::{digest, Store};
use phux_tests::listening::Listening;
use phux_tests::{json, owner_ls, run_with_deadline, stderr};

const ROUNDS: usize = 100;

/// `phux pair ARGS --json` as its own process against the listener's store.
fn pair(listening: &Listening, args: &[String]) -> std::process::Output {
    let mut command = listening.server.phux(&["pair"]);
    command
        .args(args)
        .arg("--json")
        .env("PHUX_WS_TOKENS", &listening.tokens);
    run_with_deadline(&mut command, Duration::from_secs(30))
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// What one round printed: the new credential, and every token a rotation printed.
struct Round {
    minted: serde_json::Value,
    rotated: Vec<serde_json::Value>,
}

/// Mints round `i`'s credential while revoking and rotating the last round's, and rotating
/// the long-lived one, all at once.
fn round(listening: &Listening, i: usize, previous: &str, long_lived: &str) -> Round {
    let name = format!("round-{i}");
    std::thread::scope(|scope| {
        let mint = scope.spawn(|| pair(listening, &args(&["--name", &name])));
        let revoke = scope.spawn(|| pair(listening, &args(&["revoke", previous])));
        let rotate_long = scope.spawn(|| {
            pair(
                listening,
                &args(&["rotate", long_lived, "--overlap", "3600"]),
            )
        });
        let rotate_previous =
            scope.spawn(|| pair(listening, &args(&["rotate", previous, "--overlap", "3600"])));
        let minted = mint.join().unwrap();
        assert!(minted.status.success(), "pair: {}", stderr(&minted));
        let revoked = revoke.join().unwrap();
        assert!(revoked.status.success(), "revoke: {}", stderr(&revoked));
        let rotated_long = rotate_long.join().unwrap();
        assert!(
            rotated_long.status.success(),
            "rotate: {}",
            stderr(&rotated_long)
        );
        let mut rotated = vec![json(&rotated_long)];
        // Rotating a credential being revoked may come second and be refused: then it printed
        // no token. When it came first, its token must be kept (and revoked with the rest).
        let rotated_previous = rotate_previous.join().unwrap();
        if rotated_previous.status.success() {
            rotated.push(json(&rotated_previous));
        } else {
            assert!(
                stderr(&rotated_previous).contains("was revoked"),
                "{}",
                stderr(&rotated_previous)
            );
            assert!(rotated_previous.stdout.is_empty());
        }
        Round {
            minted: json(&minted),
            rotated,
        }
    })
}

#[test]
fn concurrent_pair_revoke_and_rotate_lose_nothing_they_printed() {
    let listening = Listening::start();
    let long_lived = listening.pair(&["--name", "long-lived"]);
    let long_id = long_lived["credential_id"].as_str().unwrap().to_owned();
    let first = listening.pair(&["--name", "round-0"]);
    let (figures, rounds) = owner_ls::during(&listening.server, "pair/revoke/rotate race", || {
        let mut previous = first["credential_id"].as_str().unwrap().to_owned();
        let mut rounds = Vec::new();
        for i in 1..=ROUNDS {
            let round = round(&listening, i, &previous, &long_id);
            previous = round.minted["credential_id"].as_str().unwrap().to_owned();
            rounds.push(round);
        }
        rounds
    });
    figures.assert_all_ok();
    let store = Store::load(&listening.tokens).unwrap();
    let stored: std::collections::HashSet<&str> = store
        .credentials
        .iter()
        .flat_map(|c| c.generations.iter().map(|g| g.sha256.as_str()))
        .collect();
    let credential = |id: &str| {
        store
            .credentials
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("credential {id} was printed but is not stored"))
    };
    let mut lost_tokens = 0;
    let mut lost_revocations = 0;
    let printed = std::iter::once(&first).chain(rounds.iter().map(|r| &r.minted));
    for (i, minted) in printed.enumerate() {
        let id = minted["credential_id"].as_str().unwrap();
        if !stored.contains(digest(minted["token"].as_str().unwrap()).as_str()) {
            lost_tokens += 1;
        }
        let revoked = credential(id).revoked;
        // Every round's credential was revoked by the next round; the last one was not.
        if i < ROUNDS && !revoked {
            lost_revocations += 1;
        }
        if i == ROUNDS {
            assert!(!revoked, "the last round's credential was never revoked");
        }
        // A revoked credential's tokens are refused, every generation of them.
        if revoked {
            assert!(store.admit(minted["token"].as_str()).is_err());
        }
    }
    for rotated in rounds.iter().flat_map(|r| &r.rotated) {
        if !stored.contains(digest(rotated["token"].as_str().unwrap()).as_str()) {
            lost_tokens += 1;
        }
    }
    let long = credential(&long_id);
    let generation = long.generations.iter().map(|g| g.generation).max();
    println!(
        "pair race: {ROUNDS} rounds of 4 processes; {lost_revocations} revocations lost, \
         {lost_tokens} printed tokens not stored; long-lived credential at generation {generation:?}"
    );
    assert_eq!(lost_revocations, 0, "revocations were lost");
    assert_eq!(lost_tokens, 0, "printed tokens were not stored");
    assert_eq!(generation, Some(u32::try_from(ROUNDS).unwrap() + 1));
    assert!(
        store.admit(long_lived["token"].as_str()).is_ok(),
        "inside its overlap"
    );
}

/// Two first `pair`s at once on a machine with no certificate yet used to make two, the
/// second replacing the first: one printed a fingerprint no listener would ever present. Now
/// the certificate is made once, under a lock; 8 first pairs at once, 5 times over, all print
/// the fingerprint of the certificate that stays.
#[test]
fn first_pairs_at_once_print_the_one_certificate_that_stays() {
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let tokens = dir.path().join("state/remote-tokens");
        let printed: Vec<String> = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..8)
                .map(|_| {
                    scope.spawn(|| {
                        let mut command = phux_tests::phux(&["pair", "--json"]);
                        command
                            .env("PHUX_WS_TOKENS", &tokens)
                            .env("PHUX_SOCKET", dir.path().join("none.sock"))
                            .env("PHUX_CONFIG", dir.path().join("config.toml"));
                        let output = run_with_deadline(&mut command, Duration::from_secs(30));
                        assert!(output.status.success(), "{}", stderr(&output));
                        json(&output)["cert_fingerprint"]
                            .as_str()
                            .unwrap()
                            .to_owned()
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let paths = phux_server::remote::cert::CertPaths::resolve(tokens.parent().unwrap(), None);
        let kept = phux_server::remote::cert::load_or_make(&paths)
            .unwrap()
            .fingerprint();
        assert!(printed.iter().all(|p| *p == kept), "{printed:?} vs {kept}");
    }
}
