package bounded

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Issue 13, rule 5: a collection validated before the loop is of small
// size, also when the length check is done by a validating function or
// method called before the loop, or by a constructor or an Init that
// validates the field the loop ranges over.
const maxBatch = 10

var errBatch = errors.New("batch too large")

func validateIDs(ids []string) error {
	if len(ids) > maxBatch {
		return fmt.Errorf("%d ids: %w", len(ids), errBatch)
	}
	return nil
}

func ValidatedByFunc(ctx context.Context, ids []string) error {
	if err := validateIDs(ids); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { _ = post(ctx, "http://items.internal/"+id) })
	}
	wg.Wait()
	return nil
}

type Batch struct{ IDs []string }

func (b *Batch) Validate() error {
	if len(b.IDs) == 0 || len(b.IDs) > maxBatch {
		return errBatch
	}
	return nil
}

// A method validating its receiver, its error kept first.
func ValidatedByMethod(ctx context.Context, b *Batch) error {
	err := b.Validate()
	if err != nil {
		return err
	}
	for _, id := range b.IDs {
		go post(ctx, "http://items.internal/"+id)
	}
	return nil
}

// A validator that delegates, and one that answers with a bool.
func checkBatch(b Batch) error { return validateIDs(b.IDs) }

func withinLimit(ids []string) bool { return len(ids) <= maxBatch }

func ValidatedIndirectly(ctx context.Context, b Batch, ids []string) error {
	if checkBatch(b) != nil {
		return errBatch
	}
	for _, id := range b.IDs {
		go post(ctx, "http://items.internal/"+id)
	}
	if !withinLimit(ids) {
		return errBatch
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id)
	}
	return nil
}

// A constructor that validates the field the loop ranges over.
type Fetcher struct{ ids []string }

func NewFetcher(ids []string) (*Fetcher, error) {
	if len(ids) > maxBatch {
		return nil, errBatch
	}
	return &Fetcher{ids: ids}, nil
}

func (f *Fetcher) Run(ctx context.Context) {
	for _, id := range f.ids {
		go post(ctx, "http://items.internal/"+id)
	}
}

// An Init that validates the field on its receiver.
type Poller struct{ Targets []string }

func (p *Poller) Init() error {
	if len(p.Targets) > maxBatch {
		return errBatch
	}
	return nil
}

func (p *Poller) Run(ctx context.Context) {
	for _, id := range p.Targets {
		go post(ctx, "http://items.internal/"+id)
	}
}
