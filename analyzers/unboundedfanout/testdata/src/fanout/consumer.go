package fanout

import (
	"context"

	"github.com/segmentio/kafka-go"
)

func handleMsg(ctx context.Context, m kafka.Message) {}

// One goroutine per message pulled from the topic: a backlog starts
// thousands at once.
func consume(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		go handleMsg(ctx, m) // want `one goroutine per`
	}
}

// A fixed number of consumers, each handling its messages one at a time.
func consumers(ctx context.Context, r *kafka.Reader) {
	for i := 0; i < 4; i++ {
		go func() {
			for {
				m, err := r.FetchMessage(ctx)
				if err != nil {
					return
				}
				handleMsg(ctx, m)
			}
		}()
	}
}

// A slot taken before each goroutine: bounded.
func consumeBounded(ctx context.Context, r *kafka.Reader) error {
	sem := make(chan struct{}, 8)
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			handleMsg(ctx, m)
		}()
	}
}
