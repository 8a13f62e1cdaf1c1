# User Tasks — run `make help` for the targets.
SHELL := /bin/bash
GO ?= go
# The SQLite search index (migration 00013) is an FTS5 table, which go-sqlite3 compiles in only
# under the sqlite_fts5 build tag: every go command below carries it through GOFLAGS, and so do
# the `go build`s the tests start (they inherit the environment). A binary built without it
# refuses to open a SQLite store.
export GOFLAGS += -tags=sqlite_fts5
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# `web version` reports these; override on the command line (make build VERSION=v1.2.0).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)

.PHONY: help run demo-reset dev-build test lint lint-openapi verify golden build scale bench soak fuzz fuzz-short temporal-test

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

run: dev-build ## start the app in dev mode on the embedded SQLite default (./data), demo login
	@echo "make run: starting the server in dev mode (migrations, demo seed, then the URL)"
	USERTASKS_DEV=true ./bin/web serve

demo-reset: dev-build ## delete the dev database (./data/usertasks.db) and seed the demo afresh; stop `make run` first
	USERTASKS_DEV=true ./bin/web demo reset

# The dev binary of run and demo-reset. A cold build compiles SQLite's C code and every
# dependency (about 3 minutes on 2 cores); `go build -v` names each package it compiles, which
# the awk below turns into a progress line every 20 packages (errors pass through as they are).
dev-build:
	@echo "make: building ./cmd/web into bin/web (the first build takes about 3 minutes; later ones seconds)"
	@set -o pipefail; $(GO) build -v -ldflags "$(LDFLAGS)" -o bin/web ./cmd/web 2>&1 | \
		awk '/^[^ :#]+$$/ { n++; if (n % 20 == 0) { printf "  compiled %d packages\n", n; fflush() } next } { print; fflush() } \
		END { if (n) printf "  compiled %d packages: done\n", n }'

test: ## run every test with the race detector (providers without a URL are skipped, except under CI=true)
	$(GO) test -race -count=1 -timeout 40m $(TESTFLAGS) ./...

lint: ## go vet, gofmt and staticcheck
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) run $(STATICCHECK) ./...

# Redocly CLI, pinned in tools/redocly (installed there by `npm ci` whenever its lock file changes).
REDOCLY := tools/redocly/node_modules/.bin/redocly

lint-openapi: tools/redocly/node_modules/.package-lock.json ## lint handlers/openapi.json with Redocly's recommended rules (Node 20.19+); any error or warning fails
	@report=$$($(REDOCLY) lint --format=json handlers/openapi.json 2>/dev/null); \
	problems=$$(node -e 'const t = JSON.parse(require("fs").readFileSync(0, "utf8")).totals; console.log(t.errors + t.warnings)' <<<"$$report" 2>/dev/null); \
	if [ "$$problems" != 0 ]; then $(REDOCLY) lint handlers/openapi.json; echo "lint-openapi: fix every error and warning above"; exit 1; fi; \
	echo "lint-openapi: handlers/openapi.json passes Redocly's recommended rules"

tools/redocly/node_modules/.package-lock.json: tools/redocly/package.json tools/redocly/package-lock.json
	cd tools/redocly && npm ci --no-audit --no-fund

verify: ## regenerate generated files (templ, go.mod) and fail on any diff; then lint
	$(GO) tool templ generate
	$(GO) mod tidy
	@git diff --exit-code -- go.mod go.sum '*_templ.go' || (echo "generated files differ: commit the regenerated ones"; exit 1)
	$(MAKE) lint

golden: ## rewrite the SQL Server and Oracle golden SQL files from the store's dry-run output
	UPDATE_GOLDEN=1 $(GO) test ./repository/ -run Golden -count=1

scale: ## load the scale target (SCALE=small: a tenth) on SQLite, PostgreSQL and MariaDB; check every list, dashboard and worker plan
	USERTASKS_SCALE=$(or $(SCALE),full) $(GO) test -count=1 -timeout 60m -run '^TestScale$$' -v ./repository/

# `web stress bench` starts its servers as child processes of the binary it runs as.
BENCH_BIN ?= $(or $(TMPDIR),/tmp)/usertasks-bench-web
bench: ## run the benchmark set (SCALE=small: a tenth) on SQLite, PostgreSQL and MariaDB when configured; rewrites docs/benchmarks.md's generated section
	$(GO) build -o $(BENCH_BIN) ./cmd/web
	$(BENCH_BIN) stress bench --scale $(or $(SCALE),full) --write docs/benchmarks.md $(BENCHFLAGS)

soak: ## sustained mixed load against `web serve` (SOAK=2m to shorten, SOAK_DB=postgres|mariadb), memory and goroutines flat; outside CI
	USERTASKS_SOAK=$(or $(SOAK),10m) USERTASKS_SOAK_DB=$(SOAK_DB) $(GO) test -count=1 -timeout 60m -run '^TestSoak$$' -v ./cmd/web/

build: ## build the web binary (VERSION and COMMIT are stamped in for `web version`)
	$(GO) build -ldflags "$(LDFLAGS)" -o web ./cmd/web

# The fuzz targets are the Fuzz functions of the fuzz_*_test.go files; `go test -fuzz` takes one
# target of one package at a time. Plain `go test` (make test) runs their seed corpora.
FUZZTIME ?= 6s
FUZZ_LONG ?= 10m
fuzz-short: ## fuzz every target for FUZZTIME (default 6s each); CI runs it after the tests
	@set -e; grep -Ho '^func Fuzz[A-Za-z0-9_]*' $$(git ls-files '*fuzz_*_test.go') | while IFS=: read -r file fn; do \
		name=$${fn#func }; pkg=./$$(dirname "$$file"); echo "== $$name ($$pkg)"; \
		GO="$(GO)" tools/fuzz-target.sh "$$name" "$$pkg" $(FUZZTIME); \
	done

fuzz: ## fuzz every target for FUZZ_LONG (default 10m each), outside CI
	$(MAKE) fuzz-short FUZZTIME=$(FUZZ_LONG)

# The Temporal integration is a module of its own (integrations/temporal), with the worked example
# (examples/temporal) beside it; `make test` does not build Temporal. The end-to-end tests run a
# Temporal server in-process and a `web serve` built from this checkout.
temporal-test: ## test the Temporal integration and its example (go vet, then go test -race in both modules)
	cd integrations/temporal && $(GO) vet ./... && $(GO) test -race -count=1 $(TESTFLAGS) ./...
	cd examples/temporal && $(GO) vet ./... && $(GO) test -race -count=1 $(TESTFLAGS) ./...
