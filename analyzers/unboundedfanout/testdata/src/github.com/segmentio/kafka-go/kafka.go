// Package kafka is a stub of github.com/segmentio/kafka-go.
package kafka

import "context"

type Message struct{ Key, Value []byte }

type Reader struct{}

func (r *Reader) FetchMessage(ctx context.Context) (Message, error) { return Message{}, nil }

func (r *Reader) CommitMessages(ctx context.Context, msgs ...Message) error { return nil }
