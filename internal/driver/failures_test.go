package driver

import (
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
