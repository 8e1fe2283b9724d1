package loopback

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"

	"loopback/selfaddr"
)

// The process talking to its own listener, opened on a loopback or
// unspecified host: in-process.
func ownListener(ctx context.Context, cfg Config) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return
	}
	go http.Serve(ln, nil)
	http.Get("http://" + ln.Addr().String() + "/healthz") // want `http.Get: local: loopback address 127.0.0.1`
	net.Dial("tcp", ln.Addr().String())                   // want `net.Dial: local: loopback address 127.0.0.1`

	anyHost, _ := net.Listen("tcp", ":0")
	net.Dial("tcp", anyHost.Addr().String()) // want `net.Dial: local: the local system \(0.0.0.0\), the local system \(::\)`
	lh, _ := net.Listen("tcp4", "localhost:0")
	net.Dial("tcp", lh.Addr().String()) // want `net.Dial: local: loopback address 127.0.0.1`
	var lc net.ListenConfig
	v6, _ := lc.Listen(ctx, "tcp", "[::1]:0")
	net.Dial("tcp", v6.Addr().String()) // want `net.Dial: local: loopback address ::1`

	// Another interface, a configured host, a unix socket: not proven.
	pub, _ := net.Listen("tcp", "10.1.2.3:0")
	net.Dial("tcp", pub.Addr().String()) // want `net.Dial: unknown`
	conf, _ := net.Listen("tcp", cfg.Host+":0")
	net.Dial("tcp", conf.Addr().String()) // want `net.Dial: unknown`
	sock, _ := net.Listen("unix", "/run/x.sock")
	net.Dial("tcp", sock.Addr().String()) // want `net.Dial: unknown`
}

// A server the package starts on its own loopback listener.
type selfServer struct {
	ln net.Listener
}

func newSelfServer() (*selfServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return &selfServer{ln: ln}, nil
}

func (s *selfServer) ping() {
	http.Get("http://" + s.ln.Addr().String() + "/ping") // want `http.Get: local: loopback address 127.0.0.1`
}

// httptest servers listen on a loopback address.
func fakeBackend(h http.Handler) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	http.Get(srv.URL + "/x")  // want `http.Get: local: loopback address 127.0.0.1, loopback address ::1`
	srv.Client().Get(srv.URL) // want `\(\*http.Client\).Get: local: loopback address 127.0.0.1, loopback address ::1`
}

func (s *selfServer) addr() string { return s.ln.Addr().String() }

func (s *selfServer) dialSelf() {
	net.Dial("tcp", s.addr()) // want `net.Dial: local: loopback address 127.0.0.1`
}

// Another package's server, through the shapes of what it returns.
func otherPackage(c *selfaddr.Configured) {
	srv, err := selfaddr.Start()
	if err != nil {
		return
	}
	http.Get(srv.URL() + "/healthz") // want `http.Get: local: loopback address 127.0.0.1`
	net.Dial("tcp", srv.Addr())      // want `net.Dial: local: loopback address 127.0.0.1`
	http.Get(c.URL() + "/healthz")   // want `http.Get: unknown`
}
