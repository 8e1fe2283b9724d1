// Package redis is a stub of github.com/redis/go-redis/v9 for tests: the
// commands are methods of an unexported func type that the clients embed,
// as in the real package.
package redis

import (
	"context"
	"time"
)

type Cmder interface{ Err() error }

type StatusCmd struct{}

func (c *StatusCmd) Err() error { return nil }

type StringCmd struct{}

func (c *StringCmd) Err() error              { return nil }
func (c *StringCmd) Result() (string, error) { return "", nil }

type IntCmd struct{}

func (c *IntCmd) Err() error { return nil }

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Get(ctx context.Context, key string) *StringCmd { return &StringCmd{} }
func (c cmdable) Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}
func (c cmdable) Incr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }
func (c cmdable) Ping(ctx context.Context) *StatusCmd          { return &StatusCmd{} }

type Cmdable interface {
	Get(ctx context.Context, key string) *StringCmd
	Set(ctx context.Context, key string, value any, expiration time.Duration) *StatusCmd
	Incr(ctx context.Context, key string) *IntCmd
}

type Pipeliner interface {
	Cmdable
	Exec(ctx context.Context) ([]Cmder, error)
}

type Options struct {
	Addr        string
	ReadTimeout time.Duration
}

type Client struct {
	cmdable
}

func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) Pipeline() Pipeliner { return nil }
func (c *Client) Close() error        { return nil }
