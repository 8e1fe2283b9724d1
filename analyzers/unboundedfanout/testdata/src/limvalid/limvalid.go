// Package limvalid validates requests for other packages of the module.
package limvalid

import (
	"context"
	"errors"
)

var ErrTooMany = errors.New("too many")

type Request struct {
	Name string
	IDs  []string
}

// Check rejects more than 10 ids.
func Check(ids []string) error {
	if len(ids) > 10 {
		return ErrTooMany
	}
	return nil
}

// Validate checks the request's ids.
func (r *Request) Validate(ctx context.Context) error {
	if r.Name == "" {
		return errors.New("no name")
	}
	if len(r.IDs) > 10 {
		return ErrTooMany
	}
	return nil
}

// Small answers with a bool.
func Small(ids []string) bool { return len(ids) <= 8 }

// Named checks the name only.
func (r *Request) Named() error {
	if r.Name == "" {
		return errors.New("no name")
	}
	return nil
}
