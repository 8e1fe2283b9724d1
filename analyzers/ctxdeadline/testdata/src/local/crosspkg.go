package local

import (
	"net/http"

	"example.com/agentaddr"
)

// A loopback URL returned by a function of another package of the module,
// one that knows no client (issue 13, rule 1).
func agentHealth() {
	for _, u := range []string{agentaddr.Base() + "/v1/health", agentaddr.Base6() + "/v1/health"} {
		if resp, err := http.Get(u); err == nil {
			resp.Body.Close()
		}
	}
	if resp, err := http.Get(agentaddr.Base() + "/v1/health"); err == nil {
		resp.Body.Close()
	}
}

func upstreamHealth() {
	if resp, err := http.Get(agentaddr.Upstream() + "/v1/health"); err == nil { // want `http.Get has no deadline`
		resp.Body.Close()
	}
}
