module svc

go 1.26
