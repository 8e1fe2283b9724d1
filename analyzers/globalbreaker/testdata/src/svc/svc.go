// Package svc uses clients of another package behind breakers.
package svc

import (
	"context"

	"clients"

	"github.com/sony/gobreaker/v2"
)

type Service struct {
	users  *clients.Users
	orders *clients.Orders
	cb     *gobreaker.CircuitBreaker[any]
}

func (s *Service) User(ctx context.Context, id string) error {
	_, err := s.cb.Execute(func() (any, error) {
		return s.users.Get(ctx, id)
	})
	return err
}

func (s *Service) DeleteUser(ctx context.Context, id string) error {
	_, err := s.cb.Execute(func() (any, error) { // same dependency as User: the users API
		return s.users.Delete(ctx, id)
	})
	return err
}

func (s *Service) Orders(ctx context.Context) error {
	_, err := s.cb.Execute(func() (any, error) { // want `breaker s.cb guards s.orders.base here but s.users.base at svc.go:19`
		return s.orders.List(ctx)
	})
	return err
}
