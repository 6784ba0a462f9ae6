//! This machine's overlay-network addresses, best effort: its own IPv4 addresses in
//! 100.64.0.0/10 (the shared range Tailscale and other overlays hand out), read from the
//! kernel's routing table, and what `tailscale ip -4` says when Tailscale is installed
//! (`PHUX_TAILSCALE` names another binary). Empty, never an error, when nothing is found.

use std::net::Ipv4Addr;
use std::process::{Command, Stdio};

pub fn addresses() -> Vec<String> {
    let mut found: Vec<Ipv4Addr> = local_ipv4()
        .into_iter()
        .filter(|a| is_overlay(*a))
        .collect();
    for address in tailscale() {
        if !found.contains(&address) {
            found.push(address);
        }
    }
    found.iter().map(Ipv4Addr::to_string).collect()
}

/// 100.64.0.0/10.
pub fn is_overlay(address: Ipv4Addr) -> bool {
    let [a, b, ..] = address.octets();
    a == 100 && (64..128).contains(&b)
}

/// The addresses the kernel delivers locally (`/32 host LOCAL` in `/proc/net/fib_trie`).
fn local_ipv4() -> Vec<Ipv4Addr> {
    let Ok(text) = std::fs::read_to_string("/proc/net/fib_trie") else {
        return Vec::new();
    };
    parse_fib_trie(&text)
}

fn parse_fib_trie(text: &str) -> Vec<Ipv4Addr> {
    let mut last = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("|-- ") {
            last = rest.parse::<Ipv4Addr>().ok();
        } else if trimmed.starts_with("/32 host LOCAL") {
            if let Some(address) = last {
                if !out.contains(&address) {
                    out.push(address);
                }
            }
        }
    }
    out
}

fn tailscale() -> Vec<Ipv4Addr> {
    let program = std::env::var("PHUX_TAILSCALE").unwrap_or_else(|_| "tailscale".into());
    let Ok(output) = Command::new(program)
        .args(["ip", "-4"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
    else {
        return Vec::new();
    };
    if !output.status.success() {
        return Vec::new();
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_addresses_are_read_from_the_routing_table_and_filtered_to_the_overlay_range() {
        let table = "Main:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 0.0.0.0\n        /0 universe UNICAST\n\
                     \x20    +-- 100.64.0.0/10 2 0 2\n        |-- 100.101.5.7\n           /32 host LOCAL\n\
                     \x20       |-- 10.0.0.4\n           /32 host LOCAL\n";
        let local = parse_fib_trie(table);
        assert_eq!(
            local,
            vec![
                "100.101.5.7".parse::<Ipv4Addr>().unwrap(),
                "10.0.0.4".parse().unwrap()
            ]
        );
        assert!(is_overlay("100.64.0.1".parse().unwrap()));
        assert!(!is_overlay("100.128.0.1".parse().unwrap()));
    }
}
