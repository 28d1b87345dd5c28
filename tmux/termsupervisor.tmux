#!/bin/sh
# termsupervisor's tmux plugin. With TPM: `set -g @plugin '<this repository>'` (TPM runs this file). Without:
# one line in ~/.tmux.conf,   run-shell /path/to/termsupervisor/tmux/termsupervisor.tmux
# It sources termsupervisor.conf next to it (the same lines `termsupervisor tmux snippet` prints), after pointing
# @termsupervisor_bin at this checkout's command unless you chose one.
here=$(cd "$(dirname "$0")" && pwd)
# A checkout's command works once built (dist/); a TPM clone is not built: termsupervisor on PATH is used then.
if [ -z "$(tmux show-options -gqv @termsupervisor_bin)" ] && [ -x "$here/../bin/termsupervisor" ] && [ -f "$here/../dist/cli/main.js" ]; then
  tmux set-option -g @termsupervisor_bin "$(cd "$here/.." && pwd)/bin/termsupervisor"
fi
tmux source-file "$here/termsupervisor.conf"
