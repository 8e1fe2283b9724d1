package bounded

import (
	"context"
	"os"

	"golang.org/x/sync/semaphore"
)

// The semaphore is taken only after the remote call, for the local write:
// every request to the service still starts at once.
func spool(ctx context.Context, ids []string) {
	sem := semaphore.NewWeighted(2)
	for _, id := range ids {
		go func() { // want `one goroutine per element of ids`
			if err := post(ctx, "https://spool.example.com/"+id); err != nil {
				return
			}
			if err := sem.Acquire(ctx, 1); err != nil {
				return
			}
			defer sem.Release(1)
			_ = os.WriteFile(id, nil, 0o600)
		}()
	}
}

// Taken before the remote call: a limit.
func spoolBounded(ctx context.Context, ids []string) {
	sem := semaphore.NewWeighted(2)
	for _, id := range ids {
		go func() {
			if err := sem.Acquire(ctx, 1); err != nil {
				return
			}
			defer sem.Release(1)
			_ = post(ctx, "https://spool.example.com/"+id)
		}()
	}
}
