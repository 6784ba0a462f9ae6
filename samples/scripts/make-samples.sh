#!/usr/bin/env bash
# Records the sample casts in samples/ with phux itself, from real programs: a colourful shell
# session, a progress bar, vim editing a file, a screen of CJK text and box drawing, and top.
# Usage: samples/scripts/make-samples.sh [path/to/phux]   (default: target/x86_64-unknown-linux-gnu/release/phux)
set -euo pipefail
cd "$(dirname "$0")/.."
phux=${1:-../target/x86_64-unknown-linux-gnu/release/phux}
phux=$(realpath "$phux")
work=$(mktemp -d)
chmod 700 "$work"
export PHUX_SOCKET=$work/phux.sock
trap '"$phux" kill --server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

type_keys() { # pane, text: types like a person, then Enter
  local pane=$1 text=$2 i
  for ((i = 0; i < ${#text}; i++)); do
    "$phux" send-keys "$pane" "${text:i:1}"
    sleep 0.04
  done
  sleep 0.2
  "$phux" send-keys "$pane" Enter
}

record_live() { # pane, output; the recorder's pid goes in $rec
  "$phux" rec "$1" -o "$2" --overwrite >/dev/null 2>&1 &
  rec=$!
  sleep 0.5
}

# 1. A colourful shell session.
pane=@$("$phux" new -s shell --json -- bash --norc --noprofile | sed 's/.*"terminal_id":\([0-9]*\).*/\1/')
"$phux" resize "$pane" 100x30 >/dev/null
"$phux" send-keys "$pane" "PS1='\[\e[1;32m\]demo\[\e[0m\]:\[\e[1;34m\]~/phux\[\e[0m\]\$ '; clear" Enter
sleep 0.5
record_live "$pane" shell.cast
type_keys "$pane" "ls --color=always -l /usr | head -12"
sleep 0.8
type_keys "$pane" "for c in 31 32 33 34 35 36; do printf '\e[1;%sm%s\e[0m ' \$c colour-\$c; done; echo"
sleep 0.8
type_keys "$pane" "printf '\e[48;5;%sm  ' {16..51}; printf '\e[0m\n'"
sleep 0.8
type_keys "$pane" "git --version; uname -sm"
sleep 1.5
kill -INT "$rec"; wait "$rec" || true
"$phux" kill shell

# 2. A progress bar.
"$phux" rec -o progress.cast --overwrite --size 100x30 -- bash -c '
  printf "\e[1mBuilding phux\e[0m\n\n"
  for i in $(seq 0 2 100); do
    filled=$(printf "%*s" $((i / 2)) "" | tr " " "#")
    printf "\r  \e[36m[%-50s]\e[0m %3d%%  compiling crate %d of 51" "$filled" "$i" $((i / 2 + 1))
    sleep 0.05
  done
  printf "\n\n\e[1;32m    Finished\e[0m release build in 2.6s\n"' >/dev/null

# 3. vim, a full-screen program.
printf 'fn main() {\n    println!("hello from phux");\n}\n' > "$work/main.rs"
pane=@$("$phux" new -s vim --json -- vim -u NONE -N -c 'syntax on' -c 'set number' "$work/main.rs" | sed 's/.*"terminal_id":\([0-9]*\).*/\1/')
"$phux" resize "$pane" 120x36 >/dev/null
sleep 0.8
record_live "$pane" vim.cast
"$phux" send-keys "$pane" G o
sleep 0.3
for line in "// recorded with phux rec" "fn demo() -> u32 { 42 }"; do
  for ((i = 0; i < ${#line}; i++)); do "$phux" send-keys "$pane" "${line:i:1}"; sleep 0.03; done
  "$phux" send-keys "$pane" Enter
done
"$phux" send-keys "$pane" Escape
sleep 1.2 # vim -u NONE waits a second to tell a lone Escape from a key sequence
# Typed key by key: a literal run right before Enter would arrive as one (bracketed) paste.
for key in : s p l i t Enter; do "$phux" send-keys "$pane" "$key"; sleep 0.05; done
sleep 1
kill -INT "$rec"; wait "$rec" || true
"$phux" kill vim

# 4. CJK, kana, Hangul, symbols and box drawing (the glyph coverage sample).
"$phux" rec -o glyphs.cast --overwrite --size 60x14 -- bash -c '
  printf "┌──────────────────────────────────────┐\n"
  printf "│ \e[1m日本語\e[0m かなカナ 한국어 中文 ✓ ★ → ∑  │\n"
  printf "├────────────┬─────────────────────────┤\n"
  printf "│ \e[31mΕλληνικά\e[0m   │ \e[32mРусский\e[0m ░▒▓█ ▁▂▃▄▅▆▇█   │\n"
  printf "╞════════════╪═════════════════════════╡\n"
  printf "│ ⠁⠃⠉⠙⠑⠋⠛⠓   │ \e[7m inverse \e[0m \e[4munder\e[0m \e[9mstrike\e[0m  │\n"
  printf "╰────────────┴─────────────────────────╯\n"
  sleep 0.5' >/dev/null
# 5. top: a full-screen program redrawing numbers all over the screen every half second.
"$phux" rec -o top.cast --overwrite --size 100x30 --duration 5 -- top -d 0.5 >/dev/null

echo "samples written: $(ls ./*.cast | tr '\n' ' ')"
