package vetunit

import (
	"os"

	"github.com/resilint/resilint/knowledge"
)

// The fast path. A package's facts come from the passes that export them
// (ctxflow, outbound, retryloop, deps, globalbreaker), and each of them looks
// at a package only when the package is, or directly imports, a package the
// knowledge table names (or, for retryloop, time and context), when a
// direct import has facts of its own, or (ctxflow) when it is the user's own
// code, not the standard library or a versioned dependency. A package that meets none of these
// conditions has no facts, whatever its code: analysing it for its
// importers would parse and type-check it to learn nothing. FactPaths is the
// union of the passes' import conditions; the engine's tests check that no
// package it lets through exports a fact.

// FactPaths returns the import paths that can give a package facts.
func FactPaths(t *knowledge.Table) map[string]bool { return t.FactPaths() }

// CanHaveFacts reports whether a package may export facts: it is the
// user's own code (own: ctxflow exports what its functions return and which
// function parameters they keep to run later, whatever they import), it is
// or imports a package of paths, or one of its imports has facts
// (hasFacts). imports are package paths (the .cfg's ImportMap values).
func CanHaveFacts(path string, own bool, imports []string, paths map[string]bool, hasFacts func(path string) bool) bool {
	if own || paths[path] {
		return true
	}
	for _, imp := range imports {
		if paths[imp] || hasFacts(imp) {
			return true
		}
	}
	return false
}

// vetxHasFacts reports whether a dependency's facts file holds facts. A
// dependency without a file (its analysis failed) may have had some: true.
func vetxHasFacts(vetx map[string]string) func(string) bool {
	return func(path string) bool {
		if path == "unsafe" || path == "C" {
			return false
		}
		file, ok := vetx[path]
		if !ok {
			return true
		}
		info, err := os.Stat(file)
		return err != nil || info.Size() > 0
	}
}
