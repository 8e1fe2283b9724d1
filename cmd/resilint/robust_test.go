package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// runEnv is run with extra environment variables.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
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

// TestNewFromRevHostileGitConfig: -new-from-rev reads the same changed
// lines whatever the user's git configuration says about prefixes, external
// diff drivers, color, relative paths and hunk merging.
func TestNewFromRevHostileGitConfig(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "legacy code")
	name := filepath.Join(dir, "api", "api.go")
	data, _ := os.ReadFile(name)
	// A new finding, three lines below another change: with
	// diff.interHunkContext the hunks merge and the lines between them
	// would count as changed.
	src := strings.Replace(string(data), "// Report waits", "// Push is new.\nfunc Push(ctx context.Context) {\n\tctx, cancel := context.WithTimeout(context.TODO(), time.Second)\n\tdefer cancel()\n\t_ = ctx\n}\n\n// Report waits", 1)
	writeFile(t, name, src)
	want := []string{"api/api.go:" + strconv.Itoa(lineOf(t, src, "context.TODO()", 0)) + " detachedctx"}

	home := t.TempDir()
	bin := filepath.Join(home, "extdiff")
	writeFile(t, bin, "#!/bin/sh\necho 'external diff ran' \nexit 0\n")
	os.Chmod(bin, 0o755)
	hostile := []struct{ name, config string }{
		{"mnemonicPrefix", "[diff]\n\tmnemonicPrefix = true\n"},
		{"noprefix", "[diff]\n\tnoprefix = true\n"},
		{"external diff", "[diff]\n\texternal = " + bin + "\n"},
		{"color", "[color]\n\tui = always\n\tdiff = always\n"},
		{"relative", "[diff]\n\trelative = true\n"},
		{"interHunkContext", "[diff]\n\tinterHunkContext = 20\n"},
		{"all", "[diff]\n\tmnemonicPrefix = true\n\tnoprefix = true\n\texternal = " + bin + "\n\trelative = true\n\tinterHunkContext = 20\n[color]\n\tui = always\n"},
	}
	for _, h := range hostile {
		cfg := filepath.Join(home, h.name+".gitconfig")
		writeFile(t, cfg, h.config)
		env := []string{"GIT_CONFIG_GLOBAL=" + cfg, "GIT_CONFIG_NOSYSTEM=1", "HOME=" + home}
		stdout, stderr, code := runEnv(t, dir, env, resilint, "-json", "-new-from-rev", "HEAD", "./...")
		if code != 3 {
			t.Errorf("%s: exit %d, want 3: %s", h.name, code, stderr)
			continue
		}
		var got []string
		for _, f := range decodeFindings(t, stdout) {
			got = append(got, posLine(t, dir, f.Posn)+" "+f.analyzer)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", h.name, got, want)
		}
	}
}

// TestOutputPathsCheckedFirst: an output file that cannot be written is an
// error before the analysis, not after it.
func TestOutputPathsCheckedFirst(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	for _, args := range [][]string{
		{"-format", "text,sarif:nodir/out.sarif"},
		{"-format", "text,json:client"}, // a directory
		{"-write-baseline", "nodir/b.json"},
	} {
		_, stderr, code := run(t, dir, resilint, append(args, "./...")...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		if strings.Contains(stderr, "has no deadline") || strings.Contains(stderr, "recorded") {
			t.Errorf("%v: the analysis ran before the output path was checked:\n%s", args, stderr)
		}
		if !strings.Contains(stderr, "nodir") && !strings.Contains(stderr, "is a directory") {
			t.Errorf("%v: the error does not name the problem:\n%s", args, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nodir")); err == nil {
		t.Error("nodir was created")
	}
}

// TestBaselineTrailingData: a baseline file with data after its JSON object
// (two files concatenated, a bad merge) is an error, not silently half-read.
func TestBaselineTrailingData(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	if _, stderr, code := run(t, dir, resilint, "-write-baseline", "b.json", "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "b.json"))
	for _, tail := range []string{"garbage", `{"version":1,"tool":"resilint","findings":[]}`, "]"} {
		writeFile(t, filepath.Join(dir, "c.json"), string(data)+tail)
		_, stderr, code := run(t, dir, resilint, "-baseline", "c.json", "./...")
		if code != 1 || !strings.Contains(stderr, "data after the JSON object") {
			t.Errorf("baseline + %q: exit %d, want 1 with an error: %s", tail, code, stderr)
		}
	}
	writeFile(t, filepath.Join(dir, "c.json"), string(data)+"\n\n")
	if _, stderr, code := run(t, dir, resilint, "-baseline", "c.json", "./..."); code != 0 {
		t.Errorf("trailing white space: exit %d, want 0: %s", code, stderr)
	}
}
