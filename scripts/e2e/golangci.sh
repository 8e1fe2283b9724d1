#!/usr/bin/env bash
# golangci-lint v2.15.0 with resilint's module plugin, end to end:
#
#  1. build the custom binary offline from the module proxy (no git clone):
#     tools/golangci-lint is a small main module that imports golangci-lint
#     and resilint's plugin package; cached under $CACHE, keyed by the
#     sources, so a warm run skips the build;
#  2. check that the plugin changes none of golangci-lint's dependency
#     versions (x/tools, yaml, honnef.co/go/tools, ...);
#  3. run it on testdata/gclmod and check that findings of every analyzer
#     the build has appear, on the lines marked for them, that
#     //nolint:resilint suppresses, that settings take effect, that a bad
#     setting is a clear error, that --fix applies the suggested fixes, and
#     that its SARIF output validates;
#  4. build the binary the way users do, `golangci-lint custom` with the
#     repository's .custom-gcl.yml (its git clone served by a local mirror
#     made from the module zip), and check that it reports the same;
#  5. check .golangci.example.yml with `config verify` and a run.
#
# A cold run builds golangci-lint (about 4 minutes on 2 cores); warm runs
# take seconds. RESILINT_E2E_CUSTOM_GCL=0 skips step 4.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/sarif.sh"
need python3 python3

GCL_VERSION=v2.15.0
build_resilint
mapfile -t NAMES < <(analyzer_names)
log "analyzers in this build: ${NAMES[*]}"

# --- 1. the custom binary --------------------------------------------------
key=$(
	cd "$ROOT"
	{
		go version
		echo "$GCL_VERSION"
		git ls-files -co --exclude-standard -- '*.go' go.mod go.sum tools/golangci-lint |
			grep -v -e '/testdata/' -e '_test\.go$' | grep -v '^resil/' | LC_ALL=C sort |
			while read -r f; do [ -f "$f" ] && sha256sum "$f"; done
	} | sha256sum | cut -c1-20
)
mkdir -p "$CACHE/golangci-lint"
GCL=$CACHE/golangci-lint/golangci-lint-resilint-$key
# Build a copy of tools/golangci-lint that points at this checkout, with
# -mod=mod: a requirement the root module gained since its go.sum was last
# tidied is added to the copy, not to the repository (and step 2 checks that
# it bumps nothing of golangci-lint's).
BUILD=$WORK/golangci-lint-build
cp -R "$ROOT/tools/golangci-lint" "$BUILD"
(cd "$BUILD" && go mod edit -replace "github.com/resilint/resilint=$ROOT")
if [ -x "$GCL" ]; then
	log "golangci-lint with resilint: cached ($GCL)"
else
	log "building golangci-lint $GCL_VERSION with resilint (cold: about 4 minutes)"
	start=$SECONDS
	if ! (cd "$BUILD" && go build -mod=mod -ldflags "-s -w" -o "$GCL.tmp.$$" .); then
		rm -f "$GCL.tmp.$$"
		fail "building tools/golangci-lint failed"
	fi
	(cd "$BUILD" && go mod edit -replace "github.com/resilint/resilint=../..")
	for f in go.mod go.sum; do
		cmp -s "$BUILD/$f" "$ROOT/tools/golangci-lint/$f" ||
			log "warning: tools/golangci-lint/$f is out of date with the root module; run (cd tools/golangci-lint && go mod tidy)"
	done
	(cd "$BUILD" && go mod edit -replace "github.com/resilint/resilint=$ROOT")
	find "$CACHE/golangci-lint" -name 'golangci-lint-resilint-*' ! -name "*.tmp.*" -delete
	mv "$GCL.tmp.$$" "$GCL"
	log "built in $((SECONDS - start))s"
fi
"$GCL" version | grep -q "golangci-lint $GCL_VERSION + resilint plugin" || fail "unexpected version: $("$GCL" version)"

# --- 2. the plugin pins golangci-lint's dependencies -------------------------
gomod=$(go mod download -json "github.com/golangci/golangci-lint/v2@$GCL_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])')
go mod edit -json "$gomod" >"$WORK/gcl-gomod.json"
(cd "$BUILD" && go list -mod=mod -m -json all) >"$WORK/selected.json"
python3 - "$WORK/gcl-gomod.json" "$WORK/selected.json" <<'PY'
import json, sys
want = {r["Path"]: r["Version"] for r in json.load(open(sys.argv[1]))["Require"]}
dec, text, got = json.JSONDecoder(), open(sys.argv[2]).read(), {}
i = 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    m, i = dec.raw_decode(text, i)
    got[m["Path"]] = m.get("Version", "")
bumped = ["%s %s -> %s" % (p, v, got.get(p)) for p, v in sorted(want.items()) if got.get(p) != v]
if bumped:
    sys.exit("the plugin changes golangci-lint's dependencies:\n  " + "\n  ".join(bumped))
print("golangci-lint's %d requirements are unchanged by the plugin (golang.org/x/tools %s)" % (len(want), got["golang.org/x/tools"]))
PY

# --- 3. runs on the fixture ------------------------------------------------
export GOLANGCI_LINT_CACHE=$WORK/gcl-cache
mod=$(copy_fixture gclmod)

# gcl OUT ARGS...: golangci-lint run with JSON issues in OUT.json and text in
# OUT.txt; sets RC.
gcl() {
	local out=$1
	shift
	RC=0
	(cd "$mod" && "$GCL" run --output.json.path="$out.json" --output.text.path="$out.txt" --show-stats=false "$@") 2>"$out.err" || RC=$?
}

# check JSON MODE: python checks of one run's issues (see below).
check() {
	python3 - "$mod" "$@" "${NAMES[@]}" <<'PY'
import json, os, re, sys
mod, out, mode, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
issues = json.load(open(out + ".json"))["Issues"] or []
marks = {}  # (file, line) -> comment text
for dirpath, _, files in os.walk(mod):
    for f in files:
        if f.endswith(".go"):
            path = os.path.join(dirpath, f)
            for i, line in enumerate(open(path), 1):
                if "//" in line:
                    marks[(os.path.relpath(path, mod), i)] = line
found = {}
for it in issues:
    assert it["FromLinter"] == "resilint", it
    m = re.match(r"^(\w+): ", it["Text"])
    assert m, "issue text does not start with the analyzer: %r" % it["Text"]
    name = m.group(1)
    pos = it["Pos"]
    key = (pos["Filename"], pos["Line"])
    found.setdefault(key, []).append(name)
    line = marks.get(key, "")
    if mode == "default" and "want:" + name not in line:
        sys.exit("unexpected finding %s:%d %s\n  source: %s" % (key[0], key[1], it["Text"], line.strip()))
def lines(tag):
    return [k for k, v in marks.items() if tag in v]
if mode == "default":
    missing = [n for n in names if not any(n in v for k, v in found.items() if "want:" + n in marks.get(k, ""))]
    if missing:
        sys.exit("no finding of %s (findings: %s)" % (missing, found))
    for k in lines("nolint-case"):
        assert k not in found, "//nolint:resilint did not suppress %s: %s" % (k, found[k])
    for k in lines("settings-case"):
        assert "ctxdeadline" in found.get(k, []), "the outbound setting had no effect at %s:%d" % k
    print("findings of every analyzer (%s) on their lines; nolint and settings ok" % ", ".join(names))
elif mode == "nosettings":
    for k in lines("settings-case"):
        assert k not in found, "without the setting, %s:%d is still reported" % k
    assert not any("detachedctx" in v for v in found.values()), "disable: [detachedctx] had no effect: %s" % found
    for k in lines("nolint-case"):
        assert "ctxdeadline" in found.get(k, []), "without //nolint, %s:%d is not reported" % k
    print("without the settings and the directive: settings-case gone, detachedctx off, nolint-case reported")
elif mode == "clean":
    assert not issues, "issues left: %s" % found
PY
}

log "golangci-lint run (JSON, text and SARIF outputs)"
gcl "$WORK/default" --output.sarif.path="$WORK/gcl.sarif" ./...
[ "$RC" = 1 ] || fail "golangci-lint run exited $RC, want 1 (issues): $(cat "$WORK/default.err")"
check "$WORK/default" default || fail "run with the fixture's settings"
grep -q '(resilint)$' "$WORK/default.txt" || fail "no '(resilint)' in the text output"
validate_sarif "$WORK/gcl.sarif" || fail "golangci-lint's SARIF output does not validate"
python3 - "$WORK/gcl.sarif" "$WORK/default.json" <<'PY' || fail "SARIF content"
import json, sys
log, issues = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["Issues"]
results = log["runs"][0]["results"]
assert len(results) == len(issues) and all(r["ruleId"] == "resilint" for r in results), results
print("golangci-lint SARIF: %d results, ruleId resilint" % len(results))
PY

log "golangci-lint run without resilint's settings and without the //nolint directive"
sed -i 's|//nolint:resilint // nolint-case|// nolint-case|' "$mod/calls/calls.go"
gcl "$WORK/nosettings" --config .golangci-nosettings.yml ./...
[ "$RC" = 1 ] || fail "exit $RC: $(cat "$WORK/nosettings.err")"
check "$WORK/nosettings" nosettings || fail "run without settings"
cp "$ROOT/testdata/gclmod/calls/calls.go" "$mod/calls/calls.go"

log "a misspelt setting is a clear error"
sed 's|^          outbound:|          fanout-limt: 3\n          outbound:|' "$mod/.golangci.yml" >"$mod/.golangci-bad.yml"
gcl "$WORK/bad" --config .golangci-bad.yml ./...
[ "$RC" = 3 ] || fail "a bad setting: exit $RC, want 3 (failure)"
grep -q 'unknown key "fanout-limt" at the top level (known keys: ' "$WORK/bad.err" || fail "the error does not name the key: $(cat "$WORK/bad.err")"

log "golangci-lint run --fix"
gcl "$WORK/fix" --fix ./fixme/...
[ "$RC" = 0 ] || fail "--fix: exit $RC, want 0 (every issue fixed): $(cat "$WORK/fix.err" "$WORK/fix.txt")"
python3 - "$ROOT/testdata/gclmod/fixme/fixme.go" "$mod/fixme/fixme.go" <<'PY' || fail "--fix did not apply the fixes"
import re, sys
before, after = open(sys.argv[1]).read().split("\n"), open(sys.argv[2]).read()
for line in before:
    m = re.search(r"// want:(\w+) fix:(\S+)", line)
    if m:
        assert m.group(2) in after, "fix %s of %s not applied:\n%s" % (m.group(2), m.group(1), after)
        print("applied: %s" % m.group(2))
PY
(cd "$mod" && go build ./... && go vet ./fixme/...) || fail "the fixed module does not build or vet"
gcl "$WORK/fixed" ./fixme/...
[ "$RC" = 0 ] || fail "after --fix: exit $RC: $(cat "$WORK/fixed.txt")"
check "$WORK/fixed" clean || fail "after --fix"

# --- 4. .custom-gcl.yml through `golangci-lint custom` -----------------------
if [ "${RESILINT_E2E_CUSTOM_GCL:-1}" != 0 ]; then
	CUSTOM=$CACHE/golangci-lint/custom-$key
	if [ -x "$CUSTOM/golangci-lint-resilint" ]; then
		log "golangci-lint custom (.custom-gcl.yml): cached"
	else
		log "golangci-lint custom with .custom-gcl.yml (git clone served by a local mirror of the module zip)"
		src=$(go mod download -json "github.com/golangci/golangci-lint/v2@$GCL_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
		cp -R "$src" "$WORK/gcl-src" && chmod -R u+w "$WORK/gcl-src"
		git_fixture "$WORK/gcl-src" >/dev/null
		git -C "$WORK/gcl-src" tag "$GCL_VERSION"
		git clone -q --bare "$WORK/gcl-src" "$WORK/gcl-mirror.git"
		rm -rf "$WORK/gcl-src"
		mkdir -p "$WORK/custom"
		# The repository's .custom-gcl.yml, with this checkout instead of a release.
		sed "s|^    version: .*|    path: $ROOT|" "$ROOT/.custom-gcl.yml" >"$WORK/custom/.custom-gcl.yml"
		grep -q "path: $ROOT" "$WORK/custom/.custom-gcl.yml" || fail "could not point .custom-gcl.yml at the checkout"
		(
			cd "$WORK/custom"
			export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.$WORK/gcl-mirror.git.insteadOf" \
				GIT_CONFIG_VALUE_0=https://github.com/golangci/golangci-lint.git
			"$GCL" custom -v
		) >"$WORK/custom.log" 2>&1 || fail "golangci-lint custom: $(tail -20 "$WORK/custom.log")"
		rm -rf "$CACHE"/golangci-lint/custom-*
		mkdir -p "$CUSTOM"
		mv "$WORK/custom/bin/golangci-lint-resilint" "$CUSTOM/"
	fi
	GCL_DEFAULT=$GCL
	GCL=$CUSTOM/golangci-lint-resilint
	"$GCL" version | grep -q "$GCL_VERSION-custom-gcl" || fail "unexpected version of the custom build: $("$GCL" version)"
	rm -rf "$GOLANGCI_LINT_CACHE"
	gcl "$WORK/custom-run" ./...
	[ "$RC" = 1 ] || fail "custom build: exit $RC: $(cat "$WORK/custom-run.err")"
	check "$WORK/custom-run" default || fail "the .custom-gcl.yml build"
	GCL=$GCL_DEFAULT
fi

# --- 5. .golangci.example.yml ----------------------------------------------
log ".golangci.example.yml"
"$GCL" config verify --config "$ROOT/.golangci.example.yml" || fail "config verify .golangci.example.yml"
gcl "$WORK/example" --config "$ROOT/.golangci.example.yml" --enable-only resilint ./fanout/...
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail ".golangci.example.yml: exit $RC: $(cat "$WORK/example.err")"

log "ok"
