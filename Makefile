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

test: build
	npm test --silent

# The daemon in the foreground on the embedded SQLite default; it prints the dashboard's one-time link.
# Override with e.g. `make run ARGS="--port 0"`.
run: build
	bin/termsupervisor daemon $(ARGS)

bench: build
	npm run bench --silent

# Tails the JSONL event log written by `termsupervisor run`, one readable line per event.
loghook: build
	node dist/cli/loghook.js

lint: install
	npm run lint --silent

clean:
	rm -rf dist
