package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// moments prints "<event> <unix ms>" lines, the wall clock the benchmark shares with every replica:
// started (the manager is about to start), synced (the controller has seen all the ConfigMaps),
// first-reconcile (its first reconcile, which only a leader runs).
type moments struct {
	adds       atomic.Int64
	reconciled sync.Once
	mu         sync.Mutex
}

func (m *moments) print(name string) {
	at := float64(time.Now().UnixMicro()) / 1000
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Printf("%s %.3f\n", name, at)
}

// countAdds prints synced once the controller's source has delivered `objects` creates: with
// EnableWarmup that happens before the replica leads, without it only after.
func (m *moments) countAdds(objects int) predicate.Funcs {
	return predicate.Funcs{CreateFunc: func(event.CreateEvent) bool {
		if m.adds.Add(1) == int64(objects) {
			m.print("synced")
		}
		return true
	}}
}

func (m *moments) firstReconcile() {
	m.reconciled.Do(func() { m.print("first-reconcile") })
}
