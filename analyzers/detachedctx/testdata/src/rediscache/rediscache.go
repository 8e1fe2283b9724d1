// Package rediscache calls Redis from request paths.
package rediscache

import (
	"context"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

type Cache struct{ rdb *redis.Client }

// Set forwards its context to a Redis command.
func (c *Cache) Set(ctx context.Context, k, v string) error {
	return c.rdb.Set(ctx, k, v, time.Minute).Err()
}

func (c *Cache) Handle(w http.ResponseWriter, r *http.Request) {
	_ = c.rdb.Incr(context.TODO(), "hits").Err() // want `\(\*redis.Client\).Incr gets context.TODO\(\) although this function has the inbound request's context \(r.Context\(\)\)`
	_ = c.Set(context.Background(), "k", "v")    // want `\(\*rediscache.Cache\).Set gets context.Background\(\)`
	_ = c.rdb.Incr(r.Context(), "hits").Err()
}

func (c *Cache) Flush(ctx context.Context, p redis.Pipeliner) error {
	_, err := p.Exec(context.Background()) // want `\(redis.Pipeliner\).Exec gets context.Background\(\) although this function has the caller's context \(ctx\)`
	return err
}

// Outside any request: nothing to derive from.
func Warm(c *redis.Client) error {
	return c.Ping(context.Background()).Err()
}
