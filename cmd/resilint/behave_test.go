package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixedBehaviour applies resilint -fix to a module whose own tests
// exercise every shape the fixes rewrite or must leave alone: fan-in over
// unbuffered and buffered channels, a counted drain, a WaitGroup with a
// mutex, an errgroup, nested groups, a collector goroutine, goroutines fed
// or signalled after the loop, an already-cancelled caller, returned rows
// and transactions, a returned stream, deferred calls. The module's tests
// pass before the fixes (and show the fan-outs unbounded); after them, with
// RESILINT_FIXED=1, they pass again under the race detector within 60 s
// (no deadlock, no changed result) and observe the bounded shapes bounded
// (peak concurrency at most the limit, the nest's at most its product).
func TestFixedBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fixture's tests under the race detector twice")
	}
	dir := copyModule(t, "behavemod")
	race := "-race"
	if out, _, code := run(t, ".", "go", "env", "CGO_ENABLED"); code != 0 || strings.TrimSpace(out) != "1" {
		race = ""
	}
	goTest := func(env ...string) (string, int) {
		args := []string{"test", "-count=1", "-timeout", "60s"}
		if race != "" {
			args = append(args, race)
		}
		cmd := exec.Command("go", append(args, "./...")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		code := 0
		if err := cmd.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		return out.String(), code
	}
	if out, code := goTest(); code != 0 {
		t.Fatalf("the fixture's tests fail before any fix:\n%s", out)
	}
	before := readTree(t, dir)
	// A short budget: the deferred-call shapes run longer than it.
	_, stderr, code := run(t, dir, resilint, "-fix", "-request-budget=200ms", "./...")
	if (code != 0 && code != 3) || strings.Contains(stderr, "not applied") {
		t.Fatalf("resilint -fix exited %d:\n%s", code, stderr)
	}
	after := readTree(t, dir)
	// The fixes did something where they should (a fixture whose bounded
	// shapes stayed unfixed would pass trivially) and nothing where a fix
	// would change results.
	for _, want := range []struct{ file, text string }{
		{"fan/fan.go", "resil.NewGroup(context.Background(), 16)"},
		{"fan/fan.go", "g.SetLimit(16)"},
		{"fan/fan.go", "ig.SetLimit(16)"},
		{"fan/fan.go", "res := make(chan error, len(items))"},
		{"fan/fan.go", "sem := make(chan struct{}, 16)"},
		{"store/store.go", "defer func() {"},
	} {
		if !strings.Contains(after[want.file], want.text) {
			t.Errorf("%s: no %q after -fix", want.file, want.text)
		}
	}
	for _, fn := range []string{"func FedAfter", "func StartSignal", "func OpenRows", "func Begin", "func Subscribe", "func Finish"} {
		for file, src := range before {
			if b, a := funcText(src, fn), funcText(after[file], fn); b != a {
				t.Errorf("%s: %s was changed by -fix, which would change its results:\n%s", file, fn, a)
			}
		}
	}
	if out, code := goTest("RESILINT_FIXED=1"); code != 0 {
		t.Fatalf("the fixture's tests fail after resilint -fix:\n%s", out)
	}
}

// readTree returns the module's Go files by path relative to dir.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			data, _ := os.ReadFile(path)
			rel, _ := filepath.Rel(dir, path)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

// funcText returns the text of the function whose declaration starts with
// prefix, up to the next top-level closing brace.
func funcText(src, prefix string) string {
	i := strings.Index(src, "\n"+prefix)
	if i < 0 {
		return ""
	}
	j := strings.Index(src[i:], "\n}\n")
	if j < 0 {
		return src[i:]
	}
	return src[i : i+j]
}
