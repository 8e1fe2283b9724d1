#!/usr/bin/env bash
# Runs resil's benchmarks against sony/gobreaker v2, failsafe-go and a bare
# channel semaphore, and prints one comparison table (benchstat medians)
# followed by the target check.
#
#   ./run.sh                 # COUNT=8 BENCHTIME=200ms CPU=1,2
#   COUNT=10 ./run.sh
#
# Numbers are only comparable within one run: every implementation is
# measured in the same process, interleaved by -count.
set -euo pipefail
cd "$(dirname "$0")"
COUNT=${COUNT:-8}
BENCHTIME=${BENCHTIME:-200ms}
CPU=${CPU:-1,2}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "# $(go version), GOMAXPROCS in {$CPU}, count=$COUNT, benchtime=$BENCHTIME, load: $(cut -d' ' -f1-3 /proc/loadavg)"
go test -run '^$' -bench . -benchmem -cpu "$CPU" -count "$COUNT" -benchtime "$BENCHTIME" . >"$out"

# Breakers and bulkheads: one column per implementation, ratios vs resil.
go tool benchstat -filter '.name:(Breaker OR Bulkhead)' -col /impl -row .name,/mode,/gomaxprocs "$out"
echo
# Retry success path.
go tool benchstat -filter '.name:RetrySuccess' -col .name -row /case,/gomaxprocs "$out"
echo
go run ./targets <"$out"
