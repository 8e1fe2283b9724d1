package knowledge

// URLTable: how a URL value keeps the text it is built from (issue 13,
// rule 1: the host of a request's URL decides where it goes).
type URLTable struct {
	// Type is the URL struct type, "path.Name" (net/url.URL): a composite
	// literal of it renders its SchemeField, "://" and its HostField, then
	// "/", "?", "#" or nothing.
	Type        string
	SchemeField string
	HostField   string
	// AuthorityFields are the other fields that change what comes before
	// the path (User, Opaque): a URL given one is out of sight.
	AuthorityFields []string
	// Parsers: functions that parse a URL value from a string argument
	// (index); the value renders the same scheme and host.
	Parsers map[string]int
	// Strings: methods that render a URL value as its text.
	Strings map[string]bool
	// SameHost: methods that return a URL with the receiver's scheme and
	// host ((*net/url.URL).JoinPath).
	SameHost map[string]bool
	// RequestFields: request types, "path.Name", and the field that holds
	// the URL they are sent to (net/http.Request.URL).
	RequestFields map[string]string
}

func defaultURLs() URLTable {
	return URLTable{
		Type:            "net/url.URL",
		SchemeField:     "Scheme",
		HostField:       "Host",
		AuthorityFields: []string{"Opaque", "User", "OmitHost"},
		Parsers:         map[string]int{"net/url.Parse": 0, "net/url.ParseRequestURI": 0},
		Strings:         map[string]bool{"(*net/url.URL).String": true},
		SameHost:        map[string]bool{"(*net/url.URL).JoinPath": true},
		RequestFields:   map[string]string{"net/http.Request": "URL"},
	}
}
