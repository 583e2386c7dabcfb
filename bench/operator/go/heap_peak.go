package main

import (
	"encoding/json"
	"os"
	"runtime"
	"sync/atomic"
	"time"
)

// heapPeak samples the Go heap in use (HeapAlloc) every 100 ms when BENCH_HEAP_FILE is set, and
// write stores the peak there, so the benchmark reports the heap beside the process's peak RSS.
type heapPeak struct {
	peak atomic.Uint64
}

func startHeapPeak() *heapPeak {
	h := &heapPeak{}
	if os.Getenv("BENCH_HEAP_FILE") == "" {
		return h
	}
	go func() {
		for range time.Tick(100 * time.Millisecond) {
			h.sample()
		}
	}()
	return h
}

func (h *heapPeak) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	for {
		old := h.peak.Load()
		if m.HeapAlloc <= old || h.peak.CompareAndSwap(old, m.HeapAlloc) {
			return
		}
	}
}

func (h *heapPeak) write() {
	file := os.Getenv("BENCH_HEAP_FILE")
	if file == "" {
		return
	}
	h.sample()
	data, _ := json.Marshal(map[string]uint64{"peakHeapBytes": h.peak.Load()})
	_ = os.WriteFile(file, data, 0o644)
}
