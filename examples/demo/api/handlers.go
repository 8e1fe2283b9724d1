// Package api serves the checkout HTTP API.
package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"example.com/demo/checkout"
)

type Handlers struct {
	checkout *checkout.Service
}

func New(c *checkout.Service) *Handlers { return &Handlers{checkout: c} }

// Quote answers POST /quote with the price of a cart.
func (h *Handlers) Quote(w http.ResponseWriter, r *http.Request) {
	var skus []string
	if err := json.NewDecoder(r.Body).Decode(&skus); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	// A fresh 2s budget: the client may have given up already.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	total, err := h.checkout.Price(ctx, skus)
	if err != nil {
		http.Error(w, "catalog unavailable", http.StatusBadGateway)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]int64{"total": total})
}

// Pay answers POST /orders/{id}/pay.
func (h *Handlers) Pay(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	if err := h.checkout.Charge(ctx, r.PathValue("id"), 100); err != nil {
		http.Error(w, "payment failed", http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
