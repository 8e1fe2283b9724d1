#!/usr/bin/env bash
# The whole resilint test suite: formatting, vet, unit and analyzer tests,
# the runtime module, and the end-to-end integration scripts in scripts/e2e.
# README's test command; .ci/run calls exactly this. Everything it needs is
# installed by the scripts themselves (module downloads, Debian and npm
# packages), so it runs on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

step() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v -E '(^|/)testdata/'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go vet"
go vet ./...

step "go test ./..."
go test ./...

step "resil: go vet, go test -race, bench module vet"
(cd resil && go vet ./...)
bash resil/test.sh

for s in scripts/e2e/*.sh; do
	[ -e "$s" ] || continue
	step "$s"
	bash "$s"
done

step "all tests passed"
