package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func fixture(t *testing.T, name string) string {
	return filepath.Join(repoRoot(t), "testdata", name)
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "cli")
	if _, stderr, code := run(t, dir, resilint, "./clean"); code != 0 {
		t.Errorf("clean package: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	_, stderr, code := run(t, dir, resilint, "./...")
	if code != 3 {
		t.Errorf("findings: exit %d, want 3; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"app/app.go:11:12: (*sql.DB).Exec has no deadline",
		"app/app.go:16:18: context.WithTimeout on context.Background() although this function has the caller's context (ctx)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("output lacks %q:\n%s", want, stderr)
		}
	}
	if _, _, code := run(t, dir, resilint, "-json", "./..."); code != 3 {
		t.Errorf("-json with findings: exit %d, want 3", code)
	}
}

func TestJSONShape(t *testing.T) {
	t.Parallel()
	stdout, stderr, _ := run(t, fixture(t, "cli"), resilint, "-json", "./app")
	var tree map[string]map[string][]map[string]any
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("not the checker JSON shape: %v\n%s\n%s", err, stdout, stderr)
	}
	byAnalyzer := tree["example.com/cli/app"]
	if byAnalyzer == nil {
		t.Fatalf("no entry for the package: %s", stdout)
	}
	posn := regexp.MustCompile(`^/.*app\.go:\d+:\d+$`)
	for _, name := range []string{"ctxdeadline", "detachedctx"} {
		diags := byAnalyzer[name]
		if len(diags) != 1 {
			t.Errorf("%s: %d diagnostics, want 1: %v", name, len(diags), diags)
			continue
		}
		d := diags[0]
		for _, key := range []string{"posn", "end", "message"} {
			if _, ok := d[key].(string); !ok {
				t.Errorf("%s: field %q missing or not a string: %v", name, key, d)
			}
		}
		if !posn.MatchString(d["posn"].(string)) {
			t.Errorf("%s: posn %q is not file:line:col", name, d["posn"])
		}
	}
	fixes, _ := byAnalyzer["detachedctx"][0]["suggested_fixes"].([]any)
	if len(fixes) != 1 {
		t.Fatalf("detachedctx: want one suggested fix, got %v", byAnalyzer["detachedctx"][0])
	}
	edits := fixes[0].(map[string]any)["edits"].([]any)
	edit := edits[0].(map[string]any)
	if edit["new"] != "ctx" || edit["filename"] == nil || edit["start"] == nil || edit["end"] == nil {
		t.Errorf("unexpected edit: %v", edit)
	}
}

func TestTestFiles(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "cli")
	_, stderr, _ := run(t, dir, resilint, "./app")
	if strings.Contains(stderr, "app_test.go") {
		t.Errorf("a finding in a _test.go file was reported by default:\n%s", stderr)
	}
	_, stderr, _ = run(t, dir, resilint, "-include-tests", "./app")
	if !strings.Contains(stderr, "app/app_test.go:11:3: (*sql.DB).Exec has no deadline") {
		t.Errorf("-include-tests: the test file's finding is missing:\n%s", stderr)
	}
}

func TestNolint(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "cli")
	_, stderr, _ := run(t, dir, resilint, "./app")
	for _, line := range []string{"app.go:23:", "app.go:29:"} {
		if strings.Contains(stderr, line) {
			t.Errorf("a //nolint'ed finding was reported (%s):\n%s", line, stderr)
		}
	}
	if strings.Contains(stderr, "unused //nolint") {
		t.Errorf("unused directives reported without the flag:\n%s", stderr)
	}
	_, stderr, code := run(t, dir, resilint, "-report-unused-nolint", "./app")
	if !strings.Contains(stderr, "app.go:33: unused //nolint directive for detachedctx") {
		t.Errorf("-report-unused-nolint: the unused directive is not reported:\n%s", stderr)
	}
	if strings.Contains(stderr, "app.go:23: unused") || strings.Contains(stderr, "app.go:27: unused") {
		t.Errorf("a used directive was reported as unused:\n%s", stderr)
	}
	if code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
}

func TestEnableDisable(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "cli")
	_, stderr, _ := run(t, dir, resilint, "-ctxdeadline=false", "./app")
	if strings.Contains(stderr, "has no deadline") || !strings.Contains(stderr, "although this function has") {
		t.Errorf("-ctxdeadline=false: want only detachedctx findings:\n%s", stderr)
	}
	_, stderr, _ = run(t, dir, resilint, "-ctxdeadline", "./app")
	if !strings.Contains(stderr, "has no deadline") || strings.Contains(stderr, "although this function has") {
		t.Errorf("-ctxdeadline: want only ctxdeadline findings:\n%s", stderr)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	stdout, _, code := run(t, ".", resilint, "help")
	if code != 0 || !strings.Contains(stdout, "ctxdeadline") || !strings.Contains(stdout, "detachedctx") {
		t.Errorf("help: exit %d:\n%s", code, stdout)
	}
	stdout, _, code = run(t, ".", resilint, "help", "detachedctx")
	if code != 0 || !strings.Contains(stdout, "On a request path") {
		t.Errorf("help detachedctx: exit %d, want the doc.go text:\n%s", code, stdout)
	}
	_, stderr, code := run(t, ".", resilint, "help", "nosuch")
	if code != 1 || !strings.Contains(stderr, `no analyzer named "nosuch"`) {
		t.Errorf("help nosuch: exit %d:\n%s", code, stderr)
	}
}

// TestBrokenPackages: packages that do not parse or type-check are named,
// the exit code is 1, nothing panics, and the other packages are analyzed.
func TestBrokenPackages(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, fixture(t, "broken"), resilint, "./...")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"resilint: package example.com/broken/bad: bad/bad.go:3:23:",
		"resilint: package example.com/broken/syntax: syntax/syntax.go",
		"ok/ok.go:5:55: http.Get has no deadline",
		// The importers, which cannot be analysed (issue 13.12).
		"resilint: package example.com/broken/user: not analysed: it imports example.com/broken/bad, which does not load",
		"resilint: package example.com/broken/user2: not analysed: it imports example.com/broken/user, which depends on example.com/broken/bad, which does not load",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("output lacks %q:\n%s", want, stderr)
		}
	}
	for _, bad := range []string{"panic:", "goroutine 1 [", ".go:0"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("output contains %q:\n%s", bad, stderr)
		}
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "cli")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-nosuchflag", "./..."}, "flag provided but not defined: -nosuchflag"},
		{[]string{"-request-budget=-1s", "./..."}, "want a positive duration"},
		{[]string{"-diff", "./..."}, "-diff needs -fix"},
		{[]string{"./nosuchdir/..."}, "no such file or directory"},
		{[]string{}, "Usage:"},
	}
	for _, c := range cases {
		_, stderr, code := run(t, dir, resilint, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("resilint %v: exit %d, want 1 and %q:\n%s", c.args, code, c.want, stderr)
		}
		if strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine 1 [") {
			t.Errorf("resilint %v panicked:\n%s", c.args, stderr)
		}
	}
}

func TestDiffDoesNotWrite(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "cli")
	path := filepath.Join(dir, "app", "app.go")
	before, _ := os.ReadFile(path)
	stdout, stderr, code := run(t, dir, resilint, "-fix", "-diff", "./app")
	if code != 3 { // Ping's finding has no fix
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "-\ttctx, cancel := context.WithTimeout(context.Background(), time.Second)") ||
		!strings.Contains(stdout, "+\ttctx, cancel := context.WithTimeout(ctx, time.Second)") {
		t.Errorf("diff lacks the fix:\n%s", stdout)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("-fix -diff changed the file")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".resilint-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
