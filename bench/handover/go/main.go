// Command handover-replica is the Go side of the tsoperator hand-over benchmark: one replica of a
// controller-runtime manager with leader election and one ConfigMap controller, for the cluster of
// $KUBECONFIG. It prints on stdout the moments the benchmark times, one line each (see moments.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func main() {
	namespace := flag.String("namespace", "", "namespace of the ConfigMaps and of the Lease")
	lease := flag.String("lease", "", "name of the Lease")
	objects := flag.Int("objects", 0, "how many ConfigMaps the namespace holds")
	warmup := flag.Bool("warmup", false, "EnableWarmup: start the controller's sources before leading")
	leaseDuration := flag.Duration("lease-duration", 15*time.Second, "LeaseDuration")
	renewDeadline := flag.Duration("renew-deadline", 10*time.Second, "RenewDeadline")
	retryPeriod := flag.Duration("retry-period", 2*time.Second, "RetryPeriod")
	flag.Parse()
	ctrl.SetLogger(logr.Discard())

	cfg, err := ctrl.GetConfig()
	if err != nil {
		fail(err)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Metrics:                       metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:        "0",
		LeaderElection:                true,
		LeaderElectionID:              *lease,
		LeaderElectionNamespace:       *namespace,
		LeaderElectionReleaseOnCancel: true,
		LeaseDuration:                 leaseDuration,
		RenewDeadline:                 renewDeadline,
		RetryPeriod:                   retryPeriod,
		Cache:                         cache.Options{DefaultNamespaces: map[string]cache.Config{*namespace: {}}},
	})
	if err != nil {
		fail(err)
	}
	moments := &moments{}
	err = ctrl.NewControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}, builder.WithPredicates(moments.countAdds(*objects))).
		WithOptions(controller.Options{EnableWarmup: warmup}).
		Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			moments.firstReconcile()
			return reconcile.Result{}, nil
		}))
	if err != nil {
		fail(err)
	}
	ctx := ctrl.SetupSignalHandler()
	moments.print("started")
	if err := mgr.Start(ctx); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
