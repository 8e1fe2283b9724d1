package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// resilint is the path of the binary built for the tests.
var resilint string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "resilint-test-")
	if err != nil {
		panic(err)
	}
	resilint = filepath.Join(dir, "resilint")
	if runtime.GOOS == "windows" {
		resilint += ".exe"
	}
	build := exec.Command("go", "build", "-o", resilint, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building resilint: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot returns the repository root (two levels above cmd/resilint).
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}

// copyModule copies a fixture module to a temporary directory and points
// its resil requirement, if any, at this repository's resil module.
func copyModule(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "testdata", name)
	dst := t.TempDir()
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(dst, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(gomod, []byte("github.com/resilint/resilint/resil")) {
		resil := filepath.Join(repoRoot(t), "resil")
		if _, err := os.Stat(filepath.Join(resil, "go.mod")); err != nil {
			t.Fatalf("the fixture needs the resil module: %v", err)
		}
		run(t, dst, "go", "mod", "edit", "-replace=github.com/resilint/resilint/resil="+resil)
	}
	return dst
}

func run(t *testing.T, dir string, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		code = ee.ExitCode()
	}
	return stdout.String(), stderr.String(), code
}

// jsonDiag is the x/tools checker JSON shape of one diagnostic.
type jsonDiag struct {
	Posn           string `json:"posn"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
	} `json:"suggested_fixes"`
}

type finding struct {
	analyzer string
	jsonDiag
}

// findings runs resilint -json and decodes its findings.
func findings(t *testing.T, dir string, args ...string) []finding {
	t.Helper()
	stdout, stderr, code := run(t, dir, resilint, append([]string{"-json"}, args...)...)
	if code != 0 && code != 3 {
		t.Fatalf("resilint -json exited %d: %s", code, stderr)
	}
	return decodeFindings(t, stdout)
}

// decodeFindings decodes the findings of a -json output.
func decodeFindings(t *testing.T, stdout string) []finding {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("decoding -json output: %v\n%s", err, stdout)
	}
	var out []finding
	for _, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []jsonDiag
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Fatalf("%s: %s", name, raw) // an {"error": ...} entry
			}
			for _, d := range diags {
				out = append(out, finding{name, d})
			}
		}
	}
	return out
}

// TestFixesCompile applies every suggested fix to the fixture module and
// checks that it builds, passes go vet, and that a second run finds none of
// the fixed findings and a second -fix changes nothing.
func TestFixesCompile(t *testing.T) {
	dir := copyModule(t, "fixmod")
	before := findings(t, dir, "./...")
	var fixable, other int
	byAnalyzer := map[string]int{}
	for _, f := range before {
		if len(f.SuggestedFixes) > 0 {
			fixable++
			byAnalyzer[f.analyzer]++
		} else {
			other++
		}
	}
	if fixable == 0 {
		t.Fatal("the fixture has no fixable findings")
	}
	t.Logf("fixable findings per analyzer: %v (and %d without a fix)", byAnalyzer, other)

	if _, stderr, code := run(t, dir, resilint, "-fix", "./..."); code != 0 {
		t.Fatalf("resilint -fix exited %d: %s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("the fixed module does not build:\n%s", stderr)
	}
	if _, stderr, code := run(t, dir, "go", "vet", "./..."); code != 0 {
		t.Fatalf("the fixed module does not pass go vet:\n%s", stderr)
	}
	after := findings(t, dir, "./...")
	for _, f := range after {
		if len(f.SuggestedFixes) > 0 {
			t.Errorf("after -fix, still a fixable finding: %s: %s: %s", f.Posn, f.analyzer, f.Message)
		}
	}
	if len(after) != other {
		for _, f := range after {
			t.Logf("after -fix: %s: %s: %s", f.Posn, f.analyzer, f.Message)
		}
		t.Errorf("after -fix: %d findings, want the %d that had no fix", len(after), other)
	}

	snapshot := func() map[string]string {
		files := map[string]string{}
		filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(path, ".go") {
				data, _ := os.ReadFile(path)
				files[path] = string(data)
			}
			return nil
		})
		return files
	}
	s1 := snapshot()
	if _, stderr, code := run(t, dir, resilint, "-fix", "./..."); code != 0 {
		t.Fatalf("second resilint -fix exited %d: %s", code, stderr)
	}
	for path, data := range snapshot() {
		if s1[path] != data {
			t.Errorf("second -fix changed %s: fixes are not idempotent", path)
		}
	}
}

// TestVetToolRetryFacts runs the three-package retry chain through go vet
// -vettool, where facts cross packages gob-encoded: a retries b, which
// retries c, which retries itself.
func TestVetToolRetryFacts(t *testing.T) {
	dir := copyModule(t, "retrymod")
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+resilint, "./...")
	if code == 0 {
		t.Fatalf("go vet found nothing:\n%s", stderr)
	}
	for _, want := range []string{
		"a/a.go:13:12: retry amplification 3×3×3 = 27",
		"b/b.go:17:12: retry amplification 3×3 = 9",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("go vet output lacks %q:\n%s", want, stderr)
		}
	}
}
