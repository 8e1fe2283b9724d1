package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilint/resilint/internal/vetunit"
)

// A load error that both go vet's output and the package's unit report is
// named once (issue 13, rule 12: each failed package is named, once).
func TestReportFailuresOnce(t *testing.T) {
	p := &listPkg{ImportPath: "example.com/m/api", Name: "api"}
	l := &listing{pkgs: []*listPkg{p}, byID: map[string]*listPkg{p.ImportPath: p}, roots: []*listPkg{p}}
	res := &vetResult{
		stderr: []byte("# example.com/m/api\nvet: api/statics.go:38:25: undefined: auto.Assets\n"),
		units:  []vetunit.Unit{{ID: p.ImportPath, Error: "api/statics.go:38:25: undefined: auto.Assets"}},
		code:   1,
	}
	var b strings.Builder
	if !reportFailures(&b, l, res) {
		t.Fatal("no failure reported")
	}
	if n := strings.Count(b.String(), "undefined: auto.Assets"); n != 1 {
		t.Errorf("the error is printed %d times, want once:\n%s", n, b.String())
	}
}

// The same error with an absolute path in one report and a relative one in
// the other is printed once (the probe's r12loaderr printed it twice).
func TestReportFailuresOnceAbsolute(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	p := &listPkg{ImportPath: "example.com/m/bad", Name: "bad"}
	l := &listing{pkgs: []*listPkg{p}, byID: map[string]*listPkg{p.ImportPath: p}, roots: []*listPkg{p}}
	res := &vetResult{
		stderr: []byte("# example.com/m/bad\nvet: bad/bad.go:3:27: cannot use x\n"),
		units:  []vetunit.Unit{{ID: p.ImportPath, Error: filepath.Join(wd, "bad", "bad.go") + ":3:27: cannot use x"}},
		code:   1,
	}
	var b strings.Builder
	reportFailures(&b, l, res)
	if n := strings.Count(b.String(), "cannot use x"); n != 1 {
		t.Errorf("the error is printed %d times, want once:\n%s", n, b.String())
	}
}
