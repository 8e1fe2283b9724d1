#!/usr/bin/env bash
# The real-code regression suite: resilint over every package of the public
# modules that testdata/realcode/go.mod requires directly, at pinned versions
# (downloaded from the module proxy), compared with the reviewed golden file
# testdata/realcode/findings.txt (cmd/resilint/realcode_test.go). A change
# prints the lost findings with their verdicts and the new ones, and fails.
#
#   scripts/e2e/realcode.sh           compare
#   scripts/e2e/realcode.sh -update   rewrite findings.txt: unchanged findings
#                                     keep their verdicts, new ones are marked
#                                     unreviewed (the suite fails until judged)
set -euo pipefail
cd "$(dirname "$0")/../.."
for arg; do
	case $arg in
	-update) export REALCODE_UPDATE=1 ;;
	*)
		echo "usage: $0 [-update]" >&2
		exit 2
		;;
	esac
done
RESILINT_REALCODE=1 go test -count=1 -timeout 30m -run '^TestRealCode$' -v ./cmd/resilint
