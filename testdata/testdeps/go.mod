module example.com/testdeps

go 1.26.0
