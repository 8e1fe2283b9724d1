// Package wrap is a team's own RPC wrapper. resilint knows nothing about it
// until a configuration file declares Call as an outbound call.
package wrap

// Call sends a request to the named service and waits for the answer.
func Call(service string) error {
	_ = service
	return nil
}
