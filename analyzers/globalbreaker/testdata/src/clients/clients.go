// Package clients holds API clients used by package svc: their methods
// reach outbound calls, which facts carry across packages.
package clients

import (
	"context"
	"net/http"
)

type Users struct {
	base string
	hc   *http.Client
}

func NewUsers(base string) *Users { return &Users{base: base, hc: &http.Client{}} }

func (u *Users) Get(ctx context.Context, id string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.base+"/users/"+id, nil)
	if err != nil {
		return nil, err
	}
	return u.hc.Do(req)
}

func (u *Users) Delete(ctx context.Context, id string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.base+"/users/"+id, nil)
	if err != nil {
		return nil, err
	}
	return u.hc.Do(req)
}

type Orders struct {
	base string
	hc   *http.Client
}

func (o *Orders) List(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.base+"/orders", nil)
	if err != nil {
		return nil, err
	}
	return o.hc.Do(req)
}
