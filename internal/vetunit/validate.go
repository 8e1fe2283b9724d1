package vetunit

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// validateFixes checks and normalises suggested fixes as the go/analysis
// drivers do (golang.org/x/tools/internal/analysis/driverutil, Copyright
// 2023 The Go Authors, BSD-style license): edits sorted by position
// (insertions before deletions at the same point, stable), every End valid,
// an End just past the end of its file truncated to it, no two fixes with
// the same message and no overlapping edits. The in-process engine's checker
// does the same, so both engines print the same edits.
func validateFixes(fset *token.FileSet, fixes []analysis.SuggestedFix) error {
	seen := map[string]bool{}
	for i := range fixes {
		fix := &fixes[i]
		if seen[fix.Message] {
			return fmt.Errorf("two fixes with the same message (%s)", fix.Message)
		}
		seen[fix.Message] = true
		if err := validateFix(fset, fix); err != nil {
			return fmt.Errorf("fix %q: %v", fix.Message, err)
		}
	}
	return nil
}

func validateFix(fset *token.FileSet, fix *analysis.SuggestedFix) error {
	slices.SortStableFunc(fix.TextEdits, func(x, y analysis.TextEdit) int {
		if c := cmp.Compare(x.Pos, y.Pos); c != 0 {
			return c
		}
		return cmp.Compare(x.End, y.End)
	})
	var prev *analysis.TextEdit
	for i := range fix.TextEdits {
		edit := &fix.TextEdits[i]
		start := edit.Pos
		file := fset.File(start)
		if file == nil {
			return fmt.Errorf("no file for edit position %v", edit.Pos)
		}
		fileEnd := token.Pos(file.Base() + file.Size())
		if end := edit.End; end.IsValid() {
			if end < start {
				return fmt.Errorf("edit start %v after its end %v", edit.Pos, edit.End)
			}
			endFile := fset.File(end)
			if endFile != file && end < fileEnd+10 {
				edit.End = fileEnd
				continue
			}
			if endFile == nil {
				return fmt.Errorf("no file for edit end %v", end)
			}
			if endFile != file {
				return fmt.Errorf("edit #%d spans files", i)
			}
		} else {
			edit.End = start
		}
		if edit.End > fileEnd {
			return fmt.Errorf("edit ends beyond the end of its file")
		}
		if prev != nil && edit.Pos < prev.End {
			return fmt.Errorf("overlapping edits in %s", fset.Position(prev.Pos).Filename)
		}
		prev = edit
	}
	return nil
}
