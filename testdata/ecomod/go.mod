module example.com/ecomod

go 1.26.0
