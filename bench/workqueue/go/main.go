// Command workqueue-bench is the Go peer of bench/workqueue: the same add/get/done workload on
// client-go's typed rate-limiting workqueue, printing one JSON line of results. With -name the
// queue is named, so it reports to controller-runtime's workqueue metrics, as a controller's does.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/util/workqueue"
	// Registers controller-runtime's workqueue MetricsProvider (its Prometheus depth, adds,
	// queue_duration, work_duration, unfinished_work, longest_running_processor and retries) as
	// client-go's global provider, as every controller-runtime operator does through this package.
	_ "sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
)

type result struct {
	Scenario  string  `json:"scenario"`
	Processed int64   `json:"processed"`
	Adds      int64   `json:"adds"`
	Seconds   float64 `json:"seconds"`
	// CPU seconds of the process (all threads) over the run: robust to a busy machine.
	CPUSeconds float64 `json:"cpuSeconds"`
}

func cpuSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()
}

func main() {
	scenario := flag.String("scenario", "requeue", "requeue | filldrain")
	workers := flag.Int("workers", 4, "concurrent workers")
	keys := flag.Int("keys", 10000, "distinct keys")
	items := flag.Int64("items", 1000000, "requeue: items to process; filldrain: adds")
	name := flag.String("name", "", "queue name; a non-empty one turns the workqueue metrics on")
	flag.Parse()

	names := make([]string, *keys)
	for i := range names {
		names[i] = fmt.Sprintf("ns-%d/obj-%d", i%100, i)
	}
	var r result
	switch *scenario {
	case "requeue":
		r = requeue(newQueue(*name), names, *workers, *items)
	case "filldrain":
		r = filldrain(newQueue(*name), names, *workers, *items)
	default:
		fmt.Fprintln(os.Stderr, "unknown scenario", *scenario)
		os.Exit(2)
	}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
}

// newQueue makes the queue a controller-runtime controller makes; an unnamed one has no metrics.
func newQueue(name string) workqueue.TypedRateLimitingInterface[string] {
	return workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: name},
	)
}

// runWorkers runs n workers, each handing the keys it gets to process and then calling Done, until
// the queue is shut down and empty.
func runWorkers(q workqueue.TypedRateLimitingInterface[string], n int, process func(key string)) {
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				key, shutdown := q.Get()
				if shutdown {
					return
				}
				process(key)
				q.Done(key)
			}
		}()
	}
	wg.Wait()
}

// requeue: all keys queued; each worker re-adds the key it holds (processed again after Done) and
// one other key (usually a duplicate) until the target count is processed.
func requeue(q workqueue.TypedRateLimitingInterface[string], names []string, workers int, target int64) result {
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	var processed, adds atomic.Int64
	start, cpuStart := time.Now(), cpuSeconds()
	for _, n := range names {
		q.Add(n)
	}
	adds.Add(int64(len(names)))
	runWorkers(q, workers, func(key string) {
		q.Add(key)
		q.Add(names[(index[key]*7+1)%len(names)])
		adds.Add(2)
		if processed.Add(1) == target {
			q.ShutDown()
		}
	})
	return result{Scenario: "requeue", Processed: processed.Load(), Adds: adds.Load(), Seconds: time.Since(start).Seconds(), CPUSeconds: cpuSeconds() - cpuStart}
}

// filldrain: every add first (cycling over the keys, so with duplicates), then the workers drain
// the queue: each distinct key is processed once.
func filldrain(q workqueue.TypedRateLimitingInterface[string], names []string, workers int, total int64) result {
	var processed atomic.Int64
	start, cpuStart := time.Now(), cpuSeconds()
	for i := int64(0); i < total; i++ {
		q.Add(names[i%int64(len(names))])
	}
	q.ShutDown()
	runWorkers(q, workers, func(string) { processed.Add(1) })
	return result{Scenario: "filldrain", Processed: processed.Load(), Adds: total, Seconds: time.Since(start).Seconds(), CPUSeconds: cpuSeconds() - cpuStart}
}
