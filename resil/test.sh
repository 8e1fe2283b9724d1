#!/usr/bin/env bash
# Runs every resil test (race detector on) and vets the benchmark module.
set -euo pipefail
cd "$(dirname "$0")"
go test -race ./...
(cd bench && go vet ./...)
