module example.com/fixmod

go 1.26.0
