# The two commands of the README, and the pieces they are made of.
.PHONY: demo demo-rust demo-node demo-python test rust-checks release-checks peers lint test-rust index-rounds test-node test-python dist dist-all bench bench-smoke

PYTHON ?= python3
# Every optimised build of the core: with the allocator the Node addon and the Python wheel use,
# so that the core compiles once for all of them (see crates/fsnative/Cargo.toml on syn).
CORE_RELEASE := --release --locked -p fsnative --features mimalloc
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
## release artifacts built once (make dist), the Node and the Python tests against them side by
## side (and installs of them in fresh projects and venvs), and a tiny run of the benchmark
## harness so it never rots.
## Three chains run at once first: the lints and the debug tests; the optimised build (the index
## rounds, make dist and the bench's fsgrep); the installs of what the tests compare against.
## rustc spends long stretches on one thread, so on 2 cores each chain fills the others' gaps.
## Each chain's output is printed whole when it ends.
test:
	$(MAKE) -j3 --output-sync=target rust-checks release-checks peers
	$(MAKE) -j2 --output-sync=target test-node test-python NO_DIST=1
	./bench/run.sh --smoke

rust-checks: lint
	$(MAKE) test-rust

release-checks: dist
	$(MAKE) index-rounds
	cargo build $(CORE_RELEASE) --example fsgrep

## What the tests compare against, installed once: rg 15.1.0, the oracle of the Node and Python
## parity tests (PyPI's ripgrep is a source build; pip's cache then serves both venvs), the
## Python tests' requirements and the benchmark's peers (fff-search is a source build too: its
## wheels need glibc 2.38).
peers:
	./npm/test/fsmcp/install-oracle.sh >/dev/null
	./python/dev.sh requirements
	./bench/run.sh --peers

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p fsnative

test-rust:
	cargo test --workspace --locked

## The index's freshness rounds, optimised: 1,000 write-then-search rounds of each kind of change.
index-rounds:
	FSNATIVE_INDEX_ROUNDS=10000 cargo test $(CORE_RELEASE) --test index

test-node: $(if $(NO_DIST),,dist)
	./npm/dev.sh test

test-python: $(if $(NO_DIST),,dist)
	./python/dev.sh test --durations=10

## The release artifacts, in dist/: the npm package and this machine's platform package, the
## Python sdist and the abi3 manylinux wheel.
dist:
	./dist.sh

## Every Linux artifact, cross-built with zig into dist/all/ (not part of make test: about 15 min
## cold on 2 cores): the npm platform packages and abi3 wheels for x86-64 and arm64, glibc 2.17
## and musl, the npm package that lists them all, the sdist. `./dist-all.sh TARGET...` builds fewer.
dist-all:
	./dist-all.sh

## Benchmarks against every peer (prepares corpora; writes bench/results/latest.md and charts).
bench: dist
	./bench/run.sh

bench-smoke: dist
	./bench/run.sh --smoke
