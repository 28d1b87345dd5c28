#!/bin/bash
# Re-makes docs/img/notification-desktop.png (issue 28): a real desktop notification, as the daemon's own desktop
# channel sends it, drawn by a real notification daemon on a virtual X screen. Nothing is mocked: Xvfb, a D-Bus
# session, dunst, the real notify-send, a real termsupervisor daemon watching a real tmux pane that asks a question.
# Not run by CI. Needs (Debian): apt-get install -y xvfb dbus-x11 dunst libnotify-bin imagemagick tmux
# adwaita-icon-theme (the icon the channel names, utilities-terminal)
# Run from a checkout after `npm run build`: scripts/notification-screenshot.sh [out.png]
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-$ROOT/docs/img/notification-desktop.png}
W=$(mktemp -d /tmp/ts-notify-shot.XXXXXX)
mkdir -p "$W"/{cfg/termsupervisor,state,run,data}
SOCK=ts-shot-$$

# A display nobody uses.
N=90
while [ -e /tmp/.X11-unix/X$N ] || [ -e /tmp/.X$N-lock ]; do N=$((N + 1)); done
export DISPLAY=:$N

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  tmux -L "$SOCK" kill-server 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT

Xvfb "$DISPLAY" -screen 0 1280x720x24 -nolisten tcp >"$W/xvfb.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -e /tmp/.X11-unix/X$N ] && break; sleep 0.1; done

# A session bus for the notification daemon and notify-send (the daemon's desktop channel) to meet on.
eval "$(dbus-launch --sh-syntax)"
PIDS+=("$DBUS_SESSION_BUS_PID")

# dunst: a plain, readable style; summary (the title) in bold, then the body.
cat >"$W/dunstrc" <<'EOF'
[global]
    font = DejaVu Sans 11
    width = 470
    height = 300
    origin = top-right
    offset = 20x20
    padding = 12
    horizontal_padding = 14
    frame_width = 2
    separator_height = 2
    markup = full
    format = "<b>%s</b>\n%b"
    word_wrap = yes
    show_indicators = yes
    icon_position = left
    min_icon_size = 32
    max_icon_size = 48
    icon_path = /usr/share/icons/Adwaita/48x48/legacy/:/usr/share/icons/Adwaita/48x48/apps/
    corner_radius = 6
[urgency_low]
    background = "#30343a"
    foreground = "#e8e8e8"
    frame_color = "#6b7280"
    timeout = 0
[urgency_normal]
    background = "#30343a"
    foreground = "#e8e8e8"
    frame_color = "#5b8fd6"
    timeout = 0
[urgency_critical]
    background = "#30343a"
    foreground = "#ffffff"
    frame_color = "#e5a13a"
    timeout = 0
EOF
dunst -config "$W/dunstrc" >"$W/dunst.log" 2>&1 &
PIDS+=($!)
sleep 1

# The daemon, with its own config and state, watching a private tmux server; notifications: the desktop only.
export XDG_CONFIG_HOME=$W/cfg XDG_STATE_HOME=$W/state XDG_RUNTIME_DIR=$W/run XDG_DATA_HOME=$W/data
echo '{ "notify": { "desktop": true, "group_s": 0 } }' >"$W/cfg/termsupervisor/config.json"
T="tmux -L $SOCK -f /dev/null"
$T new-session -d -s api -x 110 -y 30 -n deploy bash --norc
"$ROOT/bin/termsupervisor" daemon --port 0 --db "$W/data/history.sqlite" --tmux-socket "$SOCK" >"$W/daemon.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$W/run/termsupervisor/daemon.json" ] && break; sleep 0.1; done
sleep 2

# The pane asks: a release script waiting for a yes.
$T send-keys -t api:deploy "bash -c 'echo Building release 2.4.1; sleep 2; read -p \"Deploy 2.4.1 to production? [y/N] \" a'" Enter
for _ in $(seq 150); do
  [ "$(dunstctl count displayed 2>/dev/null || echo 0)" -gt 0 ] && break
  sleep 0.2
done
if [ "$(dunstctl count displayed 2>/dev/null || echo 0)" -eq 0 ]; then
  echo "no notification was shown; daemon log:" >&2
  cat "$W/state/termsupervisor/daemon.log" >&2 || true
  exit 1
fi
sleep 1

# The whole screen, then the notification cut out of it (the top-right corner, trimmed to its frame).
import -window root "$W/screen.png"
mkdir -p "$(dirname "$OUT")"
convert "$W/screen.png" -crop 520x260+760+0 +repage -trim +repage -bordercolor '#1b1f24' -border 12 -strip "$OUT"
grep '"kind":"notify"' "$W/state/termsupervisor/daemon.log" | grep '"reason"' || true
echo "wrote $OUT ($(stat -c %s "$OUT") bytes)"
