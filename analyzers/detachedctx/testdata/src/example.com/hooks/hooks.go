// Package hooks keeps functions to run later; it imports nothing that
// resilint's knowledge table knows.
package hooks

type Bus struct{ onClose []func() }

// OnClose registers f, which runs when the bus closes.
func (b *Bus) OnClose(f func()) { b.onClose = append(b.onClose, f) }

// Go runs f in a goroutine nobody waits for.
func Go(f func()) { go f() }

// Later hands f on to Go.
func Later(f func()) { Go(f) }

// Now runs f before it returns.
func Now(f func()) { f() }
