package analysisutil

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Doc is an analyzer's documentation, read from its doc.go: the package
// comment holds a section "# Analyzer NAME" whose first paragraph is
// "NAME: summary" and whose remaining text is the body.
type Doc struct {
	Name    string
	Summary string
	Body    string
}

// Text returns the documentation in the form analysis.Analyzer.Doc expects:
// the summary line, a blank line, then the body.
func (d Doc) Text() string {
	if d.Body == "" {
		return d.Summary
	}
	return d.Summary + "\n\n" + d.Body
}

// ParseDoc extracts an analyzer's documentation from the source of its
// doc.go file.
func ParseDoc(src, name string) (Doc, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return Doc{}, err
	}
	if f.Doc == nil {
		return Doc{}, fmt.Errorf("doc.go of %s has no package comment", name)
	}
	text := f.Doc.Text()
	heading := "# Analyzer " + name
	i := strings.Index(text, heading)
	if i < 0 {
		return Doc{}, fmt.Errorf("doc.go of %s lacks the heading %q", name, heading)
	}
	text = strings.TrimSpace(text[i+len(heading):])
	first, rest, _ := strings.Cut(text, "\n\n")
	prefix := name + ": "
	if !strings.HasPrefix(first, prefix) {
		return Doc{}, fmt.Errorf("doc.go of %s: the section must start with %q", name, prefix)
	}
	return Doc{Name: name, Summary: strings.Join(strings.Fields(first[len(prefix):]), " "), Body: strings.TrimSpace(rest)}, nil
}

// MustDoc is ParseDoc for package initialisation: a malformed doc.go is a
// programming error caught by every test.
func MustDoc(src, name string) Doc {
	d, err := ParseDoc(src, name)
	if err != nil {
		panic(err)
	}
	return d
}
