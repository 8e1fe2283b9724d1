package driver

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// Only-new mode: for a code base with findings that a team does not fix at
// once, -new-from-rev keeps the findings on lines changed since a git
// revision, and -baseline drops the findings recorded by -write-baseline.

// changedLines returns, per file (relative to the repository root, with
// forward slashes), the lines that differ between rev and the work tree:
// lines added or changed since rev (committed or not) and every line of an
// untracked file. A file that is absent from the map has no changed line.
func (d *run) changedLines(rev string) (map[string]map[int]bool, error) {
	root := d.root()
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return out, nil
	}
	if _, err := git("rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, fmt.Errorf("-new-from-rev needs a git work tree: %v", err)
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("-new-from-rev %s: not a revision", rev)
	}
	if _, err := git("rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("-new-from-rev %s: no such commit in this repository", rev)
	}
	// Every option that the user's configuration could change is given
	// explicitly: prefixes (diff.noprefix, diff.mnemonicPrefix), external
	// diff drivers and textconv filters, color, relative paths, context
	// and hunk merging (diff.interHunkContext), rename detection.
	diff, err := git("-c", "core.quotePath=false", "--no-pager", "diff",
		"--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--src-prefix=a/", "--dst-prefix=b/", "--find-renames", "--unified=0", "--inter-hunk-context=0",
		"--diff-filter=ACMRT", "--end-of-options", rev, "--")
	if err != nil {
		return nil, err
	}
	changed, err := parseDiff(diff)
	if err != nil {
		return nil, err
	}
	untracked, err := git("-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	for _, name := range strings.Split(string(untracked), "\x00") {
		if name != "" {
			changed[name] = nil // every line
		}
	}
	return changed, nil
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads the new-side line numbers of a unified diff with zero
// context lines.
func parseDiff(diff []byte) (map[string]map[int]bool, error) {
	changed := map[string]map[int]bool{}
	var file string
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = ""
			if name, ok := strings.CutPrefix(line, "+++ b/"); ok {
				file = strings.TrimSuffix(name, "\t")
				if changed[file] == nil {
					changed[file] = map[int]bool{}
				}
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("git diff: unexpected hunk header %q", line)
			}
			start, _ := strconv.Atoi(m[1])
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			for l := start; l < start+n; l++ {
				changed[file][l] = true
			}
		}
	}
	return changed, sc.Err()
}

// Baseline files.

// baselineVersion is the version of the baseline file format.
const baselineVersion = 1

// A baseline records known findings by fingerprint.
type baseline struct {
	Version  int             `json:"version"`
	Tool     string          `json:"tool"`
	Findings []baselineEntry `json:"findings"`
}

// A baselineEntry is one recorded finding. Only the fingerprint is
// compared; the other fields are for people reading the file.
type baselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Analyzer    string `json:"analyzer"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Message     string `json:"message"`
}

var (
	lineRef = regexp.MustCompile(`\bline \d+\b`)
	posRef  = regexp.MustCompile(`(\.go):\d+(:\d+)?`)
)

// fingerprints returns a stable fingerprint for each finding: a hash of the
// analyzer, the file (relative to the repository root), the message (line
// numbers in it blanked), the text of the finding's line with white space
// normalized, and the finding's index among the findings that share all of
// these. It survives edits that shift lines; it changes when the flagged line
// itself changes.
func (d *run) fingerprints(found []Finding) []string {
	out := make([]string, len(found))
	seen := map[string]int{}
	for i, f := range found {
		file := d.rel(f.Posn.Filename)
		msg := posRef.ReplaceAllString(lineRef.ReplaceAllString(f.Message, "line N"), "$1")
		text := strings.Join(strings.Fields(d.lineText(f.Posn.Filename, f.Posn.Line)), " ")
		key := strings.Join([]string{f.Analyzer, file, msg, text}, "\x00")
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}

// lineText returns line n (1-based) of a file, without its newline.
func (d *run) lineText(name string, n int) string {
	src := d.source(name)
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return string(bytes.TrimSuffix(src, []byte("\r")))
}

// writeBaseline records every finding in a baseline file.
func (d *run) writeBaseline(path string, found []Finding) error {
	b := baseline{Version: baselineVersion, Tool: "resilint", Findings: []baselineEntry{}}
	for i, fp := range d.fingerprints(found) {
		f := found[i]
		b.Findings = append(b.Findings, baselineEntry{
			Fingerprint: fp,
			Analyzer:    f.Analyzer,
			File:        d.rel(f.Posn.Filename),
			Line:        f.Posn.Line,
			Message:     f.Message,
		})
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return writeNewFile(path, append(data, '\n'))
}

// readBaseline reads a baseline file into a multiset of fingerprints.
func readBaseline(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-baseline: %v", err)
	}
	var b baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("-baseline %s: not a resilint baseline file (write one with -write-baseline): %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("-baseline %s: not a resilint baseline file: data after the JSON object (at byte %d)", path, dec.InputOffset())
	}
	if b.Tool != "resilint" || b.Version != baselineVersion {
		return nil, fmt.Errorf("-baseline %s: not a resilint baseline file of version %d (tool %q, version %d); write it again with -write-baseline", path, baselineVersion, b.Tool, b.Version)
	}
	known := map[string]int{}
	for i, e := range b.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("-baseline %s: finding %d has no fingerprint", path, i+1)
		}
		known[e.Fingerprint]++
	}
	return known, nil
}

// onlyNew applies -baseline and -new-from-rev to the findings.
func (d *run) onlyNew(found []Finding) []Finding {
	if d.baseline != nil {
		known := maps.Clone(d.baseline)
		fps := d.fingerprints(found)
		var kept []Finding
		for i, f := range found {
			if known[fps[i]] > 0 {
				known[fps[i]]--
				continue
			}
			kept = append(kept, f)
		}
		found = kept
	}
	if d.changed != nil {
		var kept []Finding
		for _, f := range found {
			lines, ok := d.changed[d.rel(f.Posn.Filename)]
			if ok && (lines == nil || lines[f.Posn.Line]) {
				kept = append(kept, f)
			}
		}
		found = kept
	}
	return found
}
