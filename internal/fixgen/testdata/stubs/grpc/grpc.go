// Package grpc is a stand-in for google.golang.org/grpc's client API, for
// resilint's generated-program tests.
package grpc

import (
	"context"
	"errors"
)

// CallOption configures a call.
type CallOption interface{ before() }

// DialOption configures how a connection is set up.
type DialOption interface{ apply() }

// StreamDesc represents a streaming RPC.
type StreamDesc struct {
	StreamName    string
	ServerStreams bool
	ClientStreams bool
}

// ClientStream defines the client side of a stream.
type ClientStream interface {
	Context() context.Context
	CloseSend() error
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ClientConnInterface defines what a generated client needs.
type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
	NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error)
}

// ClientConn is a virtual connection to a server.
type ClientConn struct{ target string }

var errNoServer = errors.New("grpc stub: no server")

// NewClient creates a client connection.
func NewClient(target string, opts ...DialOption) (*ClientConn, error) {
	return &ClientConn{target: target}, nil
}

// Invoke sends the RPC request and waits for the reply.
func (cc *ClientConn) Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errNoServer
}

// NewStream creates a new stream.
func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	return &stream{ctx: ctx}, nil
}

// Close tears down the connection.
func (cc *ClientConn) Close() error { return nil }

type stream struct{ ctx context.Context }

func (s *stream) Context() context.Context { return s.ctx }
func (s *stream) CloseSend() error         { return nil }
func (s *stream) SendMsg(m any) error      { return s.ctx.Err() }
func (s *stream) RecvMsg(m any) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	return errNoServer
}
