#!/usr/bin/env python3
"""Records a scripted shell session as an asciicast v2 file: a real bash in a pseudo-terminal,
keys typed at a person's pace, output stamped on a clock that steps over long pauses instead of
waiting through them, so a ten-minute session that is mostly idle records in half a minute.
The rest of the samples are recorded by `phux rec` in real time (make-samples.sh,
make-corpus.sh); these two are made here because their shape is their timing (idle) or their
text is what is tested (emoji).

Usage: pty_session.py emoji|idle OUT.cast
  emoji  80x24: status lines, commit subjects and file names with emoji (wide ones, text-form
         ones, a flag and a ZWJ sequence), printed by bash and ls
  idle   120x36: ten minutes at a prompt: a few commands, then long gaps with nothing on screen
"""

import codecs
import fcntl
import json
import os
import pty
import select
import struct
import sys
import tempfile
import termios
import time

PS1 = r"\[\e[1;32m\]dev\[\e[0m\]:\[\e[1;34m\]\W\[\e[0m\]\$ "


class Session:
    """A bash in a pty whose output is kept with timestamps on the session clock."""

    def __init__(self, cols, rows, cwd):
        self.cols, self.rows = cols, rows
        self.clock = 0.0
        self.events = []
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(cwd)
            env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": os.environ["PATH"],
                   "HOME": cwd, "PS1": PS1}
            os.execvpe("bash", ["bash", "--norc", "--noprofile", "-i"], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def wait(self, seconds, settle=0.25):
        """Collects output for at most `settle` real seconds, then moves the clock on by
        `seconds` (output is stamped at the clock plus the real time it took to come)."""
        start = time.monotonic()
        while (left := settle - (time.monotonic() - start)) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                break
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                break
            text = self.decoder.decode(data)
            if text:
                at = self.clock + min(time.monotonic() - start, seconds)
                self.events.append([round(at, 6), "o", text])
        self.clock += seconds

    def type(self, line, pace=0.07):
        """Types `line` a key at a time, then Enter, and waits for the command's output."""
        for i, ch in enumerate(line):
            os.write(self.fd, ch.encode())
            self.wait(pace + 0.05 * ((i * 7) % 3), settle=0.02)
        self.wait(0.3, settle=0.02)
        os.write(self.fd, b"\r")
        self.wait(1.0, settle=0.5)

    def save(self, path, command):
        events = list(self.events)  # the shell's goodbye is not part of the session
        os.write(self.fd, b"exit\r")
        self.wait(0.1)
        os.waitpid(self.pid, 0)
        header = {"version": 2, "width": self.cols, "height": self.rows,
                  "timestamp": 1796140800, "command": command,
                  "env": {"TERM": "xterm-256color", "SHELL": "/bin/bash"}}
        with open(path, "w", encoding="utf-8") as out:
            out.write(json.dumps(header, ensure_ascii=False) + "\n")
            for event in events:
                out.write(json.dumps(event, ensure_ascii=False) + "\n")


def emoji(out):
    with tempfile.TemporaryDirectory() as cwd:
        for name in ["📦 release.tar.gz", "🎵 song.mp3", "notes.md", "🔥hot-fix.patch"]:
            open(os.path.join(cwd, name), "w").close()
        s = Session(80, 24, cwd)
        s.wait(0.5)
        s.type("echo '✅ build   ❌ test   🚀 deploy   ⏳ queued   🔒 secrets'")
        s.type("printf '%s\\n' '✨ feat: colour emoji in frames' '🐛 fix: box table bars' "
               "'📝 docs: encoders' '🎉 release 1.0'")
        s.type("ls -1")
        s.type("echo 'text forms: © ® ™ ❤ ⚠ ☀ #1   flag: 🇯🇵   zwj: 👩‍💻   tone: 👍🏽'")
        s.wait(1.5)
        s.save(out, "bash (samples/scripts/pty_session.py emoji)")


def idle(out):
    with tempfile.TemporaryDirectory() as cwd:
        with open(os.path.join(cwd, "todo.txt"), "w") as f:
            f.write("review the encoder change\nreply to the issue\nship 0.9\n")
        s = Session(120, 36, cwd)
        s.wait(4.0)
        s.type("ls -la --color=always /etc | head -20")
        s.wait(95.0)
        s.type("cat todo.txt")
        s.wait(150.0)
        s.type("uname -sm; echo $((6 * 7))")
        s.wait(12.0)
        s.type("ls --color=always -F /usr | column -c 120")
        s.wait(180.0)
        s.type("seq 1 5 | paste -sd+ | bc")
        s.wait(140.0)
        s.type("echo back in ten")
        s.wait(8.0)
        s.save(out, "bash (samples/scripts/pty_session.py idle)")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("emoji", "idle"):
        sys.exit(__doc__)
    {"emoji": emoji, "idle": idle}[sys.argv[1]](sys.argv[2])
