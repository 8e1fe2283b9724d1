#!/usr/bin/env bash
# Runs every resil test (race detector on), the allocation tests without it,
# and vets the benchmark module.
set -euo pipefail
cd "$(dirname "$0")"
go test -race ./...
# Allocation counts are only asserted without the race detector.
go test -count=1 -run Alloc ./...
(cd bench && go vet ./...)
