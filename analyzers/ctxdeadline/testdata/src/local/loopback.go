package local

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
)

// Hosts built from pieces: decided by the host part alone, and only when
// it is proven.

type Config struct {
	Host string
}

const agent = "localhost"

func sidecar(cfg Config, port int) {
	if resp, err := http.Get(fmt.Sprintf("http://%s:%d/v1/health", agent, port)); err == nil { // loopback: silent
		resp.Body.Close()
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", fmt.Sprint(port)), Path: "/metrics"}
	if resp, err := http.Get(u.String()); err == nil { // loopback: silent
		resp.Body.Close()
	}
	if resp, err := http.Get(fmt.Sprintf("http://%s:%d/v1/health", cfg.Host, port)); err == nil { // want `http.Get has no deadline`
		resp.Body.Close()
	}
	if resp, err := http.Get(fmt.Sprintf("https://%s/v1/health", "status.example.com")); err == nil { // want `http.Get has no deadline`
		resp.Body.Close()
	}
}

// The process talking to its own listener.
func selfCheck(h http.Handler) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(ln, h)
	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz") // its own listener: silent
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
