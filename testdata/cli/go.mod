module example.com/cli

go 1.26.0
