module github.com/resilint/resilint/resil

go 1.26.0
