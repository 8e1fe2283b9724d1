package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// goCacher is the GOCACHEPROG implementation the cache tests use, built from
// the module proxy: github.com/bradfitz/go-tool-cache's go-cacher, a cache
// over a directory (shared directories, or an HTTP server, are how a fleet
// shares one).
const goCacher = "github.com/bradfitz/go-tool-cache/cmd/go-cacher@v0.0.0-20260723163732-0b25549eea9b"

// analysedCount matches resilint -v's summary.
var analysedCount = regexp.MustCompile(`resilint: (\d+) packages analysed \((\d+) for findings, (\d+) for facts only\), (\d+) without facts skipped, (\d+) of (\d+) results from the cache`)

type counts struct{ analysed, roots, facts, fast, cached, units int }

func parseCounts(t *testing.T, stderr string) counts {
	t.Helper()
	m := analysedCount.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no -v summary in:\n%s", stderr)
	}
	n := make([]int, 7)
	for i := 1; i < 7; i++ {
		n[i], _ = strconv.Atoi(m[i])
	}
	return counts{n[1], n[2], n[3], n[4], n[5], n[6]}
}

// TestSharedCache: a second machine (an empty GOCACHE) that shares a
// GOCACHEPROG backend with the first analyses nothing again and prints the
// same findings; so does an unchanged re-run on one machine.
func TestSharedCache(t *testing.T) {
	t.Parallel()
	gobin := t.TempDir()
	install := exec.Command("go", "install", goCacher)
	install.Dir = gobin
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-mod=mod")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s: %v\n%s", goCacher, err, out)
	}
	shared := t.TempDir()
	prog := "GOCACHEPROG=" + filepath.Join(gobin, "go-cacher") + " -cache-dir=" + shared
	dir := copyModule(t, "retrymod")

	machine1 := []string{"GOCACHE=" + t.TempDir(), prog}
	out1, err1, code1 := runEnv(t, dir, machine1, resilint, "-v", "-json", "./...")
	if code1 != 3 {
		t.Fatalf("first run: exit %d, want 3:\n%s", code1, err1)
	}
	c1 := parseCounts(t, err1)
	if c1.roots == 0 || c1.facts == 0 || c1.cached != 0 {
		t.Errorf("first run on an empty cache: %+v, want packages analysed for findings and for facts, none from the cache", c1)
	}

	machine2 := []string{"GOCACHE=" + t.TempDir(), prog}
	out2, err2, code2 := runEnv(t, dir, machine2, resilint, "-v", "-json", "./...")
	if code2 != code1 || out2 != out1 {
		t.Errorf("second machine: exit %d and findings\n%s\nwant exit %d and\n%s", code2, out2, code1, out1)
	}
	t.Logf("first machine: %+v", c1)
	if c2 := parseCounts(t, err2); c2.analysed != 0 || c2.fast != 0 || c2.cached != c2.units || c2.units != c1.units {
		t.Errorf("second machine analysed again: %+v (first run: %+v)", c2, c1)
	}

	// The first machine again, with nothing changed.
	out3, err3, _ := runEnv(t, dir, machine1, resilint, "-v", "-json", "./...")
	if c3 := parseCounts(t, err3); c3.analysed != 0 || out3 != out1 {
		t.Errorf("unchanged re-run: %+v, findings\n%s", c3, out3)
	}
}

// TestConfigChangeReanalyses: the configuration reaches the units as a vet
// flag, part of the go command's cache key, so that editing .resilint.yml, or
// changing a flag, between two runs changes the findings at once (a tool
// that read the file itself would be served the cached results of the old
// configuration).
func TestConfigChangeReanalyses(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	if got := lines(t, dir, "./..."); !slices.Equal(got, defaultFindings) {
		t.Fatalf("defaults: %q, want %q", got, defaultFindings)
	}
	cfg := filepath.Join(dir, ".resilint.yml")
	writeFile(t, cfg, "outbound:\n  - package: example.com/ecomod/wrap\n    func: Call\n    ctx: -1\n")
	withWrap := []string{"api/api.go:19 detachedctx", "client/client.go:12 ctxdeadline", "client/client.go:19 ctxdeadline"}
	if got := lines(t, dir, "./..."); !slices.Equal(got, withWrap) {
		t.Errorf("after adding the outbound rule: %q, want %q", got, withWrap)
	}
	writeFile(t, cfg, "disable: [ctxdeadline]\n")
	if got := lines(t, dir, "./..."); !slices.Equal(got, []string{"api/api.go:19 detachedctx"}) {
		t.Errorf("after disabling ctxdeadline in the file: %q", got)
	}
	os.Remove(cfg)
	if got := lines(t, dir, "-request-budget=15s", "./..."); !slices.Equal(got, []string{"api/api.go:12 detachedctx", "api/api.go:19 detachedctx", "client/client.go:12 ctxdeadline"}) {
		t.Errorf("-request-budget=15s: %q", got)
	}
	if got := lines(t, dir, "./..."); !slices.Equal(got, defaultFindings) {
		t.Errorf("back to the defaults: %q, want %q", got, defaultFindings)
	}
}

// TestGoModChangeReanalyses: the analyses read the module's requirements (a
// module that can link only an embedded database's driver queries no other
// machine), which the go command's cache key of a vet run does not cover;
// the command puts a hash of go.mod in the vet flag, so that requiring a
// database server's driver changes the findings at once.
func TestGoModChangeReanalyses(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "sqlmod")
	cache := []string{"GOCACHE=" + t.TempDir()}
	run := func() []string {
		out, stderr, code := runEnv(t, dir, cache, resilint, "-json", "./...")
		if code != 0 && code != 3 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		var got []string
		for _, f := range decodeFindings(t, out) {
			got = append(got, posLine(t, dir, f.Posn)+" "+f.analyzer)
		}
		return got
	}
	if got := run(); len(got) != 0 {
		t.Fatalf("embedded driver only: %q, want no findings", got)
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, gomod, strings.Replace(string(data), "require github.com/mattn/go-sqlite3 v1.14.0", "require (\n\tgithub.com/mattn/go-sqlite3 v1.14.0\n\tgithub.com/lib/pq v1.10.0\n)", 1))
	if got, want := run(), []string{"store/store.go:10 ctxdeadline"}; !slices.Equal(got, want) {
		t.Errorf("after requiring lib/pq: %q, want %q", got, want)
	}
}
