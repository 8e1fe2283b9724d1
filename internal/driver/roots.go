package driver

import (
	"bytes"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/internal/vetunit"
)

// With test packages on, a root package without test files is vetted as
// "p", under the same key of the go command as the vet run of "p" that an
// earlier run made when p was only an importer's dependency (the key does not
// tell a run for findings from a run for facts only): a root would replay
// that run's output, and a run in which p is only a dependency would replay
// a root's. So the units of the module's own packages (vetunit: moduleOwn)
// print their findings in both runs, and the driver keeps the units of its
// roots: those whose package is in a directory the directory patterns (".",
// "./x", "./x/...", an absolute directory, an import path of the main
// module) match, found here as the go command finds them (./... leaves out
// testdata, vendor, _ and . directories and nested modules). go list would
// tell them too, but it costs as much as a whole cached re-run. The other
// patterns (all, std, import paths outside the main module, wildcards
// inside a path) are returned to the caller, which asks go list for their
// packages, and gives each of them an empty test file (overlay.go), as it
// does for directory patterns where the units of the packages do not print
// as dependencies (the standard library as the main module, GOPATH mode):
// as "p [p.test]" such a root has a key of its own. A directory whose files
// name more than one package gets no file: such a package is vetted as
// before.

// rootPkg is a directory that holds a package, and the package's name.
type rootPkg struct {
	dir, name string
}

// localRoots returns the packages the directory patterns among patterns
// match, relative to the working directory, and the patterns it could not
// resolve that way.
func localRoots(patterns []string, tags string) (roots []rootPkg, rest []string) {
	dirs, rest := localDirs(patterns)
	return packageNames(dirs, tags), rest
}

// localDirs returns the directories the directory patterns among patterns
// match (every one that may hold a package: which do is not read), and the
// patterns it could not resolve that way.
func localDirs(patterns []string) (dirs, rest []string) {
	modCache := os.Getenv("GOMODCACHE")
	if modCache == "" {
		if gp := filepath.SplitList(build.Default.GOPATH); len(gp) > 0 {
			modCache = filepath.Join(gp[0], "pkg", "mod")
		}
	}
	// The directories, in the order the patterns and the walk give them;
	// their packages' names are read in parallel below.
	seen := map[string]bool{}
	add := func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		if modCache != "" && within(dir, modCache) {
			return // the go command refuses overlays there
		}
		dirs = append(dirs, dir)
	}
	modRoot, modPath := mainModule()
	for _, p := range patterns {
		orig := p
		if !isDirPattern(p) {
			// An import path of the main module names its directory.
			rel, ok := strings.CutPrefix(p, modPath)
			if modPath == "" || !ok || rel != "" && rel[0] != '/' {
				rest = append(rest, p)
				continue
			}
			p = filepath.Join(modRoot, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
			if strings.HasSuffix(rel, "/...") || rel == "/..." {
				p = strings.TrimSuffix(p, "...") + "..."
			}
		}
		rec := false
		if p == "..." || strings.HasSuffix(p, "/...") {
			rec = true
			p = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
			if p == "" {
				p = "."
			}
		}
		if strings.Contains(p, "...") {
			rest = append(rest, orig) // a wildcard inside the path
			continue
		}
		dir, err := filepath.Abs(p)
		if err != nil {
			rest = append(rest, orig)
			continue
		}
		if !rec {
			add(dir)
			continue
		}
		filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
			if err != nil || !e.IsDir() {
				return nil
			}
			if path != dir {
				// The go command's ./... leaves out these directories
				// and other modules.
				base := e.Name()
				if base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			add(path)
			return nil
		})
	}
	return dirs, rest
}

// packageNames returns the packages of dirs, with their names, as the build
// constraints and -tags select their files.
func packageNames(dirs []string, tags string) []rootPkg {
	ctxt := build.Default
	ctxt.BuildTags = append(append([]string(nil), ctxt.BuildTags...), buildTags(tags)...)
	names := make([]string, len(dirs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(len(dirs), 4*runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				names[i] = packageName(&ctxt, dirs[i])
			}
		}()
	}
	for i := range dirs {
		work <- i
	}
	close(work)
	wg.Wait()
	var roots []rootPkg
	for i, dir := range dirs {
		if names[i] != "" {
			roots = append(roots, rootPkg{dir, names[i]})
		}
	}
	return roots
}

// mainModule returns the directory and path of the module the working
// directory is in ("" outside one, or in a workspace, whose modules the
// go command resolves).
func mainModule() (dir, path string) {
	wd, err := os.Getwd()
	if err != nil {
		return "", ""
	}
	root, path, workspace := analysisutil.ModuleAt(wd)
	if workspace {
		return "", ""
	}
	return root, path
}

// isDirPattern reports whether a package pattern names directories.
func isDirPattern(p string) bool {
	return p == "." || p == ".." || p == "..." || filepath.IsAbs(p) ||
		strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") ||
		strings.HasPrefix(p, "."+string(filepath.Separator)) || strings.HasPrefix(p, ".."+string(filepath.Separator))
}

// buildTags returns the tags of -tags and of GOFLAGS' -tags.
func buildTags(tags string) []string {
	var out []string
	split := func(s string) {
		for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
			out = append(out, t)
		}
	}
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "tags="); ok {
			split(v)
		}
	}
	split(tags)
	return out
}

// packageName returns the name of the package in dir: the one name that
// every non-test Go file the build constraints select declares, or "" when
// there is none, or more than one.
func packageName(ctxt *build.Context, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	name := ""
	fset := token.NewFileSet()
	// The build constraints are read from the file's header, which holds
	// the package clause: it is kept as it is read, so that each file is
	// opened once and only its header is read.
	var header bytes.Buffer
	c := *ctxt
	c.OpenFile = func(path string) (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		return teeCloser{io.TeeReader(f, &header), f}, nil
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") ||
			strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		header.Reset()
		if ok, err := c.MatchFile(dir, n); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), header.Bytes(), parser.PackageClauseOnly)
		if err != nil {
			return ""
		}
		switch {
		case name == "":
			name = f.Name.Name
		case name != f.Name.Name:
			return ""
		}
	}
	if name == "documentation" {
		return "" // the go command ignores such files
	}
	return name
}

// teeCloser is a file read through a reader that keeps what it reads.
type teeCloser struct {
	io.Reader
	io.Closer
}

// rootSet tells the roots' units from the others on go vet's output.
type rootSet struct {
	dirs map[string]bool   // the directories of the root packages
	back map[string]string // file of the overlay -> the file it stands for
}

func (s *rootSet) add(dirs ...string) {
	for _, d := range dirs {
		if d != "" {
			s.dirs[d] = true
		}
	}
}

// keep reports whether u is a root's unit, leaving in it the views of root
// packages only. A nil set keeps every unit: the units of dependencies
// then print nothing. A unit that carries an error is a root's: a
// dependency's unit does not run when its package does not compile.
func (s *rootSet) keep(u *vetunit.Unit) bool {
	if s == nil || u.Error != "" && len(u.Views) == 0 {
		return true
	}
	views := u.Views[:0]
	for _, v := range u.Views {
		if len(v.Files) == 0 {
			continue
		}
		f := v.Files[0]
		if orig, ok := s.back[f]; ok {
			f = orig
		}
		if s.dirs[filepath.Dir(f)] {
			views = append(views, v)
		}
	}
	u.Views = views
	return len(views) > 0 || u.Error != ""
}

// ownModules reports whether the directory patterns name packages of main
// modules, whose units print their findings also when they run for an
// importer's facts (vetunit: moduleOwn): modules are on, and a module
// other than the standard library's, or a workspace, holds the working
// directory.
func ownModules() bool {
	if os.Getenv("GO111MODULE") == "off" {
		return false
	}
	wd, err := os.Getwd()
	if err != nil {
		return false
	}
	_, path, workspace := analysisutil.ModuleAt(wd)
	return workspace || path != "" && path != "std"
}
