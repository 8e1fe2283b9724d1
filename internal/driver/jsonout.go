package driver

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"sort"
)

// The -json output: the go/analysis checker's JSON tree,
// {package ID: {analyzer: [diagnostic...] or {"error": ...}}}, as
// checker.Graph.PrintJSON and unitchecker print it.

type jsonTextEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonSuggestedFix struct {
	Message string         `json:"message"`
	Edits   []jsonTextEdit `json:"edits"`
}

type jsonDiagnostic struct {
	Category       string             `json:"category,omitempty"`
	Posn           string             `json:"posn"`
	End            string             `json:"end"`
	Message        string             `json:"message"`
	SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated      `json:"related,omitempty"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonError struct {
	Err string `json:"error"`
}

// endOr returns end, or posn when end is not valid.
func endOr(end, posn token.Position) token.Position {
	if end.IsValid() {
		return end
	}
	return posn
}

// jsonDiag converts a finding to the checker's JSON shape.
func jsonDiag(f Finding) jsonDiagnostic {
	jd := jsonDiagnostic{
		Category: f.Category,
		Posn:     f.Posn.String(),
		End:      endOr(f.End, f.Posn).String(),
		Message:  f.Message,
	}
	for _, fix := range f.Fixes {
		jf := jsonSuggestedFix{Message: fix.Message}
		for _, e := range fix.Edits {
			jf.Edits = append(jf.Edits, jsonTextEdit{Filename: e.File, Start: e.Start, End: e.End, New: string(e.New)})
		}
		jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
	}
	for _, r := range f.Related {
		jd.Related = append(jd.Related, jsonRelated{Posn: r.Posn.String(), End: endOr(r.End, r.Posn).String(), Message: r.Message})
	}
	return jd
}

// printJSON prints the findings, and the analyzers' errors, as the
// checker's JSON tree. Within a package and analyzer, findings are in file
// and offset order.
func printJSON(w io.Writer, res *Result, found []Finding) error {
	tree := map[string]map[string]any{}
	add := func(pkg, analyzer string, v any) {
		m, ok := tree[pkg]
		if !ok {
			m = map[string]any{}
			tree[pkg] = m
		}
		m[analyzer] = v
	}
	type group struct{ pkg, analyzer string }
	groups := map[group][]Finding{}
	for _, f := range found {
		g := group{f.Pkg, f.Analyzer}
		groups[g] = append(groups[g], f)
	}
	for g, list := range groups {
		sort.SliceStable(list, func(i, j int) bool {
			a, b := list[i].Posn, list[j].Posn
			if a.Filename != b.Filename {
				return a.Filename < b.Filename
			}
			return a.Offset < b.Offset
		})
		diags := make([]jsonDiagnostic, 0, len(list))
		for _, f := range list {
			diags = append(diags, jsonDiag(f))
		}
		add(g.pkg, g.analyzer, diags)
	}
	for _, e := range res.Errors {
		add(e.Pkg, e.Analyzer, jsonError{e.Err})
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
