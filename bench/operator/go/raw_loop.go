package main

import (
	"context"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// rawWriteLoop issues the writes the operator ends up issuing per WebApp (create Deployment,
// create Service, update status) with no cache, no watch and no queue: one list, then
// `concurrency` workers writing. It is the API server's limit for this workload.
func rawWriteLoop(ctx context.Context, c client.Client, scheme *runtime.Scheme, namespace string, concurrency int) error {
	var apps WebAppList
	if err := c.List(ctx, &apps, client.InNamespace(namespace)); err != nil {
		return err
	}
	// Filled before the workers start, so a worker that stops on an error blocks no one.
	next := make(chan *WebApp, len(apps.Items))
	for i := range apps.Items {
		next <- &apps.Items[i]
	}
	close(next)
	errs := make(chan error, concurrency)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() {
			for app := range next {
				if err := writeChildrenAndStatus(ctx, c, scheme, app); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func writeChildrenAndStatus(ctx context.Context, c client.Client, scheme *runtime.Scheme, app *WebApp) error {
	deploy := &appsv1.Deployment{ObjectMeta: ctrl.ObjectMeta{Name: app.Name, Namespace: app.Namespace}}
	shapeDeployment(app, deploy)
	if err := controllerutil.SetControllerReference(app, deploy, scheme); err != nil {
		return err
	}
	if err := c.Create(ctx, deploy); err != nil {
		return err
	}
	svc := &corev1.Service{ObjectMeta: ctrl.ObjectMeta{Name: app.Name, Namespace: app.Namespace}}
	shapeService(app, svc)
	if err := controllerutil.SetControllerReference(app, svc, scheme); err != nil {
		return err
	}
	if err := c.Create(ctx, svc); err != nil {
		return err
	}
	shapeStatus(app, deploy.Status.ReadyReplicas)
	return c.Status().Update(ctx, app)
}
