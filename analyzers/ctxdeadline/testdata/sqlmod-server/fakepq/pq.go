package pq
