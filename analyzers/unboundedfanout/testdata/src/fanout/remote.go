package fanout

import (
	"context"
	"fmt"
	"net/http"
)

// post is the remote work the goroutines of this package do: a request to
// the URL it is given.
func post(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ship sends an order to the shipping service: one dependency for every
// order, the order the payload.
func ship(ctx context.Context, o Order) error {
	return post(ctx, "http://shipping.internal/orders/"+o.ID)
}

func fetchPage(ctx context.Context, i int) {
	_ = post(ctx, fmt.Sprintf("http://catalog.internal/items?page=%d", i))
}

func plot(x, y int) {
	_ = post(context.Background(), fmt.Sprintf("http://tiles.internal/%d/%d", x, y))
}

func encode(id, r string) {
	_ = post(context.Background(), "http://encoder.internal/jobs/"+id+"/"+r)
}
