package main

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The WebApp logic both the operator and the raw write loop use; the TypeScript operator's
// webapp-children.ts is the same, field for field.

func labelsFor(app *WebApp) map[string]string {
	return map[string]string{"app.kubernetes.io/name": "webapp", "app.kubernetes.io/instance": app.Name}
}

func replicasOf(app *WebApp) int32 {
	if app.Spec.Replicas == nil {
		return 1
	}
	return *app.Spec.Replicas
}

// shapeDeployment sets the fields the WebApp decides, leaving the API server's defaults alone so an
// unchanged Deployment is not rewritten.
func shapeDeployment(app *WebApp, d *appsv1.Deployment) {
	labels := labelsFor(app)
	replicas := replicasOf(app)
	d.Labels = labels
	d.Spec.Replicas = &replicas
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels}
	d.Spec.Template.Labels = labels
	if len(d.Spec.Template.Spec.Containers) != 1 {
		d.Spec.Template.Spec.Containers = []corev1.Container{{}}
	}
	c := &d.Spec.Template.Spec.Containers[0]
	c.Name = "webapp"
	c.Image = app.Spec.Image
	c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: app.Spec.Port, Protocol: corev1.ProtocolTCP}}
}

func shapeService(app *WebApp, s *corev1.Service) {
	s.Labels = labelsFor(app)
	s.Spec.Selector = labelsFor(app)
	if len(s.Spec.Ports) != 1 {
		s.Spec.Ports = []corev1.ServicePort{{}}
	}
	p := &s.Spec.Ports[0]
	p.Name = "http"
	p.Protocol = corev1.ProtocolTCP
	p.Port = app.Spec.Port
	p.TargetPort = intstr.FromInt32(app.Spec.Port)
}

// shapeStatus writes what the operator observed of the Deployment into the WebApp's status.
func shapeStatus(app *WebApp, readyReplicas int32) {
	want := replicasOf(app)
	generation := app.Generation
	message := fmt.Sprintf("%d/%d replicas ready", readyReplicas, want)
	available, progressing := metav1.ConditionFalse, metav1.ConditionTrue
	reason := "ReplicasNotReady"
	if readyReplicas >= want {
		available, progressing, reason = metav1.ConditionTrue, metav1.ConditionFalse, "ReplicasReady"
	}
	app.Status.ReadyReplicas = readyReplicas
	app.Status.ObservedGeneration = generation
	for _, c := range []metav1.Condition{
		{Type: "Available", Status: available, Reason: reason, Message: message},
		{Type: "Progressing", Status: progressing, Reason: reason, Message: message},
		{Type: "Degraded", Status: metav1.ConditionFalse, Reason: "Reconciled", Message: "children written"},
	} {
		c.ObservedGeneration = generation
		meta.SetStatusCondition(&app.Status.Conditions, c)
	}
}
