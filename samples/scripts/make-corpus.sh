#!/usr/bin/env bash
# Records the benchmark corpus in samples/corpus/ with phux itself, from real programs, in the
# shapes people record: at 120x36 a flood of coloured log lines, a top-like dashboard redrawn
# five times a second, a multi-line progress display and a shell session with colour ls and git
# output; at 80x24 vim editing a file and a screen of CJK text.
# Usage: samples/scripts/make-corpus.sh [path/to/phux [NAME...]]   (default: the debug build,
# every recording; NAMEs: logflood dashboard progress-multi shell-session vim-80x24 cjk-80x24)
# The ten-minute idle session (idle-10min.cast) is made by pty_session.py idle, which steps over
# its gaps instead of waiting ten minutes.
set -euo pipefail
cd "$(dirname "$0")/../corpus"
phux=${1:-../../target/x86_64-unknown-linux-gnu/debug/phux}
phux=$(realpath "$phux")
scripts=$(realpath ../scripts)
work=$(mktemp -d)
chmod 700 "$work"
export PHUX_SOCKET=$work/phux.sock
trap '"$phux" kill --server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
shift || true
names=("$@")
want() { [ ${#names[@]} -eq 0 ] || [[ " ${names[*]} " == *" $1 "* ]]; }

# 1. A log flood: 4000 coloured lines, written in bursts as a busy service logs them.
want logflood && "$phux" rec -o logflood.cast --overwrite --size 120x36 -- bash -c '
  levels=("\e[32mINFO \e[0m" "\e[32mINFO \e[0m" "\e[32mINFO \e[0m" "\e[36mDEBUG\e[0m" "\e[33mWARN \e[0m" "\e[1;31mERROR\e[0m")
  modules=(http::server db::pool cache::redis worker::jobs auth::session)
  paths=(/api/v1/items /api/v1/users /healthz /api/v2/search /static/app.js)
  RANDOM=34
  for ((i = 0; i < 4000; i++)); do
    printf "\e[2m2026-12-01T16:%02d:%02d.%03dZ\e[0m %b \e[35m%-15s\e[0m request_id=%08x method=GET path=%s status=%d latency=%dms\n" \
      $((i / 600)) $((i / 10 % 60)) $((i * 37 % 1000)) "${levels[RANDOM % 6]}" "${modules[RANDOM % 5]}" \
      $((RANDOM * RANDOM)) "${paths[RANDOM % 5]}" $((RANDOM % 8 ? 200 : 503)) $((RANDOM % 900))
    if ((i % 40 == 39)); then sleep 0.03; fi
  done' >/dev/null

# 2. A top-like dashboard: a full screen of meters and a process table, redrawn every 200 ms.
want dashboard && "$phux" rec -o dashboard.cast --overwrite --size 120x36 -- python3 "$scripts/dashboard.py" 6 >/dev/null

# 3. A multi-line progress display: four downloads and a total, redrawn in place 20 times a
#    second, as package managers draw them.
want progress-multi && "$phux" rec -o progress-multi.cast --overwrite --size 120x36 -- bash -c '
  printf "\e[1mFetching 4 packages\e[0m\n"
  names=("libghostty-vt 2.4 MiB" "unifont-bitmap 11.2 MiB" "serde_json 148 KiB" "regex-automata 612 KiB")
  rates=(3 1 9 5)
  spin="|/-\\"
  for n in "${names[@]}"; do echo; done; echo
  for ((t = 0; t <= 100; t++)); do
    printf "\e[5A"
    total=0
    for k in 0 1 2 3; do
      p=$((t * rates[k])); ((p > 100)) && p=100; total=$((total + p))
      filled=$(printf "%*s" $((p * 60 / 100)) "" | tr " " "=")
      if ((p == 100)); then mark="\e[32m✔\e[0m"; else mark="\e[33m${spin:t%4:1}\e[0m"; fi
      printf "\r %b %-26s \e[36m[%-60s]\e[0m %3d%%\e[K\n" "$mark" "${names[k]}" "$filled" "$p"
    done
    printf "\r \e[1mtotal\e[0m %3d%% \e[2m(%d of 4 done)\e[0m\e[K\n" $((total / 4)) $(( (t*3>=100) + (t>=100) + (t*9>=100) + (t*5>=100) ))
    sleep 0.05
  done
  printf "\n\e[1;32m    Finished\e[0m 4 packages in 5.1s\n"' >/dev/null

# 4. A shell session typed key by key: colour ls, git log and diff stat, grep with colour.
type_keys() { # pane, text: types like a person, then Enter
  local pane=$1 text=$2 i
  for ((i = 0; i < ${#text}; i++)); do
    "$phux" send-keys "$pane" "${text:i:1}"
    sleep 0.03
  done
  sleep 0.2
  "$phux" send-keys "$pane" Enter
}
shell_session() {
repo=$(git rev-parse --show-toplevel)
pane=@$("$phux" new -s shell --json -- bash --norc --noprofile | sed 's/.*"terminal_id":\([0-9]*\).*/\1/')
"$phux" resize "$pane" 120x36 >/dev/null
"$phux" send-keys "$pane" "cd $repo; PS1='\[\e[1;32m\]dev\[\e[0m\]:\[\e[1;34m\]~/phux\[\e[0m\]\$ '; clear" Enter
sleep 0.5
"$phux" rec "$pane" -o shell-session.cast --overwrite >/dev/null 2>&1 &
rec=$!
sleep 0.5
type_keys "$pane" "ls --color=always -l /usr/bin | head -20"
sleep 0.8
type_keys "$pane" "git log --color=always --oneline --graph --decorate -n 12 0ee4e72 | cut -c1-118"
sleep 0.8
type_keys "$pane" "ls --color=always -F /etc | column -c 120 | head -12"
sleep 0.8
type_keys "$pane" "grep --color=always -n 'fn ' encoders/src/gif_lzw.rs | head -8"
sleep 1.5
kill -INT "$rec"; wait "$rec" || true
"$phux" kill shell >/dev/null
}
want shell-session && shell_session


# 5. vim at 80x24: a Rust file opened with syntax colours, a function typed in, a search, a
#    split and a save.
vim_session() {
  cp ../../encoders/src/timing.rs "$work/timing.rs"
  local pane
  pane=@$("$phux" new -s vim --json -- vim -u NONE -N -c 'syntax on' -c 'set number' "$work/timing.rs" | sed 's/.*"terminal_id":\([0-9]*\).*/\1/')
  "$phux" resize "$pane" 80x24 >/dev/null
  sleep 0.8
  "$phux" rec "$pane" -o vim-80x24.cast --overwrite >/dev/null 2>&1 &
  rec=$!
  sleep 0.5
  for key in G o; do "$phux" send-keys "$pane" "$key"; sleep 0.1; done
  for line in "/// Hundredths of a second, as GIF counts them." "pub fn centis(secs: f64) -> u64 {" "    (secs * 100.0).round() as u64" "}"; do
    for ((i = 0; i < ${#line}; i++)); do "$phux" send-keys "$pane" "${line:i:1}"; sleep 0.02; done
    "$phux" send-keys "$pane" Enter
  done
  "$phux" send-keys "$pane" Escape
  sleep 1.2 # vim -u NONE waits a second to tell a lone Escape from a key sequence
  for key in g g / c l o c k Enter; do "$phux" send-keys "$pane" "$key"; sleep 0.08; done
  sleep 0.5
  for key in : v s p l i t Enter; do "$phux" send-keys "$pane" "$key"; sleep 0.05; done
  sleep 0.8
  for key in : w a Enter; do "$phux" send-keys "$pane" "$key"; sleep 0.05; done
  sleep 1
  kill -INT "$rec"; wait "$rec" || true
  "$phux" kill vim >/dev/null
}
want vim-80x24 && vim_session

# 6. CJK at 80x24: wide characters in prose, a table and coloured file names, printed by a
#    shell a command at a time.
want cjk-80x24 && "$phux" rec -o cjk-80x24.cast --overwrite --size 80x24 -- bash -c '
  show() { printf "\e[1;32m$\e[0m %s\n" "$1"; sleep 0.4; eval "$1"; sleep 0.6; }
  mkdir -p /tmp/phux-cjk-$$ && cd /tmp/phux-cjk-$$ && touch 報告書.txt 写真.png 음악.mp3 中文文档.md
  show "cat <<< \"吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\""
  show "printf \"%s\\n\" \"床前明月光，疑是地上霜。\" \"举头望明月，低头思故乡。\""
  show "echo 다람쥐 헌 쳇바퀴에 타고파 — 한국어 문장"
  show "ls --color=always -1"
  show "printf \"┌────────┬──────────┐\\n│ 名前   │ 状態     │\\n├────────┼──────────┤\\n│ 東京   │ \\e[32m稼働中\\e[0m   │\\n│ 大阪   │ \\e[31m停止\\e[0m     │\\n└────────┴──────────┘\\n\""
  cd / && rm -rf /tmp/phux-cjk-$$
  sleep 1' >/dev/null

ls -l ./*.cast
