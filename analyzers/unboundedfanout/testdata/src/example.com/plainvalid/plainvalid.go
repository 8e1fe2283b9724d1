// Package plainvalid is a validator of the module that imports nothing the
// knowledge table knows: its caps still reach the packages that call it.
package plainvalid

import "errors"

var ErrTooMany = errors.New("too many ids")

// Batch rejects more than 10 ids.
func Batch(ids []string) error {
	if len(ids) > 10 {
		return ErrTooMany
	}
	return nil
}
