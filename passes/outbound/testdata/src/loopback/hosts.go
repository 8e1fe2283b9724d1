// Package loopback exercises targets whose host is built from pieces:
// formats, joins and concatenations decide by the host part alone, and
// only when it is proven.
package loopback

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// Config is filled from outside: its fields are out of sight.
type Config struct {
	Host string
	URL  string
}

const agentHost = "localhost"

func formats(cfg Config, host string, port int) {
	http.Get(fmt.Sprintf("http://127.0.0.1:%d/x", port))                // want `http.Get: local: loopback address 127.0.0.1`
	net.Dial("tcp", fmt.Sprintf("%s:%d", "localhost", port))            // want `net.Dial: local: loopback address localhost`
	http.Get(fmt.Sprintf("http://%s:%d/metrics", "127.0.0.1", port))    // want `http.Get: local: loopback address 127.0.0.1`
	http.Get(fmt.Sprintf("http://%s/healthz", agentHost))               // want `http.Get: local: loopback address localhost`
	http.Get(fmt.Sprintf("http://%v:%d/x", agentHost, port))            // want `http.Get: local: loopback address localhost`
	net.Dial("tcp", fmt.Sprintf("[%s]:%d", "::1", port))                // want `net.Dial: local: loopback address ::1`
	http.Get(fmt.Sprintf("http://%s:%d/x", "api.example.com", port))    // want `http.Get: remote: host api.example.com`
	http.Get(fmt.Sprintf("%s://%s:%d/x", "https", "db.internal", port)) // want `http.Get: remote: host db.internal`
	http.Get(fmt.Sprintf("http://%s:%d/x", cfg.Host, port))             // want `http.Get: unknown`
	http.Get(fmt.Sprintf("http://%s:%d/x", host, port))                 // want `http.Get: unknown`
	http.Get(fmt.Sprintf("%s/x", cfg.URL))                              // want `http.Get: unknown`
	http.Get(fmt.Sprintf("http://%d.0.0.1/x", 127))                     // want `http.Get: local: loopback address 127.0.0.1`
	http.Get(fmt.Sprintf("http://%q/x", "localhost"))                   // want `http.Get: unknown`
	http.Get(fmt.Sprintf("http://%[2]s:%[1]d/x", port, "localhost"))    // want `http.Get: unknown`
	http.Get(fmt.Sprintf("http://%s%s/x", "localhost", cfg.Host))       // want `http.Get: unknown`
	net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))  // want `net.Dial: local: loopback address 127.0.0.1`
	net.Dial("tcp", net.JoinHostPort(agentHost, "8126"))                // want `net.Dial: local: loopback address localhost`
	net.Dial("tcp", net.JoinHostPort(cfg.Host, "8126"))                 // want `net.Dial: unknown`
	net.Dial("tcp", net.JoinHostPort("collector.internal", "4317"))     // want `net.Dial: remote: host collector.internal`
	http.Get("http://" + agentHost + ":" + strconv.Itoa(port) + "/x")   // want `http.Get: local: loopback address localhost`
	http.Get("http://" + net.JoinHostPort("127.0.0.1", "80") + "/x")    // want `http.Get: local: loopback address 127.0.0.1`
	http.Get("http://" + cfg.Host + "/x")                               // want `http.Get: unknown`
}
