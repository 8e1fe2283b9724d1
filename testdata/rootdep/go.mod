module example.com/rootdep

go 1.24
