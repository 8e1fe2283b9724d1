// Package redisuse: a Redis client has its own read and write timeouts, so
// a command on Background() is bounded.
package redisuse

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func warm(addr string) (string, error) {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		return "", err
	}
	return rdb.Get(context.Background(), "k").Result()
}
