# The two commands of the README, and the pieces they are made of.
.PHONY: demo demo-rust demo-node demo-python test lint test-rust test-node test-python dist bench bench-smoke

PYTHON ?= python3
STDLIB := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

## Runs the main job: validate, grep, glob and fuzzy-find a real tree (the CPython standard library)
## from Rust, Node and Python. Cargo's progress shows while the addon and the wheel build.
demo: demo-rust demo-node demo-python

demo-rust:
	cargo run --release --locked --example demo -- "$(STDLIB)"

demo-node:
	./npm/dev.sh demo "$(STDLIB)"

demo-python: dist
	./python/dev.sh demo "$(STDLIB)"

## Runs every test: formatting, lints (and the core's docs' links), Rust tests and vectors, the release artifacts built once
## (make dist), Node and Python tests against them (and installs of them in fresh projects and
## venvs), and a tiny run of the benchmark harness so it never rots.
test: lint test-rust dist test-node test-python bench-smoke

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p fsnative

test-rust:
	cargo test --workspace --locked
	# The index's freshness rounds, optimised: 1,000 write-then-search rounds of each kind of change.
	FSNATIVE_INDEX_ROUNDS=10000 cargo test --release --locked -p fsnative --test index

test-node: dist
	./npm/dev.sh test

test-python: dist
	./python/dev.sh test

## The release artifacts, in dist/: the npm package and this machine's platform package, the
## Python sdist and the abi3 manylinux wheel.
dist:
	./dist.sh

## Benchmarks against every peer (prepares corpora; writes bench/results/latest.md and charts).
bench: dist
	./bench/run.sh

bench-smoke: dist
	./bench/run.sh --smoke
