// Package locality exercises outbound.Result.Locality: every outbound call
// and every call of local work is reported with its place.
package locality

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"

	"google.golang.org/grpc"
)

func targets(url, host string, port int) {
	http.Get("http://localhost:8080/healthz")              // want `http.Get: local: loopback address localhost`
	http.Get("http://127.0.0.2/")                          // want `http.Get: local: loopback address 127.0.0.2`
	http.Get("http://[::1]:9090/metrics")                  // want `http.Get: local: loopback address ::1`
	http.Get("https://api.example.com/v1/items")           // want `http.Get: remote: host api.example.com`
	http.Get("https://user:pw@api.example.com")            // want `http.Get: remote: host api.example.com`
	http.Get(url)                                          // want `http.Get: unknown`
	http.Get("http://" + host + "/x")                      // want `http.Get: unknown`
	http.Get("http://127.0.0.1:" + fmt.Sprint(port))       // want `http.Get: local: loopback address 127.0.0.1`
	http.Get(fmt.Sprintf("http://localhost:%d/api", port)) // want `http.Get: local: loopback address localhost`
	http.Get(fmt.Sprintf("%s/api", url))                   // want `http.Get: unknown`
	http.Get("http://localhost.example.com/")              // want `http.Get: remote: host localhost.example.com`
	http.Get("http+unix://%2Fvar%2Frun%2Fd.sock/info")     // want `http.Get: local: a unix socket \(http\+unix://\)`
}

const metricsURL = "http://127.0.0.1:9100/metrics"

func request(ctx context.Context) {
	req, _ := http.NewRequest(http.MethodGet, metricsURL, nil)
	http.DefaultClient.Do(req.WithContext(ctx)) // want `\(\*http.Client\).Do: local: loopback address 127.0.0.1`
	req3, _ := http.NewRequest(http.MethodGet, "http://localhost/x", nil)
	req3 = req3.WithContext(ctx)
	http.DefaultClient.Do(req3) // want `\(\*http.Client\).Do: local: loopback address localhost`
	req2, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://example.org/", nil)
	http.DefaultClient.Do(req2) // want `\(\*http.Client\).Do: remote: host example.org`
}

var unixClient = &http.Client{Transport: &http.Transport{
	DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", "/var/run/docker.sock") // want `\(\*net.Dialer\).DialContext: local: a unix socket`
	},
}}

func docker(url string) {
	unixClient.Get(url) // want `\(\*http.Client\).Get: local: a unix socket`
}

func dials(ctx context.Context, addr string) {
	net.Dial("unix", "/tmp/x.sock")                // want `net.Dial: local: a unix socket`
	net.Dial("unixgram", "/tmp/x.sock")            // want `net.Dial: local: a unix socket`
	net.Dial("tcp", ":8080")                       // want `net.Dial: local: the local system \(no host\)`
	net.Dial("tcp", "0.0.0.0:80")                  // want `net.Dial: local: the local system \(0.0.0.0\)`
	net.Dial("tcp", "db.internal:5432")            // want `net.Dial: remote: host db.internal`
	net.Dial("tcp", addr)                          // want `net.Dial: unknown`
	net.Dial("udp", "8.8.8.8:53")                  // a UDP "dial" waits on nothing: not an outbound call
	net.Dial("tcp", net.JoinHostPort("::1", "80")) // want `net.Dial: local: loopback address ::1`
}

type agent struct {
	addr string // given constants only: its values are visible
}

func newAgent() *agent { return &agent{addr: "127.0.0.1:8126"} }

func (a *agent) send() {
	net.Dial("tcp", a.addr) // want `net.Dial: local: loopback address 127.0.0.1`
}

type InventoryClient interface {
	Reserve(ctx context.Context, in *int, opts ...grpc.CallOption) (*int, error)
}

type inventoryClient struct{ cc grpc.ClientConnInterface }

func NewInventoryClient(cc grpc.ClientConnInterface) InventoryClient {
	return &inventoryClient{cc: cc}
}

func (c *inventoryClient) Reserve(ctx context.Context, in *int, opts ...grpc.CallOption) (*int, error) {
	return nil, nil
}

func grpcs(ctx context.Context, target string) {
	c1, _ := grpc.NewClient("unix:///run/agent.sock")
	NewInventoryClient(c1).Reserve(ctx, nil) // want `\(locality.InventoryClient\).Reserve: local: a unix socket \(unix:\)`
	c2, _ := grpc.NewClient("localhost:50051")
	NewInventoryClient(c2).Reserve(ctx, nil) // want `\(locality.InventoryClient\).Reserve: local: loopback address localhost`
	c3, _ := grpc.NewClient("dns:///inventory.internal:443")
	NewInventoryClient(c3).Reserve(ctx, nil) // want `\(locality.InventoryClient\).Reserve: remote: host inventory.internal`
	c4, _ := grpc.NewClient(target)
	NewInventoryClient(c4).Reserve(ctx, nil) // want `\(locality.InventoryClient\).Reserve: unknown`
}

func work(path string) {
	os.ReadFile(path)                  // want `os.ReadFile: local: the file system`
	exec.Command("git", "fetch").Run() // want `exec.Command: local: a subprocess` `\(\*exec.Cmd\).Run: local: a subprocess`
	fmt.Sprint(path)                   // in-process, and unknown to the table: nothing said
}
