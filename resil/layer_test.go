package resil

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"
)

// parentKinds make a parent context carrying id, of the kinds a marked
// context must stand for: pointer types of the context package, a struct
// held by pointer to a copy (WithoutCancel), and the program's own types.
var parentKinds = []struct {
	name string
	make func(id int) (context.Context, context.CancelFunc)
	// lookupAllocs: the parent's own Value method allocates (the standard
	// library's WithoutCancel converts itself to an interface on every
	// lookup), so no Retry on it can be free.
	lookupAllocs bool
}{
	{"WithCancel", func(id int) (context.Context, context.CancelFunc) {
		return context.WithCancel(context.WithValue(context.Background(), ctxKey("id"), id))
	}, false},
	{"WithValue", func(id int) (context.Context, context.CancelFunc) {
		return context.WithValue(context.Background(), ctxKey("id"), id), func() {}
	}, false},
	{"WithoutCancel", func(id int) (context.Context, context.CancelFunc) {
		return context.WithoutCancel(context.WithValue(context.Background(), ctxKey("id"), id)), func() {}
	}, true},
	{"own pointer type", func(id int) (context.Context, context.CancelFunc) {
		c, cancel := context.WithCancel(context.Background())
		return &idCtx{Context: c, id: id}, cancel
	}, false},
	{"own value type", func(id int) (context.Context, context.CancelFunc) {
		c, cancel := context.WithCancel(context.Background())
		return idVal{Context: c, id: id, pad: "padding makes it two words"}, cancel
	}, false},
}

type idCtx struct {
	context.Context
	id int
}

func (c *idCtx) Value(key any) any {
	if key == ctxKey("id") {
		return c.id
	}
	return c.Context.Value(key)
}

type idVal struct {
	context.Context
	id  int
	pad string
}

func (c idVal) Value(key any) any {
	if key == ctxKey("id") {
		return c.id
	}
	return c.Context.Value(key)
}

// check reports how ctx, handed to an operation of a Retry on parent,
// differs from what it must be: the parent's values, deadline, Done and
// Err, plus the mark.
func check(ctx, parent context.Context, id int) error {
	if got := ctx.Value(ctxKey("id")); got != id {
		return fmt.Errorf("marked context of parent %d sees value %v", id, got)
	}
	if ctx.Done() != parent.Done() || ctx.Err() != parent.Err() {
		return fmt.Errorf("marked context of parent %d: Done or Err is not its parent's", id)
	}
	if d1, ok1 := ctx.Deadline(); true {
		if d2, ok2 := parent.Deadline(); !d1.Equal(d2) || ok1 != ok2 {
			return fmt.Errorf("marked context of parent %d: deadline is not its parent's", id)
		}
	}
	if !RetryOwned(ctx) {
		return fmt.Errorf("context handed to the operation of parent %d is not marked", id)
	}
	return nil
}

// TestMarks checks that the context an operation sees is its own parent,
// marked: from many goroutines at once, on fresh parents of every kind, and
// for marks kept after Retry returned, across garbage collections.
func TestMarks(t *testing.T) {
	const workers, calls = 8, 600
	type keptMark struct {
		ctx, parent context.Context
		cancel      context.CancelFunc
		id          int
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		kept []keptMark
		errs = make(chan error, workers)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				id := w*calls + i
				parent, cancel := parentKinds[id%len(parentKinds)].make(id)
				keep := i%5 == 0
				err := Retry(parent, func(ctx context.Context) error {
					if keep {
						mu.Lock()
						kept = append(kept, keptMark{ctx, parent, cancel, id})
						mu.Unlock()
					}
					return check(ctx, parent, id)
				})
				if !keep {
					cancel()
				}
				if err != nil {
					errs <- err
					return
				}
				if i%100 == 0 {
					runtime.GC()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	runtime.GC()
	for _, k := range kept {
		if err := check(k.ctx, k.parent, k.id); err != nil {
			t.Fatalf("kept: %v", err)
		}
		k.cancel()
		if k.ctx.Err() != k.parent.Err() {
			t.Fatalf("kept mark of parent %d after cancel: err %v, parent's %v", k.id, k.ctx.Err(), k.parent.Err())
		}
	}
	if RetryOwned(nil) || !RetryOwned(WithRetryOwned(nil)) {
		t.Fatal("nil context: RetryOwned(nil) must be false and WithRetryOwned(nil) marked")
	}
	c, cancel := context.WithCancel(context.Background())
	defer cancel()
	if got, want := fmt.Sprint(WithRetryOwned(c)), "context.Background.WithCancel.WithRetryOwned"; got != want {
		t.Fatalf("marked context prints as %q, want %q", got, want)
	}
	// A deadline derived from a marked context follows its parent.
	d, cancelD := context.WithTimeout(WithRetryOwned(c), time.Hour)
	cancel()
	<-d.Done()
	cancelD()
}

// TestMarkAllocations: marking a parent never marked before — a server's
// fresh request context — allocates nothing, whatever its kind.
func TestMarkAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	if !layoutOK {
		t.Fatal("interface layout check failed: marks would allocate")
	}
	op := func(context.Context) error { return nil }
	for _, k := range parentKinds {
		if k.lookupAllocs {
			continue
		}
		const n = 200
		parents := make([]context.Context, n)
		for i := range parents {
			var cancel context.CancelFunc
			parents[i], cancel = k.make(i)
			defer cancel()
		}
		i := 0
		allocs := testing.AllocsPerRun(n-1, func() {
			if err := Retry(parents[i], op); err != nil {
				t.Fatal(err)
			}
			i++
		})
		if allocs != 0 {
			t.Errorf("outermost Retry on a fresh %s parent: %v allocs, want 0", k.name, allocs)
		}
	}
}

// TestMarkFallback: when marks cannot be one word, a mark is a node that
// behaves the same.
func TestMarkFallback(t *testing.T) {
	defer func(ok bool) { layoutOK = ok }(layoutOK)
	layoutOK = false
	for id, k := range parentKinds {
		parent, cancel := k.make(id)
		m := WithRetryOwned(parent)
		if _, ok := m.(*owned); !ok {
			t.Fatalf("%s: mark is a %T, want the *owned node", k.name, m)
		}
		if err := check(m, parent, id); err != nil {
			t.Fatal(err)
		}
		cancel()
		if m.Err() != parent.Err() {
			t.Fatalf("%s: mark's Err %v, parent's %v", k.name, m.Err(), parent.Err())
		}
	}
}

// TestMarkSlotsFull runs itself in a child process (the table of method
// tables is process-wide): once every slot holds another context type, a
// new type's mark is a node, and every mark still stands for its parent.
func TestMarkSlotsFull(t *testing.T) {
	if os.Getenv("RESIL_MARK_SLOTS_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMarkSlotsFull$", "-test.count=1")
		cmd.Env = append(os.Environ(), "RESIL_MARK_SLOTS_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	// Seventeen context types on top of those the runtime marks itself.
	makers := []func(id int) context.Context{
		typed[[0]byte], typed[[1]byte], typed[[2]byte], typed[[3]byte], typed[[4]byte], typed[[5]byte],
		typed[[6]byte], typed[[7]byte], typed[[8]byte], typed[[9]byte], typed[[10]byte], typed[[11]byte],
		typed[[12]byte], typed[[13]byte], typed[[14]byte], typed[[15]byte], typed[[16]byte],
	}
	var marks, nodes []context.Context
	var parents []context.Context
	for id, mk := range makers {
		parent := mk(id)
		m := WithRetryOwned(parent)
		if _, ok := m.(*owned); ok {
			nodes = append(nodes, m)
		}
		marks, parents = append(marks, m), append(parents, parent)
	}
	if len(nodes) == 0 {
		t.Fatal("every one of 17 context types got a slot: the table is larger than expected")
	}
	runtime.GC()
	for id, m := range marks {
		if err := check(m, parents[id], id); err != nil {
			t.Fatal(err)
		}
	}
	if !raceEnabled {
		// A type that has a slot still marks for free.
		p := typed[[0]byte](99)
		if n := testing.AllocsPerRun(100, func() { _ = WithRetryOwned(p) }); n != 0 {
			t.Fatalf("type with a slot, table full: %v allocs, want 0", n)
		}
	}
}

type typedCtx[S any] struct{ idCtx }

func typed[S any](id int) context.Context {
	return &typedCtx[S]{idCtx{Context: context.Background(), id: id}}
}
