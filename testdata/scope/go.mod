module example.com/scope

go 1.26.0
