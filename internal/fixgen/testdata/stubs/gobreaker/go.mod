module github.com/sony/gobreaker

go 1.26
