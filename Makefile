# termsupervisor — the two commands a fresh machine needs: `make run` and `make test`.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.package-lock.json

.PHONY: install build test run bench loghook lint clean

# npm ci from the committed lock; re-run only when the lock changes.
$(NODE_MODULES_STAMP): package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

build: install
	npm run build --silent

# The dashboard's browser tests drive Debian's Chromium (playwright-core downloads no browser): install it when it
# is missing and we are root; otherwise say how. Without it those tests are skipped, loudly.
test: build
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "termsupervisor: installing chromium for the dashboard browser tests (apt-get)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; } \
	      || echo "termsupervisor: WARNING: apt-get could not install chromium: the dashboard browser tests will be SKIPPED"; \
	  else \
	    echo "termsupervisor: WARNING: /usr/bin/chromium is missing and installing it needs root (sudo apt-get install chromium): the dashboard browser tests will be SKIPPED"; \
	  fi; \
	fi
	@# The tmux tests drive a real tmux server (>= 3.2) on a private socket: installed the same way when missing.
	@if ! command -v tmux >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "termsupervisor: installing tmux for the tmux tests (apt-get)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tmux >/dev/null; } \
	      || echo "termsupervisor: WARNING: apt-get could not install tmux: the tmux tests will be SKIPPED"; \
	  else \
	    echo "termsupervisor: WARNING: tmux is missing and installing it needs root (sudo apt-get install tmux): the tmux tests will be SKIPPED"; \
	  fi; \
	fi
	@# The remote tests start a real OpenSSH server (sshd on 127.0.0.1, keys in a temp folder) and reach tmux through ssh.
	@if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "termsupervisor: installing openssh-server and openssh-client for the remote (ssh) tests (apt-get)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssh-server openssh-client >/dev/null; } \
	      || echo "termsupervisor: WARNING: apt-get could not install openssh-server: the remote ssh tests will be SKIPPED"; \
	  else \
	    echo "termsupervisor: WARNING: sshd is missing and installing it needs root (sudo apt-get install openssh-server): the remote ssh tests will be SKIPPED"; \
	  fi; \
	fi
	@# The shell-integration tests start a real zsh and fish (bash is always there): installed the same way when missing.
	@for sh in zsh fish; do \
	  if ! command -v $$sh >/dev/null; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	      echo "termsupervisor: installing $$sh for the shell-integration tests (apt-get)"; \
	      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$sh >/dev/null; } \
	        || echo "termsupervisor: WARNING: apt-get could not install $$sh: its shell-integration tests will be SKIPPED"; \
	    else \
	      echo "termsupervisor: WARNING: $$sh is missing and installing it needs root (sudo apt-get install $$sh): its shell-integration tests will be SKIPPED"; \
	    fi; \
	  fi; \
	done
	@# The iTerm2 bridge's own tests: Python 3's unittest with fakes of iterm2 and the daemon, nothing to install.
	@# (npm test also runs the conformance test with the REAL iterm2 library when ITERM2_LIBRARY_PATH names it or
	@# python3 imports it; otherwise it prints that it SKIPPED. docs/iterm2-bridge.md#tests)
	@if command -v python3 >/dev/null; then python3 -m unittest discover -s bridge/tests; \
	  else echo "termsupervisor: WARNING: python3 is missing: the iTerm2 bridge tests will be SKIPPED"; fi
	npm test --silent

# The daemon in the foreground on the embedded SQLite default; it prints the dashboard's one-time link.
# Override with e.g. `make run ARGS="--port 0"`.
run: build
	bin/termsupervisor daemon $(ARGS)

bench: build
	npm run bench --silent

# Follows the daemon's log and the wrappers' event log, one readable line per event (ARGS="--pane api").
loghook: build
	node dist/cli/loghook.js $(ARGS)

lint: install
	npm run lint --silent

clean:
	rm -rf dist
