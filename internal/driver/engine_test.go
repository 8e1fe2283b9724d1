package driver

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/resilint/resilint/config"
)

// A fake engine: it reports a finding at every "MARKn" comment of the
// package's files, with the fix that rules[n] gives (none when empty):
// the marker comment replaced by the text.
type fakeEngine struct {
	dir   string
	rules map[string]string
	runs  int
}

var markRE = regexp.MustCompile(`// (MARK\w+)`)

func (e *fakeEngine) analyze(patterns []string, overlay map[string][]byte, quiet bool) (*Result, int) {
	e.runs++
	pkg := Package{ID: "example.com/fake/a", Path: "example.com/fake/a"}
	res := &Result{}
	files, _ := filepath.Glob(filepath.Join(e.dir, "a", "*.go"))
	for _, name := range files {
		pkg.Files = append(pkg.Files, name)
		src, ok := overlay[name]
		if !ok {
			src, _ = os.ReadFile(name)
		}
		for _, m := range markRE.FindAllSubmatchIndex(src, -1) {
			mark := string(src[m[2]:m[3]])
			posn := token.Position{Filename: name, Offset: m[0], Line: 1 + bytes.Count(src[:m[0]], []byte("\n")), Column: m[0] - bytes.LastIndexByte(src[:m[0]], '\n')}
			f := Finding{Analyzer: "fake", Pkg: pkg.ID, Posn: posn, Message: "found " + mark}
			if text, ok := e.rules[mark]; ok && text != "" {
				f.Fixes = []Fix{{Message: "fix " + mark, Edits: []Edit{{File: name, Start: m[0], End: m[1], New: []byte(text)}}}}
			}
			res.Findings = append(res.Findings, f)
		}
	}
	res.Packages = []Package{pkg}
	return res, ExitClean
}

// fakeModule writes a module with package a holding src, and returns its
// directory, made the working directory.
func fakeModule(t testing.TB, src string) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fake\n\ngo 1.22\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "a"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "a.go"), []byte(src), 0o644)
	t.Chdir(dir)
	return dir
}

func fakeRun(e *fakeEngine, stderr io.Writer) *run {
	d := &run{stdout: io.Discard, stderr: stderr, cfg: config.Default(), fix: true, context: -1, outputs: []output{{format: formatText}}}
	d.engine = e.analyze
	return d
}

// TestFixRounds: fixes that compile alone but not together (two := of one
// name in one function): the later is dropped; a fix whose result is
// reported without a fix is dropped; a fix whose result is reported with a
// fix is followed by that fix in the same run. A second run changes
// nothing.
func TestFixRounds(t *testing.T) {
	src := `package a

func f() {
	// MARK1
	// MARK2
}

func g() {
	_ = 1 // MARK3
}

func h() {
	_ = 2 // MARK5
}
`
	dir := fakeModule(t, src)
	e := &fakeEngine{dir: dir, rules: map[string]string{
		"MARK1": "x := 1\n\t_ = x",
		"MARK2": "x := 2\n\t_ = x",
		"MARK3": "// MARK4",
		"MARK5": "// MARK6",
		"MARK6": "// done",
	}}
	var stderr bytes.Buffer
	code := fakeRun(e, &stderr).analyze([]string{"./..."}, nil)
	if code != ExitError {
		t.Errorf("exit %d, want %d (fixes not applied)", code, ExitError)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a", "a.go"))
	want := strings.NewReplacer("// MARK1", "x := 1\n\t_ = x", "// MARK5", "// done").Replace(src)
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	out := stderr.String()
	for _, w := range []string{
		"a/a.go:4: fake: fix MARK1\n",
		"a/a.go:5: fake: fix MARK2: not applied: would not compile: a/a.go:6:4: no new variables on left side of :=",
		"a/a.go:9: fake: fix MARK3: not applied: the fixed code would be reported: fake: found MARK4",
		"a/a.go:13: fake: fix MARK5\n",
		"a/a.go:14: fake: fix MARK6 (after the fixes above)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	// A second run: nothing changes.
	stderr.Reset()
	fakeRun(e, &stderr).analyze([]string{"./..."}, nil)
	if again, _ := os.ReadFile(filepath.Join(dir, "a", "a.go")); !bytes.Equal(again, got) {
		t.Errorf("a second run changed the file:\n%s", again)
	}
}

// TestFixUnusedImport: an import that the fixes leave unused is removed.
func TestFixUnusedImport(t *testing.T) {
	src := "package a\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc f() {\n\tfmt.Println() // MARK1\n\t_ = strings.ToUpper(\"\")\n}\n"
	dir := fakeModule(t, src)
	var stderr bytes.Buffer
	code := fakeRunReplace(t, dir, &stderr)
	got, _ := os.ReadFile(filepath.Join(dir, "a", "a.go"))
	want := "package a\n\nimport (\n\t\"strings\"\n)\n\nfunc f() {\n\t_ = 0\n\t_ = strings.ToUpper(\"\")\n}\n"
	if code != ExitClean || string(got) != want {
		t.Errorf("exit %d, fixed file:\n%s\nwant:\n%s\n%s", code, got, want, stderr.String())
	}
}

// fakeRunReplace fixes "fmt.Println() // MARK1" into "_ = 0".
func fakeRunReplace(t *testing.T, dir string, stderr io.Writer) int {
	name := filepath.Join(dir, "a", "a.go")
	engine := func(patterns []string, overlay map[string][]byte, quiet bool) (*Result, int) {
		src, ok := overlay[name]
		if !ok {
			src, _ = os.ReadFile(name)
		}
		res := &Result{Packages: []Package{{ID: "example.com/fake/a", Path: "example.com/fake/a", Files: []string{name}}}}
		old := []byte("fmt.Println() // MARK1")
		if i := bytes.Index(src, old); i >= 0 {
			res.Findings = append(res.Findings, Finding{Analyzer: "fake", Pkg: "example.com/fake/a",
				Posn:    token.Position{Filename: name, Offset: i, Line: 1 + bytes.Count(src[:i], []byte("\n")), Column: 2},
				Message: "found",
				Fixes:   []Fix{{Message: "replace", Edits: []Edit{{File: name, Start: i, End: i + len(old), New: []byte("_ = 0")}}}}})
		}
		return res, ExitClean
	}
	d := &run{stdout: io.Discard, stderr: stderr, cfg: config.Default(), fix: true, context: -1, outputs: []output{{format: formatText}}}
	d.engine = engine
	return d.analyze([]string{"./..."}, nil)
}

// TestFixScale: -fix -diff time and memory grow linearly with the number
// of fixes (a 200k-line file with 7k fixes took more than 23 GiB). It
// prints the figures; go test -run TestFixScale -v ./internal/driver.
func TestFixScale(t *testing.T) {
	sizes := []int{875, 1750, 3500, 7000}
	if s := os.Getenv("FIXSCALE"); s != "" {
		var n int
		fmt.Sscan(s, &n)
		sizes = []int{n}
	}
	if testing.Short() {
		sizes = sizes[:2]
	}
	var first, last uint64
	for _, n := range sizes {
		var b strings.Builder
		b.WriteString("package a\n\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "func f%d(x int) int {\n", i)
			for j := 0; j < 24; j++ {
				fmt.Fprintf(&b, "\tx += %d\n", j)
			}
			fmt.Fprintf(&b, "\tx += 0 // MARKS\n\treturn x\n}\n\n")
		}
		src := b.String()
		dir := fakeModule(t, src)
		e := &fakeEngine{dir: dir, rules: map[string]string{"MARKS": "// fixed\n\tx++"}}
		var stderr bytes.Buffer
		d := fakeRun(e, &stderr)
		d.diff = true
		var diff bytes.Buffer
		d.stdout = &diff
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		code := d.analyze([]string{"./..."}, nil)
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m1)
		alloc := m1.TotalAlloc - m0.TotalAlloc
		if code != ExitClean || strings.Count(diff.String(), "+\tx++\n") != n {
			t.Fatalf("%d fixes: exit %d, %d fixes in the diff\n%.2000s", n, code, strings.Count(diff.String(), "+\tx++\n"), stderr.String())
		}
		t.Logf("%6d fixes, %7d lines: %6.2fs, %5d MiB allocated", n, strings.Count(src, "\n"), elapsed.Seconds(), alloc>>20)
		if first == 0 {
			first = alloc
		}
		last = alloc
	}
	ratio := float64(last) / float64(first)
	growth := float64(sizes[len(sizes)-1]) / float64(sizes[0])
	if ratio > 2.5*growth {
		t.Errorf("memory grew %.1f× for %.0f× the fixes: not linear", ratio, growth)
	}
}

// TestFixVet: a fix that type-checks but that go vet reports (a discarded
// cancel function) is not applied; the other is.
func TestFixVet(t *testing.T) {
	src := "package a\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\nfunc f(ctx context.Context) {\n\t// MARK1\n}\n\nfunc g() time.Duration {\n\treturn 0 // MARK2\n}\n"
	dir := fakeModule(t, src)
	e := &fakeEngine{dir: dir, rules: map[string]string{
		"MARK1": "ctx2, _ := context.WithTimeout(ctx, time.Second)\n\t_ = ctx2",
		"MARK2": "// fine",
	}}
	var stderr bytes.Buffer
	if code := fakeRun(e, &stderr).analyze([]string{"./..."}, nil); code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a", "a.go"))
	if want := strings.Replace(src, "// MARK2", "// fine", 1); string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(stderr.String(), "a/a.go:9: fake: fix MARK1: not applied: go vet would report: a/a.go:9:8: the cancel function returned by context.WithTimeout should be called") {
		t.Errorf("output:\n%s", stderr.String())
	}
}
