# Shared helpers of the end-to-end scripts (sourced, not run).
#
# ROOT   the repository root
# CACHE  where expensive artefacts survive between runs (the golangci-lint
#        binary, npm packages, the SARIF schema): $RESILINT_E2E_CACHE, else
#        $XDG_CACHE_HOME/resilint-e2e, else ~/.cache/resilint-e2e. CI keeps
#        the home directory between runs on the same machine.
# WORK   a temporary directory, removed on exit

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CACHE=${RESILINT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/resilint-e2e}
mkdir -p "$CACHE"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/resilint-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Modules come from the module cache, whatever GOPATH a tool sets (pre-commit
# replaces GOPATH; pitfall P2 of the integration notes).
export GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)}
export GOFLAGS=${GOFLAGS:-}

SCRIPT=$(basename "$0" .sh)
log() { printf '[%s %ss] %s\n' "$SCRIPT" "$SECONDS" "$*"; }
fail() {
	printf '[%s] FAIL: %s\n' "$SCRIPT" "$*" >&2
	exit 1
}

# need CMD PACKAGE: install Debian's PACKAGE when CMD is missing (CI runs as
# root on a fresh Debian machine).
APT_UPDATED=
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	log "installing $2 (Debian) for $1"
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	if [ -z "$APT_UPDATED" ]; then
		$sudo apt-get update -qq >/dev/null || fail "apt-get update failed"
		APT_UPDATED=1
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$2" >/dev/null || fail "apt-get install $2 failed"
	command -v "$1" >/dev/null 2>&1 || fail "$2 installed no $1"
}

# build_resilint: the resilint command of this work tree, in $WORK/bin.
build_resilint() {
	mkdir -p "$WORK/bin"
	(cd "$ROOT" && go build -o "$WORK/bin/resilint" ./cmd/resilint) || fail "go build ./cmd/resilint"
	RESILINT=$WORK/bin/resilint
}

# analyzer_names: the analyzers the built resilint has, one a line.
analyzer_names() {
	"$RESILINT" help | sed -n 's/^    \([a-z][a-z0-9]*\) .*/\1/p'
}

# copy_fixture NAME: a copy of testdata/NAME in $WORK/NAME.
copy_fixture() {
	rm -rf "${WORK:?}/$1"
	cp -R "$ROOT/testdata/$1" "$WORK/$1"
	echo "$WORK/$1"
}

# git_fixture DIR: make DIR a git repository with one commit of its files.
git_fixture() {
	git -C "$1" init -q -b main
	git -C "$1" config user.name e2e
	git -C "$1" config user.email e2e@example.com
	git -C "$1" config commit.gpgsign false
	git -C "$1" add -A
	git -C "$1" commit -q -m "fixture"
}
