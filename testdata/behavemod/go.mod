module example.com/behavemod

go 1.26.0

require (
	github.com/resilint/resilint/resil v0.0.0
	golang.org/x/sync v0.23.0
	google.golang.org/grpc v1.70.0
)

replace google.golang.org/grpc => ./grpcstub
