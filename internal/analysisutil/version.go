package analysisutil

import (
	"go/token"
	"go/version"

	"golang.org/x/tools/go/analysis"
)

// AtLeastGo reports whether the file at pos is compiled with a Go version
// of at least v ("go1.21"), so a fix may use what that version added. An
// unknown version counts as new enough.
func AtLeastGo(pass *analysis.Pass, pos token.Pos, v string) bool {
	fv := ""
	if f := FileOf(pass, pos); f != nil {
		fv = pass.TypesInfo.FileVersions[f]
	}
	if fv == "" && pass.Pkg != nil {
		fv = pass.Pkg.GoVersion()
	}
	return fv == "" || version.Compare(fv, v) >= 0
}
