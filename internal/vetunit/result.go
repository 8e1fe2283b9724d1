package vetunit

import "go/token"

// A Unit is what one vet run of a root package prints on standard output
// (the go command caches it and prints it again on later runs). Dependencies
// analysed only for their facts print nothing; with test packages on, those
// of the module itself print as roots do (the driver keeps its roots').
type Unit struct {
	// Resilint marks the object as a unit of this engine (go vet's standard
	// output holds nothing else, but a stray line must not be misread).
	Resilint int `json:"resilint"`
	// ID is the package's ID ("p", "p [p.test]", "p_test [p.test]").
	ID string `json:"id"`
	// Views are the packages analysed: for a package with test files
	// ("p [p.test]"), the package without them ("p") first, then with them,
	// as the in-process engine analyses both; otherwise the package itself.
	// None when test packages are off and this is an external test package.
	Views []View `json:"views"`
	// Error is why the package could not be analysed (a type error), or "".
	Error string `json:"error,omitempty"`
}

// A View is one package analysed, with its findings.
type View struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	// Files are the package's own Go files (a cgo file, not the file
	// cmd/cgo wrote for it).
	Files []string `json:"files"`
	// Imports are the import paths of each of Files, as the file spells
	// them: the driver's filter of packages that only test code imports
	// reads them instead of parsing every file again.
	Imports  map[string][]string `json:"imports,omitempty"`
	Findings []Finding           `json:"findings,omitempty"`
	// Errors are analyzers that failed.
	Errors []AnalyzerError `json:"errors,omitempty"`
}

// A Finding is one diagnostic, with positions resolved.
type Finding struct {
	Analyzer string         `json:"analyzer"`
	Posn     token.Position `json:"posn"`
	End      token.Position `json:"end"`
	Category string         `json:"category,omitempty"`
	Message  string         `json:"message"`
	Related  []Related      `json:"related,omitempty"`
	Fixes    []Fix          `json:"fixes,omitempty"`
}

// Related is a secondary position of a finding.
type Related struct {
	Posn    token.Position `json:"posn"`
	End     token.Position `json:"end"`
	Message string         `json:"message"`
}

// A Fix is a suggested fix: its edits apply together or not at all.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// An Edit replaces bytes [Start, End) of File with New.
type Edit struct {
	File  string `json:"file"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// An AnalyzerError is an analyzer that failed on a package.
type AnalyzerError struct {
	Analyzer string `json:"analyzer"`
	Err      string `json:"error"`
}
