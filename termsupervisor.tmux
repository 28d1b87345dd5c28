#!/bin/sh
# TPM runs the *.tmux files at the top of a plugin's repository: this is the tmux plugin, tmux/termsupervisor.tmux
# (docs/tmux.md). `set -g @plugin '<this repository>'` in ~/.tmux.conf, then prefix I.
exec "$(cd "$(dirname "$0")" && pwd)/tmux/termsupervisor.tmux"
