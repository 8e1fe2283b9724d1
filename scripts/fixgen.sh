#!/usr/bin/env bash
# Generate N random programs (default 300) from SEED (default 1), apply
# resilint -fix to them, and check that every one still builds, passes go
# vet and is a fixpoint (a second -fix changes nothing), and that no fix
# was refused. The programs are kept in DIR (default: a temporary
# directory, removed) for a look at the failures:
#
#	scripts/fixgen.sh [N [SEED [DIR]]]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
seed=${2:-1}
dir=${3:-}
args=(-run TestGeneratedPrograms -count=1 -timeout 60m -v ./internal/fixgen -fixgen.n="$n" -fixgen.seed="$seed")
if [ -n "$dir" ]; then
	args+=(-fixgen.keep="$dir")
fi
go test "${args[@]}"
