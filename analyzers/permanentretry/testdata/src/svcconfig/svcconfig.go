// Package svcconfig dials connections whose service config makes gRPC
// retry calls itself.
package svcconfig

import "google.golang.org/grpc"

const permanent = `{
  "methodConfig": [{
    "name": [{"service": "kv.v1.KV"}],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.2s",
      "maxBackoff": "5s",
      "backoffMultiplier": 2.0,
      "retryableStatusCodes": ["UNAVAILABLE", "NOT_FOUND", 3]
    }
  }]
}`

const transient = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 3, "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]}}]}`

func Aggressive(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithAuthority("kv"), grpc.WithDefaultServiceConfig(permanent)) // want `the service config's retry policy makes gRPC retry NotFound and InvalidArgument: the codes are permanent`
}

func Transient(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithDefaultServiceConfig(transient))
}

func Sidecar() (*grpc.ClientConn, error) {
	return grpc.NewClient("unix:///run/kv.sock", grpc.WithDefaultServiceConfig(permanent))
}

func Unknown(target, cfg string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithDefaultServiceConfig(cfg))
}
