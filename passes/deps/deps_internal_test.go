package deps

import "testing"

func TestHostOf(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com/v1/search": "api.example.com",
		"http://user:pw@Example.COM:8080/x": "example.com:8080",
		"db.internal:5432":                  "db.internal:5432",
		"/v1/search":                        "",
		"https://":                          "",
		"https://%s/v1":                     "",
		"hello":                             "",
	} {
		if got := hostOf(in); got != want {
			t.Errorf("hostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGRPCService(t *testing.T) {
	if got := grpcService("/rooms.v1.RoomsService/Hold"); got != "rooms.v1.RoomsService" {
		t.Errorf("grpcService = %q", got)
	}
}

func TestComparable(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"host:a", "host:b", true},
		{"host:a", "recv:T.base", false},
		{"param:f.go:1:1#0", "param:f.go:1:1#1", true},
		{"param:f.go:1:1#0", "param:g.go:9:1#0", false},
		{"", "host:a", false},
	} {
		if got := comparable(c.a, c.b); got != c.want {
			t.Errorf("comparable(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
