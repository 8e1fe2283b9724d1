#!/usr/bin/env bash
# pre-commit end to end, with Debian's pre-commit (installed here when
# missing): the hooks of .pre-commit-hooks.yaml, taken from a snapshot of
# this work tree, on a fixture git repository.
#
#  - `pre-commit try-repo` with the staged files: a bad change fails with the
#    finding printed, a clean one passes (language: golang, which builds
#    resilint with `go install ./...` in the hook repository);
#  - a real commit through `pre-commit install`: the bad commit is blocked,
#    the clean one goes in;
#  - the language: system variant uses the resilint on PATH.
#
# GOMODCACHE is exported (common.sh): pre-commit gives golang hooks their own
# GOPATH, and would otherwise download every module again (pitfall P2).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need git git
need pre-commit pre-commit
log "$(pre-commit --version)"
build_resilint

# The hook repository: the work tree as it is (committed or not), as one
# commit; try-repo and rev: need a commit (pitfall P5).
HOOKS=$WORK/hooks
mkdir -p "$HOOKS"
(
	cd "$ROOT"
	git ls-files -co --exclude-standard -z |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -
) | tar -xf - -C "$HOOKS"
git_fixture "$HOOKS"
REV=$(git -C "$HOOKS" rev-parse HEAD)

# The project: a module with one clean file, committed.
PROJ=$WORK/project
mkdir -p "$PROJ"
cat >"$PROJ/go.mod" <<'EOF'
module example.com/precommit

go 1.26.0
EOF
cat >"$PROJ/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello") }
EOF
git_fixture "$PROJ"
export PRE_COMMIT_HOME=$WORK/pre-commit-home

bad() {
	cat >"$PROJ/status.go" <<'EOF'
package main

import "net/http"

// status asks a service for its status.
func status(url string) (int, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
EOF
}
clean() {
	cat >"$PROJ/status.go" <<'EOF'
package main

import (
	"context"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// status asks a service for its status.
func status(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
EOF
}
FINDING='status.go:7:15: http.Get has no deadline'

# run NAME CMD...: run CMD in the project, output in $WORK/NAME.out; sets RC.
run() {
	local name=$1
	shift
	RC=0
	(cd "$PROJ" && "$@") >"$WORK/$name.out" 2>&1 </dev/null || RC=$?
}

log "try-repo, language: golang, bad change staged"
bad
git -C "$PROJ" add status.go
run try-bad pre-commit try-repo "$HOOKS" resilint
[ "$RC" != 0 ] || fail "try-repo passed a bad change: $(cat "$WORK/try-bad.out")"
grep -q -- "$FINDING" "$WORK/try-bad.out" || fail "the finding is not printed: $(cat "$WORK/try-bad.out")"
grep -q -- "- exit code: 3" "$WORK/try-bad.out" || fail "resilint did not exit 3: $(cat "$WORK/try-bad.out")"

log "try-repo, language: golang, clean change staged"
clean
git -C "$PROJ" add status.go
run try-clean pre-commit try-repo "$HOOKS" resilint
[ "$RC" = 0 ] || fail "try-repo failed a clean change: $(cat "$WORK/try-clean.out")"
grep -q "^resilint\.\.*Passed" "$WORK/try-clean.out" || fail "no 'resilint...Passed': $(cat "$WORK/try-clean.out")"
git -C "$PROJ" reset -q --hard

log "a real commit through pre-commit install"
cat >"$PROJ/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: resilint
EOF
git -C "$PROJ" add .pre-commit-config.yaml
git -C "$PROJ" commit -q -m "pre-commit config"
run install pre-commit install
[ "$RC" = 0 ] || fail "pre-commit install: $(cat "$WORK/install.out")"
head=$(git -C "$PROJ" rev-parse HEAD)
bad
git -C "$PROJ" add status.go
run commit-bad git commit -m "add status"
[ "$RC" != 0 ] || fail "the bad commit went in"
[ "$(git -C "$PROJ" rev-parse HEAD)" = "$head" ] || fail "HEAD moved after a blocked commit"
grep -q -- "$FINDING" "$WORK/commit-bad.out" || fail "the blocked commit does not print the finding: $(cat "$WORK/commit-bad.out")"
clean
git -C "$PROJ" add status.go
run commit-clean git commit -m "add status"
[ "$RC" = 0 ] || fail "the clean commit was blocked: $(cat "$WORK/commit-clean.out")"
[ "$(git -C "$PROJ" rev-parse HEAD)" != "$head" ] || fail "HEAD did not move"
grep -q "^resilint\.\.*Passed" "$WORK/commit-clean.out" || fail "no 'resilint...Passed': $(cat "$WORK/commit-clean.out")"

log "language: system uses the resilint on PATH"
bad
git -C "$PROJ" add status.go
run system-bad env PATH="$WORK/bin:$PATH" pre-commit try-repo "$HOOKS" resilint-system
[ "$RC" != 0 ] && grep -q -- "$FINDING" "$WORK/system-bad.out" || fail "resilint-system on a bad change: rc $RC: $(cat "$WORK/system-bad.out")"
clean
git -C "$PROJ" add status.go
run system-clean env PATH="$WORK/bin:$PATH" pre-commit try-repo "$HOOKS" resilint-system --all-files
[ "$RC" = 0 ] && grep -q "^resilint (installed binary)\.*Passed" "$WORK/system-clean.out" || fail "resilint-system on clean files: rc $RC: $(cat "$WORK/system-clean.out")"
nogo=$(dirname "$(command -v pre-commit)"):/usr/bin:/bin
run system-missing env PATH="$nogo" pre-commit try-repo "$HOOKS" resilint-system --all-files
[ "$RC" != 0 ] && grep -q "Executable \`resilint\` not found" "$WORK/system-missing.out" || fail "resilint-system without resilint on PATH: rc $RC: $(cat "$WORK/system-missing.out")"

log "ok"
