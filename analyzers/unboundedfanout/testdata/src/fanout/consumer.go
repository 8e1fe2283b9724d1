package fanout

import (
	"context"

	"github.com/segmentio/kafka-go"
)

func handleMsg(ctx context.Context, m kafka.Message) { _ = post(ctx, "http://orders.internal/msgs") }

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

type event struct{ ID string }

func decode(b []byte, v *event) error { return nil }

func handleEvent(ctx context.Context, ev event) {
	_ = post(ctx, "http://orders.internal/events/"+ev.ID)
}

// The message decoded first: still a goroutine per message.
func consumeDecoded(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		var ev event
		if err := decode(m.Value, &ev); err != nil {
			continue
		}
		go handleEvent(ctx, ev) // want `one goroutine per`
	}
}
