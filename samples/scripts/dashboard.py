#!/usr/bin/env python3
"""A top-like dashboard for the sample corpus: a header of load and memory bars, per-core
meters and a process table whose numbers change, redrawn in place five times a second in the
alternate screen (what htop, btop and k9s look like to a recorder). Seeded, so every run
draws the same screens. Usage: dashboard.py [SECONDS]"""

import os
import random
import shutil
import sys
import time

RESET, BOLD, DIM = "\x1b[0m", "\x1b[1m", "\x1b[2m"
GREEN, YELLOW, RED, CYAN, BLUE, MAGENTA = (f"\x1b[{n}m" for n in (32, 33, 31, 36, 34, 35))
HEADER_BG = "\x1b[30;46m"
COMMANDS = ["postgres", "nginx: worker", "node server.js", "python3 -m celery", "redis-server",
            "java -jar app.jar", "cargo build", "rustc", "sshd: deploy", "containerd",
            "kubelet", "prometheus", "grafana-server", "bash", "vim notes.md", "htop"]


def bar(width, fraction):
    filled = int(round(width * fraction))
    colour = GREEN if fraction < 0.5 else YELLOW if fraction < 0.8 else RED
    return f"[{colour}{'|' * filled}{RESET}{' ' * (width - filled)}] {fraction * 100:5.1f}%"


def draw(rng, tick, cols, rows, procs):
    lines = []
    load = [rng.uniform(0.5, 4.0) for _ in range(3)]
    lines.append(f"{BOLD}dash{RESET} - {time.strftime('%H:%M:%S', time.gmtime(tick))} up 12 days, "
                 f"load average: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    half = (cols - 12) // 2 - 10
    for core in range(0, 8, 2):
        left = f"{CYAN}cpu{core}{RESET} {bar(half, rng.random())}"
        right = f"{CYAN}cpu{core + 1}{RESET} {bar(half, rng.random())}"
        lines.append(f"{left}  {right}")
    mem = 0.55 + 0.1 * rng.random()
    lines.append(f"{MAGENTA}Mem{RESET}  {bar(cols - 20, mem)}")
    lines.append(f"{MAGENTA}Swp{RESET}  {bar(cols - 20, 0.02)}")
    lines.append(f"Tasks: {BOLD}{len(procs) + 200}{RESET}, {GREEN}{rng.randint(1, 6)} running{RESET}")
    lines.append("")
    lines.append(f"{HEADER_BG}{'PID':>7} {'USER':<9} {'PRI':>3} {'VIRT':>8} {'RES':>7} "
                 f"S {'CPU%':>5} {'MEM%':>5} {'TIME+':>9}  COMMAND".ljust(cols) + RESET)
    for p in procs:
        p["cpu"] = max(0.0, p["cpu"] + rng.uniform(-3, 3))
        p["time"] += p["cpu"] / 500
    procs.sort(key=lambda p: -p["cpu"])
    for p in procs[: rows - len(lines) - 1]:
        state = f"{GREEN}R{RESET}" if p["cpu"] > 5 else "S"
        cpu_colour = RED if p["cpu"] > 50 else YELLOW if p["cpu"] > 10 else ""
        minutes, seconds = divmod(p["time"], 60)
        lines.append(f"{p['pid']:>7} {p['user']:<9} {20:>3} {p['virt']:>7}M {p['res']:>6}M "
                     f"{state} {cpu_colour}{p['cpu']:5.1f}{RESET} {p['mem']:5.1f} "
                     f"{int(minutes):>5}:{seconds:05.2f}  {BLUE if p['user'] == 'root' else ''}"
                     f"{p['cmd']}{RESET}")
    footer = f"{DIM}F1{RESET}Help {DIM}F2{RESET}Setup {DIM}F3{RESET}Search {DIM}F9{RESET}Kill {DIM}F10{RESET}Quit"
    body = "".join(f"\x1b[{i + 1};1H{line}\x1b[K" for i, line in enumerate(lines))
    sys.stdout.write(body + f"\x1b[{len(lines) + 1}J\x1b[{rows};1H{footer}")
    sys.stdout.flush()


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
    cols, rows = shutil.get_terminal_size()
    rng = random.Random(34)
    procs = [{"pid": rng.randint(100, 99999), "user": rng.choice(["root", "deploy", "www-data", "pg"]),
              "virt": rng.randint(10, 9000), "res": rng.randint(1, 900), "cpu": rng.uniform(0, 40),
              "mem": rng.uniform(0, 8), "time": rng.uniform(0, 5000), "cmd": rng.choice(COMMANDS)}
             for _ in range(60)]
    sys.stdout.write("\x1b[?1049h\x1b[?25l\x1b[2J")
    start = time.monotonic()
    tick = 0
    while time.monotonic() - start < seconds:
        draw(rng, 1764600000 + tick, cols, rows, procs)
        tick += 1
        time.sleep(0.2)
    sys.stdout.write("\x1b[?25h\x1b[?1049l")
    sys.stdout.flush()


if __name__ == "__main__":
    os.environ.setdefault("TERM", "xterm-256color")
    main()
