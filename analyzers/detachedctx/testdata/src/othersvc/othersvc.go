// Package othersvc calls Kafka and an object store from functions that have
// their caller's context.
package othersvc

import (
	"context"

	"github.com/minio/minio-go/v7"
	"github.com/segmentio/kafka-go"
)

type Service struct {
	w  *kafka.Writer
	mc *minio.Client
}

func (s *Service) Publish(ctx context.Context, v []byte) error {
	return s.w.WriteMessages(context.Background(), kafka.Message{Value: v}) // want `\(\*kafka.Writer\).WriteMessages gets context.Background\(\) although this function has the caller's context \(ctx\)`
}

func (s *Service) Exists(ctx context.Context, key string) (bool, error) {
	_, err := s.mc.StatObject(context.TODO(), "b", key, minio.StatObjectOptions{}) // want `\(\*minio.Client\).StatObject gets context.TODO\(\)`
	return err == nil, err
}

// The caller's context reaches both: nothing to report.
func (s *Service) Both(ctx context.Context, key string) error {
	if _, err := s.mc.StatObject(ctx, "b", key, minio.StatObjectOptions{}); err != nil {
		return err
	}
	_ = s.mc.EndpointURL()
	return s.w.WriteMessages(ctx, kafka.Message{Key: []byte(key)})
}

// No caller's context: a command line tool's own.
func Flush(w *kafka.Writer) error {
	return w.WriteMessages(context.Background(), kafka.Message{})
}
