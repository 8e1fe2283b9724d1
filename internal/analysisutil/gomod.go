package analysisutil

import (
	"path/filepath"
	"sort"

	"golang.org/x/mod/semver"
	"golang.org/x/tools/go/analysis"
)

// Requirements returns the module paths that the go.mod of the pass's
// package's module requires (directly or as `// indirect`), and whether
// that list is the module's whole build list: a go.mod at go 1.17 or later
// lists every module that provides a package to the module's own packages
// (module graph pruning), an older one only the direct requirements. ok is
// false when no go.mod is found for the package (GOPATH mode, files
// outside their module's directory).
func Requirements(pass *analysis.Pass) (reqs []string, complete, ok bool) {
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if !filepath.IsAbs(name) {
			continue
		}
		m := findModule(filepath.Dir(name), pass.Pkg.Path())
		if m == nil {
			return nil, false, false
		}
		for r := range m.require {
			reqs = append(reqs, r)
		}
		sort.Strings(reqs)
		return reqs, m.goVer != "" && semver.Compare("v"+m.goVer, "v1.17") >= 0, true
	}
	return nil, false, false
}
