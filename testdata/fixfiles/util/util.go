// Package util is a module-local package, in the second import group.
package util

// Name names the job.
const Name = "cleanup"
