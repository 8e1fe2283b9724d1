package bounded

import (
	"context"
	"time"
)

// A long-lived goroutine per item written with goto (a blocking query
// that watches one key until the manager stops): it leaves only on a
// select case, like for {} with a select, so it is no unit of work.
type Watcher struct {
	base string
	stop chan struct{}
}

func (w *Watcher) watch(ctx context.Context, key string) {
START:
	select {
	case <-w.stop:
		return
	default:
	}
	if err := post(ctx, w.base+"/kv/"+key+"?wait=60s"); err != nil {
		select {
		case <-time.After(time.Second):
			goto START
		case <-w.stop:
			return
		}
	}
	goto START
}

func (w *Watcher) WatchAll(ctx context.Context, keys []string) {
	for _, k := range keys {
		go w.watch(ctx, k)
	}
}
