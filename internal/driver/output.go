package driver

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Output formats.
const (
	formatText   = "text"   // file:line:col: message, on standard error (the go vet shape)
	formatJSON   = "json"   // the go/analysis checker JSON tree, unchanged
	formatSARIF  = "sarif"  // SARIF 2.1.0
	formatGitHub = "github" // GitHub Actions workflow commands (::warning ...)
)

var formats = []string{formatText, formatJSON, formatSARIF, formatGitHub}

// An output is one format written to a file, or to its standard stream:
// text to standard error, the others to standard output.
type output struct {
	format string
	path   string
}

// parseFormats reads the -format flag: a comma-separated list of FORMAT or
// FORMAT:PATH. -json adds json on standard output. At most one format may go
// to standard output; the default is text.
func parseFormats(spec string, json bool) ([]output, error) {
	var outs []output
	if json {
		outs = append(outs, output{format: formatJSON})
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, path, _ := strings.Cut(item, ":")
		known := false
		for _, f := range formats {
			known = known || f == name
		}
		if !known {
			return nil, fmt.Errorf("-format: unknown format %q (want %s, optionally as FORMAT:FILE)", name, strings.Join(formats, ", "))
		}
		if strings.Contains(item, ":") && path == "" {
			return nil, fmt.Errorf("-format: %q names no file after the colon", item)
		}
		outs = append(outs, output{format: name, path: path})
	}
	if len(outs) == 0 {
		outs = append(outs, output{format: formatText})
	}
	stdout, paths := "", map[string]bool{}
	for _, o := range outs {
		if o.path != "" {
			abs, _ := filepath.Abs(o.path)
			if paths[abs] {
				return nil, fmt.Errorf("-format: two formats write to %s", o.path)
			}
			paths[abs] = true
			continue
		}
		if o.format == formatText {
			continue // standard error
		}
		if stdout != "" {
			return nil, fmt.Errorf("-format: both %s and %s would go to standard output; give one of them a file (FORMAT:FILE)", stdout, o.format)
		}
		stdout = o.format
	}
	return outs, nil
}

// writeOutputs prints the findings in every requested format; res gives
// the analyzers' errors, for the JSON tree.
func (d *run) writeOutputs(res *Result, found []Finding, status int) error {
	for _, o := range d.outputs {
		var buf bytes.Buffer
		var err error
		switch o.format {
		case formatText:
			d.printText(&buf, found)
		case formatJSON:
			err = printJSON(&buf, res, found)
		case formatSARIF:
			err = d.writeSARIF(&buf, found, status)
		case formatGitHub:
			d.writeGitHub(&buf, found)
		}
		if err != nil {
			return err
		}
		switch {
		case o.path != "":
			if err := writeNewFile(o.path, buf.Bytes()); err != nil {
				return err
			}
		case o.format == formatText:
			d.stderr.Write(buf.Bytes())
		default:
			d.stdout.Write(buf.Bytes())
		}
	}
	return nil
}

// writeGitHub prints one GitHub Actions ::warning workflow command per
// finding, with the path relative to the repository root, which GitHub
// turns into an annotation on the pull request's diff.
func (d *run) writeGitHub(w io.Writer, found []Finding) {
	for _, f := range found {
		end := f.End
		props := []string{"file=" + escapeProperty(d.rel(f.Posn.Filename)), fmt.Sprintf("line=%d", f.Posn.Line), fmt.Sprintf("col=%d", f.Posn.Column)}
		if end.IsValid() && end.Filename == f.Posn.Filename {
			props = append(props, fmt.Sprintf("endLine=%d", end.Line))
			if end.Line == f.Posn.Line {
				props = append(props, fmt.Sprintf("endColumn=%d", end.Column))
			}
		}
		props = append(props, "title="+escapeProperty("resilint "+f.Analyzer))
		fmt.Fprintf(w, "::warning %s::%s\n", strings.Join(props, ","), escapeData(f.Analyzer+": "+f.Message))
	}
}

// escapeData and escapeProperty escape workflow command text the way the
// GitHub Actions toolkit does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// root returns the directory that output paths are relative to: the root
// of the git work tree that holds the working directory, or the working
// directory itself outside git.
func (d *run) root() string {
	if d.rootDir != "" {
		return d.rootDir
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	d.rootDir = wd
	cmd := exec.Command("git", "rev-parse", "--show-toplevel")
	cmd.Stderr = io.Discard
	if out, err := cmd.Output(); err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			d.rootDir = top
		}
	}
	// Resolve symbolic links the same way on both sides of filepath.Rel.
	if r, err := filepath.EvalSymlinks(d.rootDir); err == nil {
		d.rootDir = r
	}
	return d.rootDir
}

// rel returns name relative to the root, with forward slashes, or name
// itself when it is outside the root.
func (d *run) rel(name string) string {
	abs := name
	if r, err := filepath.EvalSymlinks(name); err == nil {
		abs = r
	}
	r, err := filepath.Rel(d.root(), abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(name)
	}
	return filepath.ToSlash(r)
}

// writeNewFile writes data to name through a temporary file in the same
// directory and a rename, so that a reader never sees a half-written file.
func writeNewFile(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".resilint-*")
	if err != nil {
		return fmt.Errorf("writing %s: %v", name, err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return nil
}

// checkWritable reports why a file could not be written at name: its
// directory does not exist or is not writable, or name is a directory. It
// creates nothing that stays.
func checkWritable(name string) error {
	if info, err := os.Stat(name); err == nil && info.IsDir() {
		return fmt.Errorf("is a directory")
	}
	dir := filepath.Dir(name)
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write there: %v", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("cannot write there: %s is not a directory", dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".resilint-*")
	if err != nil {
		return fmt.Errorf("cannot write there: %v", err)
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}
