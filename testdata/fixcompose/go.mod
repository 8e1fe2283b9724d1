module example.com/fixcompose

go 1.26.0

require github.com/resilint/resilint/resil v0.0.0
