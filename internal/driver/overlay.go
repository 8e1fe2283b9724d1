package driver

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The go command's -overlay for the vet engine: the contents the driver
// puts over files on disk (a round of fixes), and the test files it hides
// from the go command. go vet always builds a package with its test files,
// so a package whose test files do not load (a test-only import that the
// module does not require) would not be analysed at all; hiding them makes
// the go command build the package as its importers see it:
//   - with -test=false, every test file of the patterns' packages is hidden
//     (the in-process engine loads none);
//   - otherwise, after a run that failed, the test files of the packages
//     whose test packages do not load, though they do, are hidden in a
//     second run: those packages are analysed without their tests, and
//     their test packages are named as not analysed.
// Only test files are hidden, and only of the patterns' packages: a
// dependency is never built with its tests, so nothing else changes.
//
// With -test=false every package of the patterns also gets an empty test
// file (rootTestFile, "package p"), so that the go command analyses it as
// "p [p.test]", as it does a package with test files: the go command's key
// of a package's vet run does not tell a run for findings from a run for
// an importer's facts only, so a package analysed as a root under the key
// of a facts-only run of an earlier run (where it was only a dependency)
// would replay that run's empty output. The unit analyses the package
// without its test files, as ever with -test=false.

// vetOverlay is the overlay of one vet engine run.
type vetOverlay struct {
	dir     string            // where the overlay files are written
	replace map[string]string // file on disk -> file holding its content
	n       int               // overlay files written
	added   map[string]bool   // files the overlay adds (never hidden)
	backing map[string]string // package name -> the empty test file for it
	shared  string            // the directory of shared empty test files, or ""
	back    map[string]string // file of the overlay -> the file it stands for
}

// rootTestFile is the name of the empty test file given to every package
// with -test=false.
const rootTestFile = "resilint_root_test.go"

// addRootTests gives every package of pkgs that has Go files (outside the
// module cache) an empty test file.
func (o *vetOverlay) addRootTests(pkgs []*listPkg, modCache func() string) error {
	for _, r := range listedRoots(pkgs, modCache) {
		if err := o.addRootTest(r.dir, r.name); err != nil {
			return err
		}
	}
	return nil
}

// listedRoots returns the packages of pkgs that can get an empty test
// file: they have Go files and are outside the module cache.
func listedRoots(pkgs []*listPkg, modCache func() string) []rootPkg {
	var out []rootPkg
	for _, p := range pkgs {
		if len(p.GoFiles)+len(p.CgoFiles) > 0 && p.Dir != "" && p.Name != "" && !inModCache(p, modCache) {
			out = append(out, rootPkg{p.Dir, p.Name})
		}
	}
	return out
}

// addRootTest gives the package name in dir an empty test file.
func (o *vetOverlay) addRootTest(dir, name string) error {
	if o.backing == nil {
		o.backing = map[string]string{}
	}
	b, ok := o.backing[name]
	if !ok {
		b = sharedRootTest(o.shared, name)
		if b == "" {
			b = filepath.Join(o.dir, "root-"+strconv.Itoa(len(o.backing))+"_test.go")
			if err := os.WriteFile(b, rootTestContent(name), 0o644); err != nil {
				return err
			}
		}
		o.backing[name] = b
	}
	file := filepath.Join(dir, rootTestFile)
	o.replace[file] = b
	if o.added == nil {
		o.added = map[string]bool{}
	}
	o.added[file] = true
	return nil
}

func rootTestContent(name string) []byte { return []byte("package " + name + "\n") }

// The empty test files, one per package name, are kept between runs in the
// user's cache directory (rootTestsDir): writing a file per package name
// into a fresh directory, and removing them after go vet, cost a tenth of
// a second or more on every run of a large module (vitess: 351 names),
// where the rest of a cached run takes three. Only their contents matter
// to the go command, which hashes them; a file is written once, under a
// temporary name renamed over it, so that a concurrent run never reads it
// half-written, and it is read back before it is used.

// rootTestsDir returns the directory of the shared empty test files, made
// if needed, or "" when there is none (no user cache directory, or not
// writable): each run then writes its own.
func rootTestsDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return ""
	}
	dir := filepath.Join(base, "resilint", "root-tests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return ""
	}
	return dir
}

// sharedRootTest returns the shared empty test file of package name in dir,
// written if it is missing or holds something else, or "" when it cannot
// be had.
func sharedRootTest(dir, name string) string {
	if dir == "" {
		return ""
	}
	want := rootTestContent(name)
	// Package names are identifiers, which may hold capitals (two names
	// that a case-insensitive file system would confuse) and letters
	// outside ASCII: such a name is spelt in hexadecimal. '-' is in no
	// identifier, so the two spellings never meet.
	base := "p-" + name
	for _, r := range name {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_') {
			base = "x-" + hex.EncodeToString([]byte(name))
			break
		}
	}
	file := filepath.Join(dir, base+"_test.go")
	if data, err := os.ReadFile(file); err == nil && bytes.Equal(data, want) {
		return file
	}
	f, err := os.CreateTemp(dir, base+"-*.tmp")
	if err != nil {
		return ""
	}
	_, err = f.Write(want)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		os.Remove(f.Name())
		return ""
	}
	return file
}

// inModCache reports whether a package is in the module cache.
func inModCache(p *listPkg, modCache func() string) bool {
	if p.Module == nil || p.Module.Main {
		return false
	}
	dir := modCache()
	return dir == "" || within(p.Dir, dir)
}

// newVetOverlay writes the contents of overlay (file -> content) to files in
// a new temporary directory, which close removes. back maps them to the
// files they stand for.
func newVetOverlay(overlay map[string][]byte) (o *vetOverlay, back map[string]string, err error) {
	tmp, err := os.MkdirTemp("", "resilint-overlay-")
	if err != nil {
		return nil, nil, err
	}
	o = &vetOverlay{dir: tmp, replace: map[string]string{}, shared: rootTestsDir()}
	back = map[string]string{}
	names := make([]string, 0, len(overlay))
	for name := range overlay {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		// A directory per file keeps its base name, which messages quote
		// ("... at a.go:30"); the units see those files' names, which
		// the results are mapped back from.
		dir := filepath.Join(tmp, strconv.Itoa(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			o.close()
			return nil, nil, err
		}
		f := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(f, overlay[name], 0o644); err != nil {
			o.close()
			return nil, nil, err
		}
		o.replace[name] = f
		back[f] = name
	}
	o.back = back
	return o, back, nil
}

func (o *vetOverlay) close() { os.RemoveAll(o.dir) }

// flags returns the go command's flags for the overlay with the files of
// hide hidden: none when there is nothing to put over the disk.
func (o *vetOverlay) flags(hide []string) ([]string, error) {
	return o.flagsFor(hide, true)
}

// listFlags returns the flags of flags(hide) without the empty test files
// the overlay adds: go list then lists the packages as they are, with the
// IDs the units name them by (a unit whose only test file is such a file is
// the package itself).
func (o *vetOverlay) listFlags(hide []string) ([]string, error) {
	return o.flagsFor(hide, false)
}

func (o *vetOverlay) flagsFor(hide []string, added bool) ([]string, error) {
	if len(o.replace) == 0 && len(hide) == 0 {
		return nil, nil
	}
	replace := make(map[string]string, len(o.replace)+len(hide))
	for k, v := range o.replace {
		if !added && o.added[k] {
			continue
		}
		replace[k] = v
	}
	if len(replace) == 0 && len(hide) == 0 {
		return nil, nil
	}
	for _, f := range hide {
		if !o.added[f] {
			replace[f] = ""
		}
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return nil, err
	}
	o.n++
	name := filepath.Join(o.dir, "overlay"+strconv.Itoa(o.n)+".json")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return nil, err
	}
	return []string{"-overlay=" + name}, nil
}

// testFilesOf returns the test files of packages (absolute paths), leaving
// out those of packages without other Go files and those under the module
// cache, which an overlay may not replace (the
// go command refuses it): such a package is built with its tests.
func (d *run) testFilesOf(pkgs []*listPkg) []string {
	var out []string
	for _, p := range pkgs {
		if len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 || len(p.GoFiles)+len(p.CgoFiles) == 0 || p.Dir == "" || inModCache(p, d.modCache) {
			// A package of test files only has nothing to analyse
			// without them, and would not be found at all.
			continue
		}
		for _, f := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
			out = append(out, filepath.Join(p.Dir, f))
		}
	}
	return out
}

// listTestFiles lists the patterns' packages with their test files (no
// dependencies, no test variants): the files -test=false hides.
func (d *run) listTestFiles(patterns, extra []string) ([]*listPkg, error) {
	args := []string{"list", "-e", "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,Module"}
	args = append(args, extra...)
	if d.tags != "" {
		args = append(args, "-tags="+d.tags)
	}
	args = append(args, "--")
	args = append(args, patterns...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		// go vet reports what is wrong (a malformed go.mod, a bad
		// pattern) as it would without the overlay.
		return nil, err
	}
	return decodeList(out)
}

// modCache returns the module cache's directory ("" when it cannot be had),
// asking the go command once.
func (d *run) modCache() string {
	d.modCacheOnce.Do(func() { d.modCacheDir = goEnv("GOMODCACHE") })
	return d.modCacheDir
}

// goEnv returns the go command's value of an environment variable, or ""
// when it cannot be had.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
