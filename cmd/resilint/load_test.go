package main_test

import (
	"slices"
	"testing"
)

// TestTags: -tags and GOFLAGS=-tags= select build-tagged files (issue
// 13.12).
func TestTags(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "scope")
	want := []string{"tagged/tagged.go:12 ctxdeadline"}
	if got := lines(t, dir, "./tagged"); len(got) != 0 {
		t.Errorf("without the tag: %q", got)
	}
	if got := lines(t, dir, "-tags", "special", "./tagged"); !slices.Equal(got, want) {
		t.Errorf("-tags special: got %q, want %q", got, want)
	}
	stdout, stderr, code := runEnv(t, dir, []string{"GOFLAGS=-tags=special"}, resilint, "-json", "./tagged")
	if code != 3 {
		t.Fatalf("GOFLAGS=-tags=special: exit %d: %s", code, stderr)
	}
	var got []string
	for _, f := range decodeFindings(t, stdout) {
		got = append(got, posLine(t, dir, f.Posn)+" "+f.analyzer)
	}
	if !slices.Equal(got, want) {
		t.Errorf("GOFLAGS=-tags=special: got %q, want %q", got, want)
	}
}
