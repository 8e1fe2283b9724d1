// Package cfg holds addresses and imports no client: its functions' results
// still reach callers in other packages as facts, though the module's path
// (svc) has no dot, as the standard library's paths have none.
package cfg

const agentAddr = "127.0.0.1:8126"

// AgentURL is the node-local agent's base URL.
func AgentURL() string { return "http://" + agentAddr }

// ServiceURL is a remote service's base URL.
func ServiceURL() string { return "https://billing.internal.example" }
