// Package minio is a stub of github.com/minio/minio-go/v7.
package minio

import "context"

type Client struct{}

type StatObjectOptions struct{}

type ObjectInfo struct{ Size int64 }

func (c *Client) StatObject(ctx context.Context, bucket, key string, opts StatObjectOptions) (ObjectInfo, error) {
	return ObjectInfo{}, nil
}

func (c *Client) EndpointURL() string { return "" }

// Exists is the module's own code: the rows for its client's methods apply
// inside it too.
func (c *Client) Exists(ctx context.Context, key string) bool {
	_, err := c.StatObject(context.Background(), "b", key, StatObjectOptions{}) // want `\(\*minio.Client\).StatObject gets context.Background\(\) although this function has the caller's context \(ctx\)`
	return err == nil
}
