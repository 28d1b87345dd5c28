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

# Until the daemon lands (next issue), `run` starts a watched shell: the wrapper with the detector on it.
run: build
	@echo "termsupervisor: watching a new shell; state transitions go to $$(node -e "import('./dist/cli/paths.js').then(m=>console.log(m.eventLogPath()))")"
	@echo "  (in another terminal: make loghook)"
	bin/termsupervisor run --name shell -- $${SHELL:-bash}

bench: build
	npm run bench --silent

# Tails the JSONL event log written by `termsupervisor run`, one readable line per event.
loghook: build
	node dist/cli/loghook.js

lint: install
	npm run lint --silent

clean:
	rm -rf dist
