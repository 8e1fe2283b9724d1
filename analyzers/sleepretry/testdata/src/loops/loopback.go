package loops

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Waiting for a server on a loopback address is local work (issue 13,
// rule 1), whatever the loop's body does besides: building the request,
// reading and closing the response are in-process.

type probe struct {
	port int
}

func (p probe) waitReady(ctx context.Context) error {
	ready := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/ready", p.port), nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("not ready: %s", http.StatusText(resp.StatusCode))
		}
		return nil
	}
	for attempt := 0; attempt < 30; attempt++ {
		if err := ready(); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return errTimedOut
}

func waitAgent(port int) error {
	u := url.URL{Scheme: "http", Host: net.JoinHostPort("localhost", fmt.Sprint(port)), Path: "/v1/status"}
	for attempt := 0; attempt < 30; attempt++ {
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			return err
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errTimedOut
}

func waitOwnServer(h http.Handler) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(ln, h)
	for attempt := 0; attempt < 30; attempt++ {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err == nil {
			return c.Close()
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errTimedOut
}

// A host named by configuration, and a remote one, are still reported.
type upstream struct {
	Host string
}

func (u upstream) waitReady(ctx context.Context) error {
	ready := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://%s/ready", u.Host), nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	for attempt := 0; attempt < 30; attempt++ {
		if err := ready(); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond) // want `retry loop waits the same 200 \* time.Millisecond before every attempt`
	}
	return errTimedOut
}

func waitRemote(ctx context.Context) error {
	ready := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("https://%s/ready", "api.example.com"), nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	for attempt := 0; attempt < 30; attempt++ {
		if err := ready(); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond) // want `retry loop waits the same 200 \* time.Millisecond before every attempt`
	}
	return errTimedOut
}
