package main

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// webAppReconciler is the WebApp operator as Kubebuilder users write it: createOrUpdate of the
// owned Deployment and Service, then the status, written only when it changed.
type webAppReconciler struct {
	client client.Client
	scheme *runtime.Scheme
}

func (r *webAppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var app WebApp
	if err := r.client.Get(ctx, req.NamespacedName, &app); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	deploy := &appsv1.Deployment{ObjectMeta: ctrl.ObjectMeta{Name: app.Name, Namespace: app.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.client, deploy, func() error {
		shapeDeployment(&app, deploy)
		return controllerutil.SetControllerReference(&app, deploy, r.scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}
	svc := &corev1.Service{ObjectMeta: ctrl.ObjectMeta{Name: app.Name, Namespace: app.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.client, svc, func() error {
		shapeService(&app, svc)
		return controllerutil.SetControllerReference(&app, svc, r.scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}
	before := app.DeepCopy().Status
	shapeStatus(&app, deploy.Status.ReadyReplicas)
	if equality.Semantic.DeepEqual(before, app.Status) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.client.Status().Update(ctx, &app)
}

func (r *webAppReconciler) setup(mgr ctrl.Manager, concurrency int) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&WebApp{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: concurrency}).
		Complete(r)
}
