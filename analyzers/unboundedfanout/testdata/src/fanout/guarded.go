package fanout

import (
	"context"
	"sync"
)

// Remote work only where the element satisfies a condition: not every
// goroutine reaches it, so there is no evidence of one call per element
// (issue 13, rule 5).
func alertEmpty(ctx context.Context, docs map[string][]byte) {
	var wg sync.WaitGroup
	for id, d := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if len(d) == 0 {
				lookupID(ctx, id)
			}
		}()
	}
	wg.Wait()
}

func byKind(ctx context.Context, ids []string) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			switch id[0] {
			case 'r':
				lookupID(ctx, id)
			}
		})
	}
	wg.Wait()
}

// A condition that is the same for every element decides nothing per
// goroutine: each one reaches the work when it holds.
func refreshAll(ctx context.Context, ids []string, enabled bool) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids`
			defer wg.Done()
			if enabled {
				lookupID(ctx, id)
			}
		}()
	}
	wg.Wait()
}

// After local work that can fail, the remote work runs on success: every
// goroutine whose work succeeds reaches it.
func encodeAndUpload(ctx context.Context, segs []string, encode func(string) error) {
	var wg sync.WaitGroup
	for _, seg := range segs {
		wg.Add(1)
		go func() { // want `one goroutine per element of segs`
			defer wg.Done()
			if err := encode(seg); err == nil {
				lookupID(ctx, seg)
			}
		}()
	}
	wg.Wait()
}

// A cap the code states before the loop is a limit its author chose, when
// it is of the order of the fan-out limit (rule 5: slices capped before the
// loop).
func previewCapped(ctx context.Context, ids []string) {
	if len(ids) > 25 {
		ids = ids[:25]
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { lookupID(ctx, id) })
	}
	wg.Wait()
}

func previewValidated(ctx context.Context, ids []string) error {
	if len(ids) > 50 {
		return errTooMany
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { lookupID(ctx, id) })
	}
	wg.Wait()
	return nil
}
