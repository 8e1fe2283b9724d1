package reach // want package:"reaches remote work"

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"sync"
	"time"
)

type Client struct {
	hc   *http.Client
	base string
	mu   sync.Mutex
}

// The target is the receiver's base URL; the id is the payload.
func (c *Client) Get(ctx context.Context, id string) error { // want Get:`work \(\*http.Client\).Do\{target recv.base on recv\}`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Through a helper, resolved in the caller's parameters: the target is
// the URL parameter.
func fetch(ctx context.Context, url string) error { // want fetch:`work \(\*http.Client\).Do\{target param1 on param1\}`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Fixed(ctx context.Context, id string) error { // want Fixed:`work \(\*http.Client\).Do\{target host api.internal\}`
	return fetch(ctx, "https://api.internal/v1/"+id)
}

// The id is payload: the identity depends on the client only.
func Payload(ctx context.Context, c *Client, id string) error { // want Payload:`work \(\*http.Client\).Do\{target param1.base on param1\}`
	return c.Get(ctx, "v2/"+id)
}

// The address is the target: it depends on the parameter.
func Ping(ctx context.Context, addr string) error { // want Ping:`work \(\*http.Client\).Do\{target param1 on param1\}`
	return fetch(ctx, "http://"+addr+"/ping")
}

// A mutex the receiver holds, around the call: a limit every caller
// shares.
func (c *Client) Locked(ctx context.Context, id string) error { // want Locked:`limit \(\*sync.Mutex\).Lock`
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Get(ctx, id)
}

// A mutex made per call limits nothing; one given back before the call
// neither.
func (c *Client) Unshared(ctx context.Context, id string) error { // want Unshared:`work \(\*http.Client\).Do\{target recv.base on recv\}$`
	var mu sync.Mutex
	mu.Lock()
	defer mu.Unlock()
	c.mu.Lock()
	c.mu.Unlock()
	return c.Get(ctx, id)
}

// A poller: remote work in a loop on a ticker, until the context ends.
func Poll(ctx context.Context, c *Client) { // want Poll:`forever`
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := c.Get(ctx, "latest"); err != nil {
			return
		}
	}
}

// Local work reaches nothing remote: no fact.
func Compress(ctx context.Context, file string) error {
	return exec.CommandContext(ctx, "gzip", file).Run()
}

// A URL builder: the host comes from host, or from p when p is absolute.
func restURL(host, p string) string { // want restURL:`host on param0,param1`
	if len(p) > 8 && p[:8] == "https://" {
		return p
	}
	return "https://" + host + "/api/v3/" + p
}

// A relative path names no host: the name is payload.
func SetSecret(ctx context.Context, host, name string) error { // want SetSecret:`work \(\*http.Client\).Do\{target \? on param1\}`
	return fetch(ctx, restURL(host, fmt.Sprintf("repos/%s/actions/secrets", name)))
}

// A pacer: every call waits for a token the receiver's channel hands out
// (refilled by a timer), and may take a connection token, given back
// after the call.
type Pacer struct {
	pacer, conns chan struct{}
	invoker      func(fn func() error) error
}

func (p *Pacer) begin() { // want begin:`holds p.pacer`
	<-p.pacer
	go func() {
		time.Sleep(time.Millisecond)
		p.pacer <- struct{}{}
	}()
	<-p.conns
}

func (p *Pacer) end() { p.conns <- struct{}{} }

func (p *Pacer) call(fn func() error) error { // want call:`holds p.pacer; runs param0 under p.pacer`
	p.begin()
	err := p.invoker(fn)
	p.end()
	return err
}

func (p *Pacer) Call(fn func() error) error { return p.call(fn) } // want Call:`holds p.pacer; runs param0 under p.pacer`

// The work handed to the pacer runs under its limit.
func (c *Client) Paced(ctx context.Context, p *Pacer, id string) error { // want Paced:`work \(\*http.Client\).Do\{target recv.base on recv limit p.pacer\}`
	return p.Call(func() error { return c.Get(ctx, id) })
}

// A slot taken in a select that leaves on cancellation: held after it.
func (p *Pacer) Selected(ctx context.Context, c *Client, id string) error { // want Selected:`work \(\*http.Client\).Do\{target param1.base on param1 limit p.conns\}`
	select {
	case p.conns <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.conns }()
	return c.Get(ctx, id)
}

// Validators: the caps they check before they can succeed, for callers in
// other packages.
type Batch struct{ IDs []string }

func (b *Batch) Check() error { // want Check:`valid len\(recv.IDs\) > 10: error`
	if len(b.IDs) > 10 {
		return fmt.Errorf("%d ids", len(b.IDs))
	}
	return nil
}

func tooMany(ids []string) bool { return len(ids) > 8 } // want tooMany:`valid len\(param0\) > 8: true`

func small(ids []string) bool { return !tooMany(ids) } // want small:`valid len\(param0\) > 8: false`
