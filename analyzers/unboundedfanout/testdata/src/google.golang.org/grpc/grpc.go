// Package grpc is a stub of google.golang.org/grpc for tests.
package grpc

type CallOption interface{}
