package driver

import (
	"bytes"
	"testing"
)

// TestProgressCounts: a unit counts once, and once go list has named the
// root units only those count: the unit "p" of a dependency whose root unit
// is "p [p.test]" does not.
func TestProgressCounts(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf}
	p.add("m/p")
	p.add("m/q")
	p.add("m/q")
	if p.n != 2 {
		t.Errorf("before the total: %d units, want 2", p.n)
	}
	p.setTotal([]string{"m/p [m/p.test]", "m/q", "m/r"})
	if p.n != 1 || p.total != 3 {
		t.Errorf("after the total: %d of %d, want 1 of 3", p.n, p.total)
	}
	p.add("m/p [m/p.test]")
	p.add("m/p")
	p.add("m/s")
	if p.n != 2 {
		t.Errorf("%d units, want 2", p.n)
	}
	if !bytes.Contains(buf.Bytes(), []byte("analysed 1 of 3 packages")) {
		t.Errorf("output %q lacks the line after the total", buf.String())
	}
}
