{{/* Names and labels. */}}
{{- define "cms.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "cms.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "cms.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "cms.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: cms
{{- end }}

{{/* Selector labels of one component: (dict "root" $ "component" "content"). */}}
{{- define "cms.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cms.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "cms.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "cms.secretName" -}}
{{- default (printf "%s-secrets" (include "cms.fullname" .)) .Values.existingSecret }}
{{- end }}

{{/* The URLs: values, else the dev-only in-chart pods. */}}
{{- define "cms.mongoUrl" -}}
{{- if .Values.mongodb.url }}{{ .Values.mongodb.url }}
{{- else if .Values.mongodb.inChart.enabled }}{{ printf "mongodb://%s-mongodb:27017" (include "cms.fullname" .) }}
{{- end }}
{{- end }}

{{- define "cms.amqpUrl" -}}
{{- if .Values.rabbitmq.url }}{{ .Values.rabbitmq.url }}
{{- else if .Values.rabbitmq.inChart.enabled }}{{ printf "amqp://cms:%s@%s-rabbitmq:5672" (required "rabbitmq.inChart.password is required with rabbitmq.inChart.enabled" .Values.rabbitmq.inChart.password | urlquery) (include "cms.fullname" .) }}
{{- end }}
{{- end }}

{{/* Where each service listens, by name (the *_ADDRESS variables). */}}
{{- define "cms.address" -}}
{{- printf "%s-%s:%v" (include "cms.fullname" .root) .component (index .root.Values .component).port }}
{{- end }}

{{/* The store and broker URLs every service gets (not the gateway: it opens neither). */}}
{{- define "cms.commonEnv" -}}
- name: MONGO_URL
  valueFrom:
    secretKeyRef: { name: {{ include "cms.secretName" . }}, key: MONGO_URL }
- name: AMQP_URL
  valueFrom:
    secretKeyRef: { name: {{ include "cms.secretName" . }}, key: AMQP_URL }
{{- end }}

{{- define "cms.podSecurity" -}}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Fails the render, naming the values, when the required ones are missing. */}}
{{- define "cms.validate" -}}
{{- $missing := list }}
{{- if not .Values.publicUrl }}{{ $missing = append $missing "publicUrl" }}{{ end }}
{{- if not .Values.existingSecret }}
{{- if not (include "cms.mongoUrl" .) }}{{ $missing = append $missing "mongodb.url (or mongodb.inChart.enabled)" }}{{ end }}
{{- if not (include "cms.amqpUrl" .) }}{{ $missing = append $missing "rabbitmq.url (or rabbitmq.inChart.enabled)" }}{{ end }}
{{- if not .Values.auth.jwtSecret }}{{ $missing = append $missing "auth.jwtSecret" }}{{ end }}
{{- if not .Values.auth.serviceAuthKey }}{{ $missing = append $missing "auth.serviceAuthKey" }}{{ end }}
{{- if not .Values.auth.adminPassword }}{{ $missing = append $missing "auth.adminPassword" }}{{ end }}
{{- end }}
{{- if $missing }}
{{- fail (printf "missing required values: %s (or set existingSecret for the secret ones; see deploy/README.md)" (join ", " $missing)) }}
{{- end }}
{{- end }}
