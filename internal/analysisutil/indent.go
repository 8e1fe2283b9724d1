package analysisutil

import (
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// Indent returns the whitespace that starts the line of pos.
func Indent(pass *analysis.Pass, pos token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	off := tf.Offset(pos)
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	if off > len(src) || start > off {
		return ""
	}
	i := start
	for i < off && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[start:i])
}

// DurationExpr spells a duration as Go source using the time package name
// pkg: 10*time.Second, 1500*time.Millisecond.
func DurationExpr(pkg string, d int64) string {
	const (
		ms  = int64(1e6)
		sec = 1000 * ms
		min = 60 * sec
	)
	switch {
	case d%min == 0:
		return itoa64(d/min) + "*" + pkg + ".Minute"
	case d%sec == 0:
		return itoa64(d/sec) + "*" + pkg + ".Second"
	case d%ms == 0:
		return itoa64(d/ms) + "*" + pkg + ".Millisecond"
	}
	return itoa64(d) + "*" + pkg + ".Nanosecond"
}

func itoa64(i int64) string {
	if i < 0 {
		return "-" + itoa64(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa64(i/10) + string(rune('0'+i%10))
}
