package fanout

import (
	"context"
	"sync"

	"example.com/ordersclient"
	"orderspb"
)

// A client made by the module's constructor in another package, dialled to
// the constant remote target given here: its calls reach that host, one
// goroutine per order (issue 13, rules 2 and 5).
func shipViaCtor(ctx context.Context, ids []string) error {
	orders, err := ordersclient.New("orders.prod.example.com:443")
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() { // want `one goroutine per element of ids with no limit, each calling orderspb.OrdersClient`
			defer wg.Done()
			orders.Ship(ctx, &orderspb.ShipRequest{ID: id})
		}()
	}
	wg.Wait()
	return nil
}

// The same constructor dialled to a loopback sidecar: local work.
func shipViaSidecar(ctx context.Context, ids []string) error {
	orders, err := ordersclient.New("127.0.0.1:9000")
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			orders.Ship(ctx, &orderspb.ShipRequest{ID: id})
		}()
	}
	wg.Wait()
	return nil
}
