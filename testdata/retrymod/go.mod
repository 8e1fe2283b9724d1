module example.com/retrymod

go 1.26.0
