package loopback

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// A URL value built from a literal or parsed from a string: its String
// has the host it was given.
func urlValues(ctx context.Context, cfg Config, port int) {
	u1 := url.URL{Scheme: "http", Host: "localhost:8080", Path: "/metrics"}
	http.Get(u1.String()) // want `http.Get: local: loopback address localhost`
	u2 := &url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port)}
	http.Get(u2.String()) // want `http.Get: local: loopback address 127.0.0.1`
	u3 := &url.URL{Scheme: "https", Host: "api.example.com", Path: cfg.URL}
	http.Get(u3.String()) // want `http.Get: remote: host api.example.com`
	u4 := url.URL{Scheme: "http", Host: cfg.Host}
	http.Get(u4.String()) // want `http.Get: unknown`
	u5 := url.URL{Scheme: "http", Host: "localhost"}
	u5.Host = cfg.Host
	http.Get(u5.String()) // want `http.Get: unknown`

	p1, _ := url.Parse("http://localhost:9090/api/v1")
	p1.Path = "/api/v1/query" // the host stays
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p1.String(), nil)
	http.DefaultClient.Do(req) // want `\(\*http.Client\).Do: local: loopback address localhost`
	p2, _ := url.Parse(cfg.URL)
	http.Get(p2.String()) // want `http.Get: unknown`
	p3, err := url.Parse("https://hooks.example.com/notify")
	if err != nil {
		return
	}
	http.Get(p3.String()) // want `http.Get: remote: host hooks.example.com`
	p4, _ := url.Parse("http://localhost/")
	http.Get(p4.JoinPath("v1", "items").String()) // want `http.Get: local: loopback address localhost`

	// A request literal carries its URL.
	r1 := &http.Request{Method: http.MethodGet, URL: p1}
	http.DefaultClient.Do(r1.WithContext(ctx)) // want `\(\*http.Client\).Do: local: loopback address localhost`
	r2 := &http.Request{Method: http.MethodGet, URL: p2}
	http.DefaultClient.Do(r2) // want `\(\*http.Client\).Do: unknown`
}
