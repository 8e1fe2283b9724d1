package bounded

import (
	"context"
	"strconv"
	"strings"
	"sync"
)

// One goroutine per cluster node, each sending to the node's own base URL,
// built in place with a strings.Builder from the node's fields: the
// element is the target, not fan-out (issue 13, rule 5).
type Node struct {
	Proto, Host string
	Port        int
}

func (n *Node) baseURL() string {
	var sb strings.Builder
	sb.WriteString(n.Proto)
	sb.WriteString("://")
	sb.WriteString(n.Host)
	if n.Port > 0 {
		sb.WriteString(":" + strconv.Itoa(n.Port))
	}
	return sb.String()
}

func (n *Node) Get(ctx context.Context, path string) error {
	return post(ctx, n.baseURL()+path)
}

func AskNodes(ctx context.Context, nodes []Node) {
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func(node Node) {
			defer wg.Done()
			_ = node.Get(ctx, "/api/v2/connections")
		}(n)
	}
	wg.Wait()
}
