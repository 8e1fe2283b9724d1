package detached

import (
	"context"
	"net/http"
	"os"
)

// Files is an interface whose every implementation in sight ignores the
// context it is given: handing it context.TODO() drops nothing.
type Files interface {
	Stat(ctx context.Context, name string) (os.FileInfo, error)
}

type diskFiles struct{ ctx context.Context }

// Stat works under the context the files were opened with.
func (d *diskFiles) Stat(ctx context.Context, name string) (os.FileInfo, error) {
	_ = d.ctx
	return os.Stat(name)
}

type nullFiles struct{}

func (nullFiles) Stat(context.Context, string) (os.FileInfo, error) { return nil, os.ErrNotExist }

type FileServer struct{ fs Files }

func (s *FileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, err := s.fs.Stat(context.TODO(), r.URL.Path); err != nil {
		http.NotFound(w, r)
	}
}

// Remote has an implementation that sends its context on: reported.
type Remote interface {
	Fetch(ctx context.Context, url string) (*http.Response, error)
}

type httpRemote struct{ c *http.Client }

func (h httpRemote) Fetch(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return h.c.Do(req)
}

type stubRemote struct{}

func (stubRemote) Fetch(_ context.Context, url string) (*http.Response, error) { return nil, nil }

type Proxy struct{ r Remote }

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, err := p.r.Fetch(context.TODO(), r.URL.String()); err != nil { // want `\(detached.Remote\).Fetch takes a context and gets context.TODO\(\)`
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}
