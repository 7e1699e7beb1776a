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

{{/* The image by digest when one is given (pinned by content), else by tag. */}}
{{- define "cms.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "cms.secretName" -}}
{{- default (printf "%s-secrets" (include "cms.fullname" .)) .Values.existingSecret }}
{{- end }}

{{/* The URLs: values, else the dev-only in-chart pods. */}}
{{- define "cms.storeUrl" -}}
{{- if .Values.store.url }}{{ .Values.store.url }}
{{- else if .Values.mongodb.url }}{{ .Values.mongodb.url }}
{{- else if .Values.postgresql.inChart.enabled }}{{ printf "postgres://cms:%s@%s-postgresql:5432/cms" (required "postgresql.inChart.password is required with postgresql.inChart.enabled" .Values.postgresql.inChart.password | urlquery) (include "cms.fullname" .) }}
{{- else if .Values.mongodb.inChart.enabled }}{{ printf "mongodb://%s-mongodb:27017" (include "cms.fullname" .) }}
{{- end }}
{{- end }}

{{/* postgresql or mongodb, from the store URL's scheme; empty when the URL is in existingSecret (unknown here). */}}
{{- define "cms.storeEngine" -}}
{{- if .Values.existingSecret }}
{{- else if regexMatch "^postgres(ql)?://" (include "cms.storeUrl" .) }}postgresql
{{- else if regexMatch `^mongodb(\+srv)?://` (include "cms.storeUrl" .) }}mongodb
{{- end }}
{{- end }}

{{- define "cms.inChartStore" -}}
{{- if or .Values.postgresql.inChart.enabled .Values.mongodb.inChart.enabled }}true{{ end }}
{{- end }}

{{- define "cms.amqpUrl" -}}
{{- if .Values.rabbitmq.url }}{{ .Values.rabbitmq.url }}
{{- else if .Values.rabbitmq.inChart.enabled }}{{ printf "amqp://cms:%s@%s-rabbitmq:5672" (required "rabbitmq.inChart.password is required with rabbitmq.inChart.enabled" .Values.rabbitmq.inChart.password | urlquery) (include "cms.fullname" .) }}
{{- end }}
{{- end }}

{{/*
Where each service listens, by name (the *_ADDRESS variables): the fully qualified name of its headless Service,
which resolves to every ready pod's address; gRPC clients balance round_robin over them and re-resolve when a
server ends a connection at its maximum age (GRPC_MAX_CONNECTION_AGE_MS).
*/}}
{{- define "cms.headlessName" -}}
{{- printf "%s-%s-headless" (include "cms.fullname" .root) .component }}
{{- end }}

{{- define "cms.address" -}}
{{- printf "%s.%s.svc.%s:%v" (include "cms.headlessName" .) .root.Release.Namespace .root.Values.clusterDomain (index .root.Values .component).port }}
{{- end }}

{{/* The store and broker URLs every service gets (not the gateway: it opens neither). */}}
{{- define "cms.commonEnv" -}}
- name: STORE_URL
  valueFrom:
    secretKeyRef: { name: {{ include "cms.secretName" . }}, key: STORE_URL }
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

{{/* OpenTelemetry, when tracing.enabled: the standard variables, the component's name, the preload. */}}
{{- define "cms.tracingEnv" -}}
{{- $tracing := .root.Values.tracing }}
{{- if $tracing.enabled }}
- { name: NODE_OPTIONS, value: "--require /app/services/shared/dist/tracing/register.js" }
- { name: OTEL_SERVICE_NAME, value: {{ printf "cms-%s" .component | quote }} }
- { name: OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ $tracing.endpoint | quote }} }
- { name: OTEL_EXPORTER_OTLP_PROTOCOL, value: {{ $tracing.protocol | quote }} }
- { name: OTEL_TRACES_SAMPLER, value: {{ $tracing.sampler | quote }} }
- { name: OTEL_TRACES_SAMPLER_ARG, value: {{ $tracing.samplerArg | quote }} }
{{- with $tracing.resourceAttributes }}
{{- $pairs := list }}
{{- range $key, $value := . }}{{ $pairs = append $pairs (printf "%s=%s" $key $value) }}{{ end }}
- { name: OTEL_RESOURCE_ATTRIBUTES, value: {{ join "," $pairs | quote }} }
{{- end }}
{{- end }}
{{- end }}

{{/* The ServiceAccount name of a component: (dict "root" $ "component" "content"). */}}
{{- define "cms.serviceAccountName" -}}
{{- $sa := (index .root.Values .component).serviceAccount }}
{{- if $sa.create }}{{ default (printf "%s-%s" (include "cms.fullname" .root) .component) $sa.name }}
{{- else }}{{ default "default" $sa.name }}
{{- end }}
{{- end }}

{{/*
Fails the render, naming the values, when the required ones are missing or when they combine into a deployment that
would render but not work (each refusal is exercised by scripts/check-deploy.mjs).
*/}}
{{- define "cms.validate" -}}
{{- $v := .Values }}
{{- $missing := list }}
{{- if not $v.publicUrl }}{{ $missing = append $missing "publicUrl" }}{{ end }}
{{- if not $v.existingSecret }}
{{- if not (include "cms.storeUrl" .) }}{{ $missing = append $missing "store.url (or postgresql.inChart.enabled / mongodb.inChart.enabled)" }}{{ end }}
{{- if not (include "cms.amqpUrl" .) }}{{ $missing = append $missing "rabbitmq.url (or rabbitmq.inChart.enabled)" }}{{ end }}
{{- if not $v.auth.jwtSecret }}{{ $missing = append $missing "auth.jwtSecret" }}{{ end }}
{{- if not $v.auth.serviceAuthKey }}{{ $missing = append $missing "auth.serviceAuthKey" }}{{ end }}
{{- if not $v.auth.adminPassword }}{{ $missing = append $missing "auth.adminPassword" }}{{ end }}
{{- end }}
{{- if $missing }}
{{- fail (printf "missing required values: %s (or set existingSecret for the secret ones; see deploy/README.md)" (join ", " $missing)) }}
{{- end }}
{{- if and $v.store.url $v.mongodb.url (ne $v.store.url $v.mongodb.url) }}
{{- fail "store.url and its deprecated alias mongodb.url name different stores: keep store.url only" }}
{{- end }}
{{- if and $v.postgresql.inChart.enabled $v.mongodb.inChart.enabled }}
{{- fail "postgresql.inChart.enabled and mongodb.inChart.enabled: the services share one store, enable one of them" }}
{{- end }}
{{- if and (or $v.store.url $v.mongodb.url) (include "cms.inChartStore" .) }}
{{- fail "store.url (or mongodb.url) and an in-chart dev store are both set: the services would use the URL and the dev pod would sit unused; keep one" }}
{{- end }}
{{- if and $v.rabbitmq.url $v.rabbitmq.inChart.enabled }}
{{- fail "rabbitmq.url and rabbitmq.inChart.enabled are both set: keep one" }}
{{- end }}
{{- $np := $v.networkPolicy }}
{{- if $np.enabled }}
{{- if not (include "cms.inChartStore" .) }}
{{- $engine := include "cms.storeEngine" . }}
{{- if and (eq $engine "postgresql") (not $np.postgresql.to) }}
{{- fail "networkPolicy.enabled with an external PostgreSQL store: set networkPolicy.postgresql.to (where it is), or no service could reach it" }}
{{- else if and (eq $engine "mongodb") (not $np.mongodb.to) }}
{{- fail "networkPolicy.enabled with an external MongoDB store: set networkPolicy.mongodb.to (where it is), or no service could reach it" }}
{{- else if and (eq $engine "") (not $np.postgresql.to) (not $np.mongodb.to) }}
{{- fail "networkPolicy.enabled with the store URL in existingSecret: set networkPolicy.postgresql.to or networkPolicy.mongodb.to (where the store is), or no service could reach it" }}
{{- end }}
{{- end }}
{{- if and (not $v.rabbitmq.inChart.enabled) (not $np.rabbitmq.to) }}
{{- fail "networkPolicy.enabled with an external RabbitMQ: set networkPolicy.rabbitmq.to (where it is), or no service could reach it" }}
{{- end }}
{{- if and $v.metrics.enabled (not $np.metricsFrom) }}
{{- fail "networkPolicy.enabled with metrics.enabled: set networkPolicy.metricsFrom (who scrapes, e.g. Prometheus' namespace), or every scrape is blocked" }}
{{- end }}
{{- if and $v.tracing.enabled (not $np.otlp.to) }}
{{- fail "networkPolicy.enabled with tracing.enabled: set networkPolicy.otlp.to (where the collector is), or no span leaves the pods" }}
{{- end }}
{{- end }}
{{- if and $v.tracing.enabled (not $v.tracing.endpoint) }}
{{- fail "tracing.enabled needs tracing.endpoint (the OTLP collector's URL)" }}
{{- end }}
{{- if hasKey $v.ingress.annotations "nginx.ingress.kubernetes.io/proxy-body-size" }}
{{- fail "ingress.annotations sets nginx.ingress.kubernetes.io/proxy-body-size: set gateway.maxBodyBytes instead (it is the gateway's MAX_BODY_BYTES and the Ingress's limit at once)" }}
{{- end }}
{{- range $name := list "gateway" "content" "identity" "search" "discussion" "config" }}
{{- $c := index $v $name }}
{{- if $c.create }}
{{- if and $c.autoscaling.enabled (gt (int $c.autoscaling.minReplicas) (int $c.autoscaling.maxReplicas)) }}
{{- fail (printf "%s.autoscaling.minReplicas is above %s.autoscaling.maxReplicas" $name $name) }}
{{- end }}
{{- $pods := ternary $c.autoscaling.minReplicas $c.replicas $c.autoscaling.enabled | int }}
{{- if and $c.pdb.enabled (gt $pods 1) (not (kindIs "string" $c.pdb.minAvailable)) (ge (int $c.pdb.minAvailable) $pods) }}
{{- fail (printf "%s.pdb.minAvailable (%v) leaves none of its %d pods to evict: a node drain would never end; lower it or add replicas" $name $c.pdb.minAvailable $pods) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
