package suite_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/resilint/resilint/suite"
)

var update = flag.Bool("update", false, "rewrite the README's analyzer table from the analyzers' doc.go")

const (
	beginMarker = "<!-- analyzers:begin (generated from each analyzer's doc.go by `go test ./suite -update`) -->"
	endMarker   = "<!-- analyzers:end -->"
)

// table renders the README's table of analyzers from their documentation.
func table() string {
	var b strings.Builder
	b.WriteString("| Analyzer | Reports |\n|---|---|\n")
	for _, d := range suite.Docs() {
		b.WriteString("| [`" + d.Name + "`](analyzers/" + d.Name + "/doc.go) | " + d.Summary + " |\n")
	}
	return b.String()
}

// TestREADMETable fails when the README's table of analyzers drifts from the
// analyzers' doc.go files.
func TestREADMETable(t *testing.T) {
	const path = "../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i := strings.Index(readme, beginMarker)
	j := strings.Index(readme, endMarker)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the markers %q ... %q", beginMarker, endMarker)
	}
	got := readme[i+len(beginMarker)+1 : j]
	want := table()
	if got == want {
		return
	}
	if *update {
		readme = readme[:i+len(beginMarker)+1] + want + readme[j:]
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's analyzer table is out of date; run go test ./suite -update\n--- README\n%s--- doc.go\n%s", got, want)
}

// TestDocs checks every analyzer's documentation for the parts the help,
// the README and SARIF rules use.
func TestDocs(t *testing.T) {
	for _, d := range suite.Docs() {
		if d.Summary == "" || d.Body == "" {
			t.Errorf("%s: doc.go needs a summary and a body", d.Name)
		}
		if strings.HasSuffix(d.Summary, ".") {
			t.Errorf("%s: the summary is a phrase, without a final period: %q", d.Name, d.Summary)
		}
	}
}
