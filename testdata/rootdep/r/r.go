// Package r has no findings and no test files; it imports p.
package r

import "example.com/rootdep/p"

func Do() { p.Get("http://example.com") }
