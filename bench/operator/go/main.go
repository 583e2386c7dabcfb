// Command webapp-operator is the Go side of the tsoperator operator benchmark: a controller-runtime
// operator for WebApps (--mode operator), or the raw write loop that issues the same writes with
// no controller (--mode raw). It talks to the cluster of $KUBECONFIG.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func main() {
	mode := flag.String("mode", "operator", "operator or raw")
	namespace := flag.String("namespace", "", "namespace of the WebApps (raw mode)")
	concurrency := flag.Int("concurrency", 10, "MaxConcurrentReconciles, or the raw loop's workers")
	qps := flag.Float64("qps", -1, "client QPS; negative turns client-side rate limiting off")
	burst := flag.Int("burst", -1, "client burst")
	flag.Parse()
	ctrl.SetLogger(logr.Discard())
	heap := startHeapPeak()
	defer heap.write()

	cfg, err := ctrl.GetConfig()
	if err != nil {
		fail(err)
	}
	// GetConfig raises an unset QPS to 20: set ours after it.
	cfg.QPS, cfg.Burst = float32(*qps), *burst
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		fail(err)
	}
	if err := addWebAppTypes(scheme); err != nil {
		fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	switch *mode {
	case "operator":
		err = runOperator(ctx, cfg, scheme, *concurrency)
	case "raw":
		err = runRaw(ctx, cfg, scheme, *namespace, *concurrency)
	default:
		err = fmt.Errorf("unknown --mode %q", *mode)
	}
	if err != nil {
		heap.write()
		fail(err)
	}
}

func runOperator(ctx context.Context, cfg *rest.Config, scheme *runtime.Scheme, concurrency int) error {
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return err
	}
	r := &webAppReconciler{client: mgr.GetClient(), scheme: scheme}
	if err := r.setup(mgr, concurrency); err != nil {
		return err
	}
	return mgr.Start(ctx)
}

func runRaw(ctx context.Context, cfg *rest.Config, scheme *runtime.Scheme, namespace string, concurrency int) error {
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	return rawWriteLoop(ctx, c, scheme, namespace, concurrency)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
