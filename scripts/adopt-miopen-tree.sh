#!/usr/bin/env bash
# Convenience: `miopen-wrap adopt` built from this checkout (see `miopen-wrap adopt --help`).
exec cargo run --quiet --release -p miopen-wrap --manifest-path "$(dirname "${BASH_SOURCE[0]}")/../Cargo.toml" -- adopt "$@"
