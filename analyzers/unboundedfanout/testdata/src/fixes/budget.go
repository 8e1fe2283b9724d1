package fixes

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// The goroutines run under a budget derived from the request: they keep it.
// The group's own context is Background, never done: every goroutine still
// runs, as with the WaitGroup, whatever happens to the budget.
func Import(w http.ResponseWriter, r *http.Request, ids []string) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids`
			defer wg.Done()
			_ = touch(ctx, id)
		}()
	}
	wg.Wait()
}

// A budget under another name: likewise.
func Touch(ctx context.Context, ids []string) {
	budget, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids`
			defer wg.Done()
			_ = touch(budget, id)
		}()
	}
	wg.Wait()
}

// The budget is made after the WaitGroup: the group does not need it.
func Late(r *http.Request, ids []string) {
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids`
			defer wg.Done()
			_ = touch(ctx, id)
		}()
	}
	wg.Wait()
}
