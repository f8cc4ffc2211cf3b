# The two commands of the README, and the pieces they are made of.
.PHONY: demo demo-rust demo-node demo-python test lint test-rust test-node test-python bench bench-smoke

PYTHON ?= python3
STDLIB := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

## Runs the main job: validate, grep and glob a real tree (the CPython standard library)
## from Rust, Node and Python.
demo: demo-rust demo-node demo-python

demo-rust:
	cargo run --quiet --release --example demo -- "$(STDLIB)"

demo-node:
	./npm/dev.sh demo "$(STDLIB)"

demo-python:
	./python/dev.sh demo "$(STDLIB)"

## Runs every test: formatting, lints, Rust tests and vectors, Node tests, Python tests, and a
## tiny run of the benchmark harness so it never rots.
test: lint test-rust test-node test-python bench-smoke

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings

test-rust:
	cargo test --workspace --locked

test-node:
	./npm/dev.sh test

test-python:
	./python/dev.sh test

## Benchmarks against every peer (prepares corpora; writes bench/results/latest.md and charts).
bench:
	./bench/run.sh

bench-smoke:
	./bench/run.sh --smoke
