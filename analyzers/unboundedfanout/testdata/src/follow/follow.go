// Package follow tails a remote feed until its context ends: a function of
// another package whose loop the caller cannot see.
package follow

import (
	"context"
	"net/http"
	"time"
)

// Follow polls base for new entries of topic until ctx is done.
func Follow(ctx context.Context, base, topic string) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/feed/"+topic, nil)
		if err != nil {
			return
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}
