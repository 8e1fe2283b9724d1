package driver

import (
	"go/token"
)

// The driver's filters (//nolint, test variants, test-only packages,
// -baseline, -new-from-rev), outputs (text, json, sarif, github) and -fix
// work on the engine-neutral types of this file, so that any engine can
// feed them: the in-process engine (go/packages + go/analysis/checker,
// checker.go) converts the checker's actions into them; an engine that runs
// go vet -vettool per package fills them from unitchecker's JSON.
//
// An engine's contract (run.engine):
//   - it analyses the patterns with overlay (file -> content) over the
//     files on disk: -fix analyses the fixed code again that way (go vet
//     takes -overlay);
//   - positions are in the package's own files, without //line adjustment
//     (a file cmd/cgo wrote maps back to the package's file); Offset is set;
//   - edits are byte offsets in those files, in the content analysed;
//   - Package.Files are the package's own Go files (go list's GoFiles, test
//     files included for a test variant), absolute;
//   - it prints load errors itself, unless quiet, and returns ExitError
//     when a package did not load (and nil when nothing could be analysed).

// A Finding is one diagnostic of one analyzer in one package.
type Finding struct {
	Analyzer string // the analyzer's name
	Pkg      string // the package's ID ("p", "p [p.test]", "p_test [p.test]")
	// Posn is where the finding is; End where it ends (End.IsValid() is
	// false when the analyzer gave no end). Filename is the file's path as
	// loaded; Line and Column are 1-based (Column in bytes); Offset is the
	// byte offset in the file.
	Posn, End token.Position
	Category  string
	Message   string
	Related   []Related
	Fixes     []Fix // suggested fixes, the first is the one -fix applies
}

// Related is a secondary position of a finding.
type Related struct {
	Posn, End token.Position
	Message   string
}

// A Fix is one suggested fix: edits applied all together or not at all.
type Fix struct {
	Message string
	Edits   []Edit
}

// An Edit replaces the bytes [Start, End) of File with New. File is the
// file's path as loaded ("" when the edit is outside any file: invalid).
type Edit struct {
	File       string
	Start, End int
	New        []byte
}

// A Package is one analyzed (root) package.
type Package struct {
	ID    string   // as in Finding.Pkg
	Path  string   // import path
	Files []string // the Go files analyzed (absolute paths)
	// Imports are the import paths of each of Files as the file spells
	// them, when the engine knows them (nil: the driver parses the files).
	Imports map[string][]string
}

// An ActionError is an analyzer that failed on a package.
type ActionError struct {
	Pkg      string // package ID
	Analyzer string
	Root     bool // the package was a root of the analysis, not a dependency
	Err      string
}

// A Result is everything an engine found.
type Result struct {
	Packages []Package
	Findings []Finding // in the engine's order: root by root, each analyzer's findings in report order
	Errors   []ActionError
}
