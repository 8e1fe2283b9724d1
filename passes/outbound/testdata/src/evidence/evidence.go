// Package evidence exercises outbound.Call.Evidence: the bounds of every
// outbound call, with what is known of each.
package evidence

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

func calls(ctx context.Context, url string, given *http.Client, tr http.RoundTripper) {
	http.Get(url)                                 // want `http.Get: unknown; no context; client absent; unbounded`
	(&http.Client{Timeout: time.Second}).Get(url) // want `\(\*http.Client\).Get: unknown; no context; client bounded$`
	given.Get(url)                                // want `\(\*http.Client\).Get: unknown; no context; client unseen$`
	(&http.Client{Transport: tr}).Get(url)        // want `\(\*http.Client\).Get: unknown; no context; client unseen$`
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	http.DefaultClient.Do(req) // want `\(\*http.Client\).Do: unknown; context unknown; client absent; unbounded`
	bg, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://example.com/", nil)
	http.DefaultClient.Do(bg)                                        // want `\(\*http.Client\).Do: remote: host example.com; context deadline-free; client absent; unbounded`
	net.DialTimeout("tcp", "db.internal:5432", time.Second)          // want `net.DialTimeout: remote: host db.internal; no context; call bounded$`
	(&net.Dialer{Timeout: time.Second}).DialContext(ctx, "tcp", url) // want `\(\*net.Dialer\).DialContext: unknown; context unknown; client bounded$`
}

type Client interface {
	Get(ctx context.Context, in *int, opts ...grpc.CallOption) (*int, error)
}

func NewClient(cc grpc.ClientConnInterface) Client { return nil }

func rpc(ctx context.Context, given Client) {
	conn, _ := grpc.NewClient("svc.internal:443")
	NewClient(conn).Get(context.Background(), nil)         // want `\(evidence.Client\).Get: remote: host svc.internal; context deadline-free; connection absent; unbounded`
	given.Get(ctx, nil)                                    // want `\(evidence.Client\).Get: unknown; context unknown; connection unseen$`
	NewClient(conn).Get(ctx, nil, grpc.WaitForReady(true)) // want `connection absent; wait for ready; unbounded`
}

// A generated streaming method returns a type that embeds grpc.ClientStream:
// it opens a stream; drained to io.EOF, the stream is finite.
type Watcher interface {
	Watch(ctx context.Context, in *int, opts ...grpc.CallOption) (grpc.ServerStreamingClient[int], error)
	Tail(ctx context.Context, in *int, opts ...grpc.CallOption) (*Cursor, error)
}

// Cursor has methods named as a stream's are, but they are its own: a call
// returning it opens no stream.
type Cursor struct{}

func (*Cursor) CloseSend() error    { return nil }
func (*Cursor) RecvMsg(m any) error { return nil }

func streams(w Watcher) error {
	w.Watch(context.Background(), nil)         // want `\(evidence.Watcher\).Watch: unknown; context deadline-free; call bounded; connection unseen; open stream$`
	s, _ := w.Watch(context.Background(), nil) // want `\(evidence.Watcher\).Watch: unknown; context deadline-free; connection unseen; finite stream$`
	for {
		if _, err := s.Recv(); err == io.EOF {
			break
		}
	}
	w.Tail(context.Background(), nil) // want `\(evidence.Watcher\).Tail: unknown; context deadline-free; connection unseen$`
	return nil
}
