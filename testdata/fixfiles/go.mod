module example.com/fixfiles

go 1.26.0
