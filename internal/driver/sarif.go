package driver

import (
	"encoding/json"
	"go/doc/comment"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"honnef.co/go/tools/sarif"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/suite"
)

// RepoURL is resilint's home; the SARIF rules link to each analyzer's
// documentation (its doc.go) there.
const RepoURL = "https://github.com/resilint/resilint"

// HelpURI returns the address of an analyzer's documentation.
func HelpURI(analyzer string) string {
	return RepoURL + "/blob/main/analyzers/" + analyzer + "/doc.go"
}

// writeSARIF writes the findings as a SARIF 2.1.0 log: one rule per
// analyzer (its doc.go as help), one result per finding (ruleId = the
// analyzer's name) with its suggested fixes as SARIF fixes. Paths are
// relative to the repository root (%SRCROOT%); columns are counted in UTF-16
// code units, SARIF's default.
func (d *run) writeSARIF(w io.Writer, found []Finding, status int) error {
	enabled := map[string]bool{}
	for _, a := range d.analyzers {
		enabled[a.Name] = true
	}
	var rules []sarif.ReportingDescriptor
	for _, doc := range suite.Docs() {
		rules = append(rules, sarif.ReportingDescriptor{
			ID:                   doc.Name,
			ShortDescription:     sarif.Message{Text: doc.Summary},
			Help:                 sarif.Message{Text: doc.Text(), Markdown: markdown(doc)},
			HelpURI:              HelpURI(doc.Name),
			DefaultConfiguration: sarif.ReportingConfiguration{Enabled: enabled[doc.Name], Level: sarif.Warning},
		})
	}
	results := []sarif.Result{}
	for _, f := range found {
		res := sarif.Result{
			RuleID:       f.Analyzer,
			Kind:         sarif.Fail,
			Level:        sarif.Warning,
			Message:      sarif.Message{Text: f.Message},
			Locations:    []sarif.Location{d.location(f.Posn, f.End)},
			Suppressions: []sarif.Suppression{},
		}
		for _, rel := range f.Related {
			loc := d.location(rel.Posn, rel.End)
			loc.Message = &sarif.Message{Text: rel.Message}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		for _, sf := range f.Fixes {
			if fix, ok := d.sarifFix(sf); ok {
				res.Fixes = append(res.Fixes, fix)
			}
		}
		results = append(results, res)
	}
	wd, _ := os.Getwd()
	root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(wd) + "/"}).String()
	log := sarifLog{
		Version: sarif.Version,
		Schema:  sarif.Schema,
		Runs: []sarifRun{{
			Run: sarif.Run{
				Tool: sarif.Tool{Driver: sarif.ToolComponent{
					Name:           "resilint",
					InformationURI: RepoURL,
					Rules:          rules,
				}},
				Invocations: []sarif.Invocation{{
					Arguments:           d.args,
					WorkingDirectory:    sarif.ArtifactLocation{URI: root},
					ExecutionSuccessful: status != ExitError,
				}},
			},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifLog and sarifRun are honnef's sarif.Log and sarif.Run, except that
// results is written when empty: in SARIF an empty list means "ran and found
// nothing", an absent one "did not run", and code scanning closes the alerts
// of a clean run only in the first case.
type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	sarif.Run
	Results []sarif.Result `json:"results"` // shadows Run.Results
}

// markdown renders an analyzer's documentation (Go doc comment syntax) as
// Markdown.
func markdown(doc analysisutil.Doc) string {
	var p comment.Parser
	var pr comment.Printer
	return doc.Summary + "\n\n" + string(pr.Markdown(p.Parse(doc.Body)))
}

func (d *run) location(posn, end token.Position) sarif.Location {
	return sarif.Location{PhysicalLocation: sarif.PhysicalLocation{
		ArtifactLocation: d.artifact(posn.Filename),
		Region:           d.region(posn, end),
	}}
}

func (d *run) artifact(filename string) sarif.ArtifactLocation {
	return sarif.ArtifactLocation{URI: (&url.URL{Path: d.rel(filename)}).String(), URIBaseID: "%SRCROOT%"}
}

// region returns the SARIF region of posn..end (end may be invalid).
func (d *run) region(p, e token.Position) sarif.Region {
	r := sarif.Region{StartLine: p.Line, StartColumn: d.column(p)}
	if e.IsValid() && e.Filename == p.Filename {
		r.EndLine, r.EndColumn = e.Line, d.column(e)
	} else {
		r.EndLine, r.EndColumn = r.StartLine, r.StartColumn
	}
	return r
}

// column converts a position's byte column to a 1-based column in UTF-16
// code units.
func (d *run) column(p token.Position) int {
	src := d.source(p.Filename)
	start := d.lineStart(p.Filename, p.Line)
	if start < 0 || start+p.Column-1 > len(src) {
		return max(p.Column, 1)
	}
	col := 1
	for b := src[start : start+p.Column-1]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return col
}

// sarifFix converts a suggested fix to a SARIF fix; false if an edit is
// outside any file.
func (d *run) sarifFix(sf Fix) (sarif.Fix, bool) {
	fix := sarif.Fix{Description: sarif.Message{Text: sf.Message}}
	index := map[string]int{}
	for _, e := range sf.Edits {
		if e.File == "" {
			return sarif.Fix{}, false
		}
		i, ok := index[e.File]
		if !ok {
			i = len(fix.ArtifactChanges)
			index[e.File] = i
			fix.ArtifactChanges = append(fix.ArtifactChanges, sarif.ArtifactChange{ArtifactLocation: d.artifact(e.File)})
		}
		fix.ArtifactChanges[i].Replacements = append(fix.ArtifactChanges[i].Replacements, sarif.Replacement{
			DeletedRegion:   d.region(d.position(e.File, e.Start), d.position(e.File, e.End)),
			InsertedContent: sarif.ArtifactContent{Text: string(e.New)},
		})
	}
	return fix, len(fix.ArtifactChanges) > 0
}

// source returns a file's content, read once.
func (d *run) source(name string) []byte {
	if data, ok := d.sources[name]; ok {
		return data
	}
	data, _ := os.ReadFile(name)
	if d.sources == nil {
		d.sources = map[string][]byte{}
	}
	d.sources[name] = data
	return data
}

// lines returns the offsets at which the lines of a file start.
func (d *run) lines(name string) []int {
	if l, ok := d.lineIndex[name]; ok {
		return l
	}
	src := d.source(name)
	l := []int{0}
	for i, c := range src {
		if c == '\n' {
			l = append(l, i+1)
		}
	}
	if d.lineIndex == nil {
		d.lineIndex = map[string][]int{}
	}
	d.lineIndex[name] = l
	return l
}

// lineStart returns the offset of the start of a 1-based line, or -1.
func (d *run) lineStart(name string, line int) int {
	l := d.lines(name)
	if line < 1 || line > len(l) {
		return -1
	}
	return l[line-1]
}

// position returns the position of a byte offset in a file.
func (d *run) position(name string, offset int) token.Position {
	if offset < 0 {
		return token.Position{}
	}
	l := d.lines(name)
	i := sort.Search(len(l), func(i int) bool { return l[i] > offset }) // first line after
	return token.Position{Filename: name, Offset: offset, Line: i, Column: offset - l[i-1] + 1}
}
