// Command cache-bench is the Go peer of the tsoperator cache benchmark: it starts a
// controller-runtime informer cache for ConfigMaps in one namespace, waits for it to sync and
// prints, as one JSON line, the time that took and the heap the cache holds per object.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

type result struct {
	Objects        int     `json:"objects"`
	SyncSeconds    float64 `json:"syncSeconds"`
	BytesPerObject float64 `json:"bytesPerObject"`
}

func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
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

	before := heapAfterGC()
	start := time.Now()
	// The same transform as the tsoperator cache's default, so both hold the same fields.
	c, err := cache.New(cfg, cache.Options{
		DefaultNamespaces: map[string]cache.Config{*namespace: {}},
		DefaultTransform:  cache.TransformStripManagedFields(),
	})
	if err != nil {
		fail(err)
	}
	if _, err := c.GetInformer(ctx, &corev1.ConfigMap{}); err != nil {
		fail(err)
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		fail(fmt.Errorf("cache did not sync"))
	}
	synced := time.Since(start)

	var list corev1.ConfigMapList
	if err := c.List(ctx, &list); err != nil {
		fail(err)
	}
	objects := len(list.Items)
	list = corev1.ConfigMapList{}
	after := heapAfterGC()
	out, _ := json.Marshal(result{
		Objects:        objects,
		SyncSeconds:    synced.Seconds(),
		BytesPerObject: float64(after-before) / float64(objects),
	})
	fmt.Println(string(out))
	runtime.KeepAlive(c)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
