# The two commands of the README, and the pieces they are made of.
.PHONY: demo test test-rust lint

PYTHON ?= python3
STDLIB := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

## Runs the main job: validate, grep and glob a real tree (the CPython standard library).
demo:
	cargo run --quiet --release --example demo -- "$(STDLIB)"

## Runs every test: formatting, lints, unit tests, doc tests and the shared vectors.
test: lint test-rust

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings

test-rust:
	cargo test --workspace --locked
