#!/usr/bin/env bash
# SARIF output of the resilint command, validated against the SARIF 2.1.0
# JSON schema with a real validator (Ajv, installed from npm; see
# lib/sarif.sh), and checked for content: a rule per analyzer with its
# documentation, a result per finding with ruleId = analyzer, fixes.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/sarif.sh"
need python3 python3

sarif_setup
build_resilint
mapfile -t NAMES < <(analyzer_names)
log "analyzers: ${NAMES[*]}"

mod=$(copy_fixture gclmod)
rc=0
(cd "$mod" && "$RESILINT" -format sarif ./... >"$WORK/resilint.sarif") || rc=$?
[ "$rc" = 3 ] || fail "resilint -format sarif exited $rc, want 3 (findings)"
rc=0
(cd "$mod" && "$RESILINT" -format sarif ./wrap >"$WORK/clean.sarif") || rc=$?
[ "$rc" = 0 ] || fail "resilint -format sarif ./wrap exited $rc, want 0"

validate_sarif "$WORK/resilint.sarif" "$WORK/clean.sarif" || fail "resilint's SARIF does not validate"

# The validator must reject a broken log (no message, a bad level, line 0).
python3 - "$WORK/resilint.sarif" "$WORK/broken.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
r = log["runs"][0]["results"][0]
del r["message"]
r["level"] = "fatal"
r["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
json.dump(log, open(sys.argv[2], "w"))
PY
if validate_sarif "$WORK/broken.sarif" >"$WORK/broken.out"; then
	fail "the validator accepted a broken SARIF log"
fi
grep -q "must have required property 'message'" "$WORK/broken.out" || fail "the validator did not name the missing message: $(cat "$WORK/broken.out")"

python3 - "$WORK/resilint.sarif" "$WORK/clean.sarif" "${NAMES[@]}" <<'PY'
import json, sys
log, clean, names = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3:]
run = log["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
assert sorted(rules) == sorted(names), (sorted(rules), names)
for name, r in rules.items():
    assert r["shortDescription"]["text"] and r["help"]["text"].startswith(r["shortDescription"]["text"]), name
    assert r["helpUri"].endswith("/analyzers/%s/doc.go" % name), r["helpUri"]
seen = {}
fixes = 0
for res in run["results"]:
    assert res["ruleId"] in rules, res["ruleId"]
    seen[res["ruleId"]] = seen.get(res["ruleId"], 0) + 1
    loc = res["locations"][0]["physicalLocation"]
    assert not loc["artifactLocation"]["uri"].startswith("/"), loc
    fixes += len(res.get("fixes", []))
missing = [n for n in names if n not in seen]
assert not missing, "no SARIF result of %s" % missing
assert fixes >= 2, "want the fixme/ fixes as SARIF fixes, got %d" % fixes
assert clean["runs"][0]["results"] == [], clean["runs"][0]["results"]
print("SARIF content ok: results per analyzer %s, %d fixes" % (seen, fixes))
PY
log "ok"
