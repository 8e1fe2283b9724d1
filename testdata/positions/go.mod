module example.com/positions

go 1.26.0
