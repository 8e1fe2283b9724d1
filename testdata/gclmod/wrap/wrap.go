// Package wrap is the team's own RPC wrapper: outbound only because the
// golangci-lint settings declare it.
package wrap

// Call sends a request to the named service and waits for the answer.
func Call(service string) error {
	_ = service
	return nil
}
