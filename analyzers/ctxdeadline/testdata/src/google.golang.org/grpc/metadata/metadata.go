// Package metadata is a stub of google.golang.org/grpc/metadata for tests.
package metadata

import "context"

type MD map[string][]string

func NewOutgoingContext(ctx context.Context, md MD) context.Context { return ctx }

func AppendToOutgoingContext(ctx context.Context, kv ...string) context.Context { return ctx }
