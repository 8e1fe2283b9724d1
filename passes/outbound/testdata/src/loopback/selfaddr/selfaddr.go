// Package selfaddr starts a server on a loopback listener of its own and
// tells its address.
package selfaddr

import (
	"net"
	"net/http"
)

type Server struct {
	ln net.Listener
}

func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go http.Serve(ln, nil)
	return &Server{ln: ln}, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the server's base URL.
func (s *Server) URL() string { return "http://" + s.Addr() }

// Configured is filled from outside: what it returns is out of sight.
type Configured struct{ Host string }

func (c *Configured) URL() string { return "http://" + c.Host }
