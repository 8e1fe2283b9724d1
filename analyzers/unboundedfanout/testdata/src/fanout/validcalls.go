package fanout

import (
	"context"
	"limvalid"
)

// Validators whose answer does not bound the loop: the polarity turned
// round, a cap on another parameter, a success case before the length
// check, a validator of another package that checks something else.
func tooMany(ids []string) bool { return len(ids) > maxBatch }

func checkFirst(a, b []string) error {
	if len(a) > maxBatch {
		return errBatch
	}
	return nil
}

func forced(ids []string, force bool) error {
	switch {
	case force:
		return nil
	case len(ids) > maxBatch:
		return errBatch
	}
	return nil
}

func ValidatedWrongly(ctx context.Context, r *limvalid.Request, ids, more, rest []string, force bool) error {
	if !tooMany(ids) {
		return errBatch
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of ids`
	}
	if tooMany(more) == false {
		return errBatch
	}
	for _, id := range more {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of more`
	}
	if err := checkFirst(ids, more); err != nil {
		return err
	}
	for _, id := range more {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of more`
	}
	if err := forced(rest, force); err != nil {
		return err
	}
	for _, id := range rest {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of rest`
	}
	if err := r.Named(); err != nil {
		return err
	}
	for _, id := range r.IDs {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of r.IDs`
	}
	return nil
}
