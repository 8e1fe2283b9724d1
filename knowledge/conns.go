package knowledge

// ConnTable describes reads from a raw connection and what bounds them
// (issue 13, rule 2): a dial's timeout bounds the connect only, so a
// function that dials, writes a request and reads the answer waits as long
// as the server lets it unless a read deadline is set on the connection
// first. Keys are types.Func.FullName spellings; the index is the argument
// the connection (or a reader over it) is passed as, -1 for the receiver.
type ConnTable struct {
	// Deadlines set a deadline on their receiver that bounds its later
	// reads.
	Deadlines map[string]bool
	// Reads read from the connection or reader at the index.
	Reads map[string]int
	// Wrappers return a reader (or a connection) over the connection or
	// reader at the index: bufio.NewReader(conn), tls.Client(conn, cfg).
	Wrappers map[string]int
	// Harmless take the connection or reader at the index and neither read
	// from it nor keep it: Close, Write, fmt.Fprintf(conn, ...).
	Harmless map[string]int
}

// connTypes are the receivers of a dialled connection's methods: the
// interface, the concrete types' shared implementation (*net.conn, which
// *net.TCPConn embeds) and a TLS connection.
var connTypes = []string{"(net.Conn)", "(*net.conn)", "(*crypto/tls.Conn)"}

func defaultConns() ConnTable {
	t := ConnTable{
		Deadlines: map[string]bool{},
		Reads: map[string]int{
			"io.ReadFull": 0, "io.ReadAll": 0, "io.ReadAtLeast": 0, "io.Copy": 1, "io.CopyN": 1,
			"net/http.ReadResponse": 0,
		},
		Wrappers: map[string]int{
			"bufio.NewReader": 0, "bufio.NewReaderSize": 0, "bufio.NewScanner": 0,
			"encoding/json.NewDecoder": 0, "net/textproto.NewReader": 0,
			"crypto/tls.Client": 0,
		},
		Harmless: map[string]int{
			"fmt.Fprintf": 0, "fmt.Fprint": 0, "fmt.Fprintln": 0, "io.WriteString": 0,
			"(*bufio.Reader).Buffered": -1, "(*bufio.Reader).Size": -1,
			"(*bufio.Scanner).Buffer": -1, "(*bufio.Scanner).Split": -1, "(*bufio.Scanner).Text": -1,
			"(*bufio.Scanner).Bytes": -1, "(*bufio.Scanner).Err": -1,
			"(*encoding/json.Decoder).UseNumber": -1, "(*encoding/json.Decoder).DisallowUnknownFields": -1,
			"(*crypto/tls.Conn).ConnectionState": -1, "(*crypto/tls.Conn).CloseWrite": -1,
			"(*net.TCPConn).CloseWrite": -1, "(*net.TCPConn).SetKeepAlive": -1, "(*net.TCPConn).SetNoDelay": -1,
		},
	}
	for _, r := range connTypes {
		t.Deadlines[r+".SetDeadline"] = true
		t.Deadlines[r+".SetReadDeadline"] = true
		t.Reads[r+".Read"] = -1
		for _, m := range []string{"Close", "Write", "SetWriteDeadline", "LocalAddr", "RemoteAddr"} {
			t.Harmless[r+"."+m] = -1
		}
	}
	t.Reads["(*crypto/tls.Conn).Handshake"] = -1
	for _, m := range []string{"Read", "ReadByte", "ReadBytes", "ReadLine", "ReadRune", "ReadSlice", "ReadString", "Peek", "Discard", "WriteTo"} {
		t.Reads["(*bufio.Reader)."+m] = -1
	}
	t.Reads["(*bufio.Scanner).Scan"] = -1
	for _, m := range []string{"Decode", "More", "Token"} {
		t.Reads["(*encoding/json.Decoder)."+m] = -1
	}
	for _, m := range []string{"ReadLine", "ReadLineBytes", "ReadContinuedLine", "ReadCodeLine", "ReadResponse", "ReadMIMEHeader", "ReadDotLines", "ReadDotBytes"} {
		t.Reads["(*net/textproto.Reader)."+m] = -1
	}
	return t
}
