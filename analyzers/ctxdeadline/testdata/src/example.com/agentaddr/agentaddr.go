// Package agentaddr returns addresses and imports nothing resilint's
// knowledge table knows: its ShapeFacts are what tell its callers where
// they go.
package agentaddr

// Base is the local agent's API.
func Base() string { return "http://127.0.0.1:9000" }

// Base6 is the same on IPv6.
func Base6() string { return "http://[::1]:9000" }

// Upstream is a remote API.
func Upstream() string { return "https://api.example.com" }
