package agent

import (
	"net/http"

	"svc/cfg"
)

// Info asks the agent on this machine: loopback, not a dependency.
func Info() (*http.Response, error) {
	return http.Get(cfg.AgentURL() + "/info")
}

// Bill asks a remote service, with no deadline.
func Bill() (*http.Response, error) {
	return http.Get(cfg.ServiceURL() + "/bill") // want `http.Get has no deadline`
}
