// Package grpc is a stand-in for google.golang.org/grpc's client streams:
// a stream made on a context stops when that context is done, as gRPC's do.
package grpc

import (
	"context"
	"errors"
	"io"
)

// CallOption configures a call.
type CallOption interface{ before() }

// StreamDesc represents a streaming RPC.
type StreamDesc struct{ StreamName string }

// ClientStream defines the client side of a stream.
type ClientStream interface {
	Context() context.Context
	CloseSend() error
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ClientConnInterface is what generated clients use.
type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
	NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error)
}

// ClientConn is an in-memory connection: each stream yields Messages
// values, then io.EOF.
type ClientConn struct{ Messages int }

// Invoke fails unless ctx is live.
func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return ctx.Err()
}

// NewStream opens a stream that lives on ctx.
func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	return &stream{ctx: ctx, left: cc.Messages}, nil
}

type stream struct {
	ctx  context.Context
	left int
}

func (s *stream) Context() context.Context { return s.ctx }
func (s *stream) CloseSend() error         { return nil }
func (s *stream) SendMsg(m any) error      { return s.ctx.Err() }

// RecvMsg fails once the stream's context is done.
func (s *stream) RecvMsg(m any) error {
	if err := s.ctx.Err(); err != nil {
		return errors.Join(errors.New("stream: context done"), err)
	}
	if s.left == 0 {
		return io.EOF
	}
	s.left--
	return nil
}
