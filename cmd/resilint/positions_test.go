package main_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestPositions: a package that uses cgo is analysed and fixed in its own
// file, not in the one cmd/cgo writes; //line directives move neither
// findings, fixes nor //nolint directives (issue 14.8). See
// testdata/positions/README.md.
func TestPositions(t *testing.T) {
	t.Parallel()
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is not enabled")
	}
	dir := copyModule(t, "positions")
	want := []string{"cgo/cgo.go:18 detachedctx", "line/line.go:13 detachedctx"}
	if got := lines(t, dir, "./..."); !slices.Equal(got, want) {
		t.Errorf("findings: got %q, want %q", got, want)
	}
	before := snapshotGo(t, dir)
	if _, stderr, code := run(t, dir, resilint, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d: %s", code, stderr)
	}
	after := snapshotGo(t, dir)
	for _, file := range []string{"cgo/cgo.go", "line/line.go"} {
		want := strings.Replace(before[file], "context.WithTimeout(context.Background(), time.Second)", "context.WithTimeout(ctx, time.Second)", 1)
		if after[file] != want {
			t.Errorf("%s after -fix:\n%s\nwant:\n%s", file, after[file], want)
		}
	}
	if _, stderr, code := run(t, dir, "go", "build", "./..."); code != 0 {
		t.Errorf("the fixed module does not build:\n%s", stderr)
	}
}
