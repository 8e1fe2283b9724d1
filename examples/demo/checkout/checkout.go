// Package checkout prices and places orders.
package checkout

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/sony/gobreaker"

	"example.com/demo/catalog"
)

// breaker guards every dependency of checkout at once.
var breaker = gobreaker.NewCircuitBreaker(gobreaker.Settings{
	Name:        "checkout",
	ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 1 },
})

type Service struct {
	catalog  *catalog.Client
	payments string
	hc       *http.Client
}

func NewService(c *catalog.Client, payments string) *Service {
	return &Service{catalog: c, payments: payments, hc: &http.Client{Timeout: 3 * time.Second}}
}

// Price looks every line of the cart up in the catalog, all at once.
func (s *Service) Price(ctx context.Context, skus []string) (int64, error) {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		total int64
		errs  []error
	)
	for _, sku := range skus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := breaker.Execute(func() (interface{}, error) {
				return s.catalog.Product(ctx, sku)
			})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			total += v.(*catalog.Product).Price
		}()
	}
	wg.Wait()
	return total, errors.Join(errs...)
}

// Charge charges the card, through the same breaker as the catalog.
func (s *Service) Charge(ctx context.Context, orderID string, amount int64) error {
	_, err := breaker.Execute(func() (interface{}, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.payments+"/charges/"+orderID, nil)
		if err != nil {
			return nil, err
		}
		resp, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		return nil, resp.Body.Close()
	})
	return err
}

// Stock checks stock for one product; the catalog client already retries,
// and so does this loop.
func (s *Service) Stock(ctx context.Context, sku string) (int, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		p, err := s.catalog.Product(ctx, sku)
		if err == nil {
			return p.Stock, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(100*time.Millisecond) << attempt))):
		}
	}
	return 0, lastErr
}
