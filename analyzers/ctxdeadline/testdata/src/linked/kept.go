package linked

import (
	"bufio"
	"context"
	"net/http"
	"sync"
)

// A context whose cancel function is kept for someone else to call (an
// Unsubscribe, a Stop) ends when its owner stops it: its lifetime is
// managed out of sight, not deadline-free, so a subscription on it is not
// reported. One whose cancel only this function calls is still
// deadline-free.

type subscription struct {
	cancel context.CancelFunc
}

type Client struct {
	mu   sync.Mutex
	subs map[string]*subscription
	hc   *http.Client
	stop context.CancelFunc
}

func (c *Client) Subscribe(id, url string, out chan<- string) {
	ctx, cancel := context.WithCancel(context.Background())
	c.mu.Lock()
	c.subs[id] = &subscription{cancel: cancel}
	c.mu.Unlock()
	go c.stream(ctx, url, out)
}

func (c *Client) Unsubscribe(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.subs[id]; ok {
		s.cancel()
		delete(c.subs, id)
	}
}

func (c *Client) stream(ctx context.Context, url string, out chan<- string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		out <- sc.Text()
	}
	return sc.Err()
}

// Start keeps the cancel in a field for Stop.
func (c *Client) Start(url string, out chan<- string) {
	var ctx context.Context
	ctx, c.stop = context.WithCancel(context.Background())
	go c.stream(ctx, url, out)
}

// Once cancels its own context when it returns: nothing else can end the
// request.
func (c *Client) Once(url string, out chan<- string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return c.stream(ctx, url, out) // want `\(\*linked.Client\).stream gets ctx \(made from context.Background\(\)\), which has no deadline`
}
