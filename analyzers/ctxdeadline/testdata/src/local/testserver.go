package local

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
)

// A test server's own listener (httptest listens on a loopback address):
// dialing its address is the process talking to itself.
func dialTestServer() (net.Conn, error) {
	s := httptest.NewUnstartedServer(nil)
	s.Start()
	return net.Dial(s.Listener.Addr().Network(), s.Listener.Addr().String())
}

// A test server whose listener the code replaced: its address is whatever
// that listener bound.
func dialReplaced(ln net.Listener) (net.Conn, error) {
	s := httptest.NewUnstartedServer(nil)
	s.Listener = ln
	s.Start()
	return net.Dial("tcp", s.Listener.Addr().String()) // want `net.Dial has no timeout`
}

// The same from a transport's dial function.
func testServerTransport() *httptest.Server {
	s := httptest.NewUnstartedServer(nil)
	s.TLS = &tls.Config{}
	s.StartTLS()
	s.Client().Transport = &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return net.Dial(s.Listener.Addr().Network(), s.Listener.Addr().String())
		},
	}
	return s
}
