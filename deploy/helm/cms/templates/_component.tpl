{{/*
One component of the suite: ServiceAccount, Deployment, Service (and for a gRPC service a headless one, its gRPC
target), HorizontalPodAutoscaler, PodDisruptionBudget.
(dict "root" $ "component" "content" "env" (list of extra env entries as YAML)).
The gateway is probed over HTTP (/healthz, /readyz), the services with Kubernetes' native gRPC probes: liveness asks
the health service `liveness` (the process answers; never the store or broker, so an outage of either does not
restart pods), readiness the overall one `""` (store and broker too: an outage takes pods out of rotation).
*/}}
{{- define "cms.component" -}}
{{- $root := .root -}}
{{- $name := .component -}}
{{- $values := index $root.Values $name -}}
{{- $fullname := printf "%s-%s" (include "cms.fullname" $root) $name -}}
{{- $isGateway := eq $name "gateway" -}}
{{- $selector := include "cms.selectorLabels" (dict "root" $root "component" $name) -}}
{{- $pods := ternary $values.autoscaling.minReplicas $values.replicas $values.autoscaling.enabled | int -}}
{{- if $values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "cms.serviceAccountName" (dict "root" $root "component" $name) }}
  labels:
    {{- include "cms.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $name }}
  {{- with $values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
---
{{- end }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "cms.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $name }}
spec:
  {{- if not $values.autoscaling.enabled }}
  replicas: {{ $values.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate: { maxUnavailable: 0, maxSurge: 1 }
  template:
    metadata:
      labels:
        {{- with merge (dict) $values.podLabels $root.Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- include "cms.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ $name }}
      annotations:
        {{- with merge (dict) $values.podAnnotations $root.Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
    spec:
      {{- include "cms.podSecurity" $root | nindent 6 }}
      serviceAccountName: {{ include "cms.serviceAccountName" (dict "root" $root "component" $name) }}
      automountServiceAccountToken: false
      {{- with default $root.Values.priorityClassName $values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      # Longer than SHUTDOWN_TIMEOUT_MS: SIGTERM drains in-flight work before the store closes.
      terminationGracePeriodSeconds: {{ add (div $root.Values.settings.shutdownTimeoutMs 1000) 10 }}
      containers:
        - name: {{ $name }}
          image: {{ include "cms.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args: [{{ $name | quote }}]
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          ports:
            - name: {{ ternary "http" "grpc" $isGateway }}
              containerPort: {{ $values.port }}
              protocol: TCP
            {{- with $values.filesPort }}
            - name: files
              containerPort: {{ . }}
              protocol: TCP
            {{- end }}
            {{- if and $root.Values.metrics.enabled (not $isGateway) }}
            - name: metrics
              containerPort: {{ $root.Values.metrics.port }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ include "cms.fullname" $root }}-settings
          env:
            # Every gRPC call between the suite's pods is signed and verified with it.
            - name: SERVICE_AUTH_KEY
              valueFrom:
                secretKeyRef: { name: {{ include "cms.secretName" $root }}, key: SERVICE_AUTH_KEY }
            {{- if not $isGateway }}
            {{- include "cms.commonEnv" $root | nindent 12 }}
            {{- end }}
            {{- with .env }}
            {{- . | nindent 12 }}
            {{- end }}
            {{- include "cms.tracingEnv" (dict "root" $root "component" $name) | nindent 12 }}
            {{- range $key, $value := $values.env }}
            - name: {{ $key }}
              value: {{ $value | quote }}
            {{- end }}
            {{- with $values.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          {{- if $isGateway }}
          startupProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 2
            failureThreshold: 30
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 10
            timeoutSeconds: 3
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            periodSeconds: 5
            timeoutSeconds: 3
          {{- else }}
          # Started and alive: the process answers (health service `liveness`), whether or not its store does.
          startupProbe:
            grpc: { port: {{ $values.port }}, service: liveness }
            periodSeconds: 2
            failureThreshold: 60
          livenessProbe:
            grpc: { port: {{ $values.port }}, service: liveness }
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 6
          # Ready: the store and the broker answer too (the overall health service).
          readinessProbe:
            grpc: { port: {{ $values.port }} }
            periodSeconds: 5
            timeoutSeconds: 3
          {{- end }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          volumeMounts:
            # DATA_DIR: unused with STORE_URL, but the only writable place if anything must be written.
            - { name: data, mountPath: /data }
            - { name: tmp, mountPath: /tmp }
            {{- with $values.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: data
          emptyDir: { sizeLimit: 64Mi }
        - name: tmp
          emptyDir: { sizeLimit: 64Mi }
        {{- with $values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- if $values.affinity }}
      affinity:
        {{- toYaml $values.affinity | nindent 8 }}
      {{- else }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- $selector | nindent 14 }}
      {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "cms.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $name }}
spec:
  type: ClusterIP
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: {{ ternary "http" "grpc" $isGateway }}
      port: {{ $values.port }}
      targetPort: {{ ternary "http" "grpc" $isGateway }}
      protocol: TCP
      {{- if not $isGateway }}
      appProtocol: grpc
      {{- end }}
    {{- with $values.filesPort }}
    # Plain HTTP (the file hop), balanced per connection by the ClusterIP.
    - name: files
      port: {{ . }}
      targetPort: files
      protocol: TCP
    {{- end }}
    {{- if and $root.Values.metrics.enabled (not $isGateway) }}
    - name: metrics
      port: {{ $root.Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
    {{- end }}
{{- if not $isGateway }}
---
# The gRPC target (*_ADDRESS): no cluster IP, so its name resolves to every ready pod and clients balance over them
# (round_robin) instead of holding one connection through one kube-proxy choice. The Service above stays for the
# file hop, metrics and port-forwards.
apiVersion: v1
kind: Service
metadata:
  name: {{ include "cms.headlessName" (dict "root" $root "component" $name) }}
  labels:
    {{- include "cms.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $name }}
spec:
  clusterIP: None
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: grpc
      port: {{ $values.port }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
{{- end }}
{{- if $values.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "cms.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $name }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $fullname }}
  minReplicas: {{ $values.autoscaling.minReplicas }}
  maxReplicas: {{ $values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $values.autoscaling.targetCPUUtilizationPercentage }}
    {{- with $values.autoscaling.queueDepth }}
    {{- if .enabled }}
    # Messages waiting in the consumer group's queue, per replica (an external metrics adapter must serve it).
    - type: External
      external:
        metric:
          name: {{ .metricName }}
          selector:
            matchLabels:
              queue: {{ .queue }}
        target:
          type: AverageValue
          averageValue: {{ .targetAverageValue | quote }}
    {{- end }}
    {{- end }}
{{- end }}
{{- /* One pod: minAvailable 1 would block every node drain, so no budget. */}}
{{- if and $values.pdb.enabled (gt $pods 1) }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "cms.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $name }}
spec:
  minAvailable: {{ $values.pdb.minAvailable }}
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
{{- end }}
{{- end }}
