//go:build !unix

package driver

import "io/fs"

// hardLinked reports whether a file has more than one hard link (unknown
// here: every file is written through a rename).
func hardLinked(info fs.FileInfo) bool { return false }
