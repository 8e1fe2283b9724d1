module example.com/demo

go 1.26.0

require github.com/sony/gobreaker v1.0.0
