// Command cache-bench is the Go peer of the tsoperator cache benchmark: it starts a
// controller-runtime informer cache for ConfigMaps in one namespace, waits for it to sync and
// prints, as one JSON line, the times that took, what the cache holds per object (heap and RSS),
// what the sync allocated per object, and the heap a queued key takes in the controller's queue.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// result has the field names of bench/cache/cache-run-result.ts.
type result struct {
	Objects             int     `json:"objects"`
	SyncSeconds         float64 `json:"syncSeconds"`
	HasSyncedSeconds    float64 `json:"hasSyncedSeconds"`
	SyncCPUSeconds      float64 `json:"syncCpuSeconds"`
	HeapBytesPerObject  float64 `json:"heapBytesPerObject"`
	RssBytesPerObject   float64 `json:"rssBytesPerObject"`
	AllocBytesPerObject float64 `json:"allocBytesPerObject"`
	QueuedKeyBytes      float64 `json:"queuedKeyBytes"`
	PeakRssBytes        float64 `json:"peakRssBytes"`
	RssAfterSyncBytes   float64 `json:"rssAfterSyncBytes"`
}

// heapAfterGC is the live heap and the bytes allocated so far.
func heapAfterGC() (live uint64, allocated uint64) {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.TotalAlloc
}

// cpuSeconds is the user and system CPU time of the process so far, all threads.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		fail(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}

// procStatus reads one "kB" field of /proc/self/status, in bytes.
func procStatus(field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fail(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kib, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			if err != nil {
				fail(err)
			}
			return kib * 1024
		}
	}
	fail(fmt.Errorf("no %s in /proc/self/status", field))
	return 0
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	namespace := flag.String("namespace", "", "namespace holding the ConfigMaps")
	flag.Parse()

	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail(err)
	}
	cfg.QPS, cfg.Burst = -1, -1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	before, allocBefore := heapAfterGC()
	rssBefore := procStatus("VmRSS")
	cpuBefore := cpuSeconds()
	start := time.Now()
	// The same transform as the tsoperator cache's default, so both hold the same fields.
	c, err := cache.New(cfg, cache.Options{
		DefaultNamespaces: map[string]cache.Config{*namespace: {}},
		DefaultTransform:  cache.TransformStripManagedFields(),
	})
	if err != nil {
		fail(err)
	}
	informer, err := c.GetInformer(ctx, &corev1.ConfigMap{})
	if err != nil {
		fail(err)
	}
	// WaitForCacheSync polls every 100 ms; this finds the moment the informer synced to the ms.
	var hasSynced atomic.Int64
	go func() {
		for !informer.HasSynced() {
			time.Sleep(time.Millisecond)
		}
		hasSynced.Store(int64(time.Since(start)))
	}()
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		fail(fmt.Errorf("cache did not sync"))
	}
	synced := time.Since(start)
	syncCPU := cpuSeconds() - cpuBefore
	for hasSynced.Load() == 0 {
		time.Sleep(time.Millisecond)
	}

	var atSync runtime.MemStats
	runtime.ReadMemStats(&atSync)
	objects := len(informerKeys(ctx, c))
	after, _ := heapAfterGC()
	rssAfter := procStatus("VmRSS")

	// The controller's queue (controller-runtime's default, the priority queue) holding one key per
	// object, as its initial-list handler leaves it: the strings are the cached objects' own.
	queue := priorityqueue.New[reconcile.Request]("bench")
	keys := informerKeys(ctx, c)
	for _, key := range keys {
		queue.AddWithOpts(priorityqueue.AddOpts{Priority: ptr.To(handler.LowPriority)}, reconcile.Request{NamespacedName: key})
	}
	keys = nil
	queued, _ := heapAfterGC()

	out, _ := json.Marshal(result{
		Objects:             objects,
		SyncSeconds:         synced.Seconds(),
		HasSyncedSeconds:    time.Duration(hasSynced.Load()).Seconds(),
		SyncCPUSeconds:      syncCPU,
		HeapBytesPerObject:  float64(after-before) / float64(objects),
		RssBytesPerObject:   (rssAfter - rssBefore) / float64(objects),
		AllocBytesPerObject: float64(atSync.TotalAlloc-allocBefore) / float64(objects),
		QueuedKeyBytes:      (float64(queued) - float64(after)) / float64(objects),
		PeakRssBytes:        procStatus("VmHWM"),
		RssAfterSyncBytes:   rssAfter,
	})
	fmt.Println(string(out))
	runtime.KeepAlive(c)
	runtime.KeepAlive(queue)
}

// informerKeys lists the cache: the key of each object, sharing the cached objects' strings.
func informerKeys(ctx context.Context, c cache.Cache) []types.NamespacedName {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list); err != nil {
		fail(err)
	}
	keys := make([]types.NamespacedName, 0, len(list.Items))
	for i := range list.Items {
		keys = append(keys, types.NamespacedName{Namespace: list.Items[i].Namespace, Name: list.Items[i].Name})
	}
	return keys
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
