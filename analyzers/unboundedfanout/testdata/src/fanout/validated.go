package fanout

import (
	"context"
	"errors"
)

// A validation that does not cap the length, or one whose failure the
// caller ignores, or a field also stored unvalidated: still fan-out.
const maxBatch = 10

var errBatch = errors.New("batch too large")

func nonEmpty(ids []string) error {
	if len(ids) == 0 {
		return errBatch
	}
	return nil
}

func capped(ids []string) error {
	if len(ids) > maxBatch {
		return errBatch
	}
	return nil
}

func earlyOK(ids []string, force bool) error {
	if force {
		return nil
	}
	return capped(ids)
}

func NotCapped(ctx context.Context, ids []string, force bool) {
	if err := nonEmpty(ids); err != nil {
		return
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of ids`
	}
	if err := capped(ids); err != nil {
		println(err.Error())
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of ids`
	}
	if err := earlyOK(ids, force); err != nil {
		return
	}
	for _, id := range ids {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of ids`
	}
}

type Queue struct{ ids []string }

func NewQueue(ids []string) (*Queue, error) {
	if len(ids) > maxBatch {
		return nil, errBatch
	}
	return &Queue{ids: ids}, nil
}

func (q *Queue) Add(id string) { q.ids = append(q.ids, id) }

func (q *Queue) Flush(ctx context.Context) {
	for _, id := range q.ids {
		go post(ctx, "http://items.internal/"+id) // want `one goroutine per element of q.ids`
	}
}
