// Command resilint reports outbound calls that can hang with no deadline,
// retries that multiply across layers, circuit breakers shared between
// dependencies and unbounded goroutine fan-out.
//
// Usage:
//
//	resilint [flags] ./...
//	resilint help [analyzer]
//	go vet -vettool=$(command -v resilint) ./...
//
// Exit codes: 0 no findings, 3 findings reported, 1 errors (a package that
// does not load or type-check, bad flags or configuration).
package main

import (
	"os"

	"github.com/resilint/resilint/internal/driver"
)

func main() {
	os.Exit(driver.Main(os.Args[1:], os.Stdout, os.Stderr))
}
