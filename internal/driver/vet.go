package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// After type-checking, a round's fixes are vetted: go vet runs on the
// packages they change, with the fixed files as an overlay, and on the same
// packages before the round; a finding that only the fixed code has drops
// the round's fixes in its declaration ("not applied: go vet would report:
// ..."), and the round is redone without them.

// A vetDiag is one go vet finding.
type vetDiag struct {
	file      string
	line, col int
	analyzer  string
	msg       string
}

// goVet runs go vet -json on packages with overlay over the disk's files.
func (d *run) goVet(paths []string, overlay map[string][]byte) ([]vetDiag, error) {
	tmp, err := os.MkdirTemp("", "resilint-vet-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	replace := map[string]string{}
	back := map[string]string{}
	names := make([]string, 0, len(overlay))
	for name := range overlay {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		f := filepath.Join(tmp, strconv.Itoa(i)+".go")
		if err := os.WriteFile(f, overlay[name], 0o644); err != nil {
			return nil, err
		}
		replace[name] = f
		back[f] = name
	}
	args := []string{"vet", "-json"}
	if len(replace) > 0 {
		data, _ := json.Marshal(map[string]any{"Replace": replace})
		ov := filepath.Join(tmp, "overlay.json")
		if err := os.WriteFile(ov, data, 0o644); err != nil {
			return nil, err
		}
		args = append(args, "-overlay="+ov)
	}
	if d.tags != "" {
		args = append(args, "-tags="+d.tags)
	}
	args = append(args, paths...)
	cmd := exec.Command("go", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go vet: %v: %s", err, firstLine(out.String()))
	}
	// The output: "# package" lines and one JSON tree per package.
	var js bytes.Buffer
	for _, l := range strings.SplitAfter(out.String(), "\n") {
		if !strings.HasPrefix(l, "#") {
			js.WriteString(l)
		}
	}
	var diags []vetDiag
	dec := json.NewDecoder(&js)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			break
		}
		for _, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var list []jsonDiagnostic
				if json.Unmarshal(raw, &list) != nil {
					continue // {"error": ...}
				}
				for _, jd := range list {
					file, line, col, ok := splitPosn(jd.Posn)
					if !ok {
						continue
					}
					if orig, ok := back[file]; ok {
						file = orig
					}
					diags = append(diags, vetDiag{file, line, col, analyzer, jd.Message})
				}
			}
		}
	}
	return diags, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// splitPosn splits "file:line:col".
func splitPosn(posn string) (string, int, int, bool) {
	i := strings.LastIndexByte(posn, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(posn[:i], ':')
	if j < 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(posn[j+1 : i])
	col, err2 := strconv.Atoi(posn[i+1:])
	if err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	return posn[:j], line, col, true
}

// vetCulprits vets a round: the candidates whose declarations hold a go vet
// finding that the code before the round did not have, with the reason.
// When go vet cannot run, nothing is blamed.
func (st *fixState) vetCulprits(round []*candidate, changed []string, before snapshot) map[*candidate]string {
	var paths []string
	seen := map[string]bool{}
	for _, name := range changed {
		for _, id := range st.fileOf[name] {
			for _, p := range st.res.Packages {
				if p.ID == id && !seen[groupKey(p.ID, p.Path)] {
					seen[groupKey(p.ID, p.Path)] = true
					paths = append(paths, groupKey(p.ID, p.Path))
				}
			}
		}
	}
	sort.Strings(paths)
	overlay := func(cur map[string][]byte) map[string][]byte {
		ov := map[string][]byte{}
		for name, data := range cur {
			if !bytes.Equal(data, st.orig[name]) {
				ov[name] = data
			}
		}
		return ov
	}
	after, err := st.d.goVet(paths, overlay(st.cur))
	if err != nil {
		return nil
	}
	prev, err := st.d.goVet(paths, overlay(before.cur))
	if err != nil {
		return nil
	}
	key := func(v vetDiag) string { return v.file + "\x00" + v.analyzer + "\x00" + v.msg }
	had := map[string]int{}
	for _, v := range prev {
		had[key(v)]++
	}
	out := map[*candidate]string{}
	for _, v := range after {
		if had[key(v)] > 0 {
			had[key(v)]--
			continue
		}
		data := st.cur[v.file]
		if data == nil {
			continue
		}
		off := offsetOfLine(data, v.line, v.col)
		if off < 0 {
			continue
		}
		f := Finding{Posn: token.Position{Filename: v.file, Offset: off, Line: v.line, Column: v.col}}
		for _, c := range st.culprits(round, f) {
			if _, ok := out[c]; !ok {
				out[c] = fmt.Sprintf("not applied: go vet would report: %s:%d:%d: %s", relPath(v.file), v.line, v.col, v.msg)
			}
		}
	}
	return out
}

// offsetOfLine returns the offset of a line and column of a text, or -1.
func offsetOfLine(data []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	if off+col-1 > len(data) {
		return -1
	}
	return off + col - 1
}
