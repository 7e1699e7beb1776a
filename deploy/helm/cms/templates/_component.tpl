{{/*
One component of the suite: Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget.
(dict "root" $ "component" "content" "env" (list of extra env entries as YAML)).
The gateway is probed over HTTP (/healthz, /readyz), the services with Kubernetes' native gRPC probes.
*/}}
{{- define "cms.component" -}}
{{- $root := .root -}}
{{- $name := .component -}}
{{- $values := index $root.Values $name -}}
{{- $fullname := printf "%s-%s" (include "cms.fullname" $root) $name -}}
{{- $isGateway := eq $name "gateway" -}}
{{- $selector := include "cms.selectorLabels" (dict "root" $root "component" $name) -}}
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
        {{- include "cms.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ $name }}
      annotations:
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
    spec:
      {{- include "cms.podSecurity" $root | nindent 6 }}
      automountServiceAccountToken: false
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
            {{- range $key, $value := $values.env }}
            - name: {{ $key }}
              value: {{ $value | quote }}
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
          startupProbe:
            grpc: { port: {{ $values.port }} }
            periodSeconds: 2
            failureThreshold: 60
          # Liveness asks the same health service: a process whose store never answers is restarted.
          livenessProbe:
            grpc: { port: {{ $values.port }} }
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 6
          readinessProbe:
            grpc: { port: {{ $values.port }} }
            periodSeconds: 5
            timeoutSeconds: 3
          {{- end }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          volumeMounts:
            # DATA_DIR: unused with MONGO_URL, but the only writable place if anything must be written.
            - { name: data, mountPath: /data }
            - { name: tmp, mountPath: /tmp }
      volumes:
        - name: data
          emptyDir: { sizeLimit: 64Mi }
        - name: tmp
          emptyDir: { sizeLimit: 64Mi }
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
    {{- with $values.filesPort }}
    - name: files
      port: {{ . }}
      targetPort: files
      protocol: TCP
    {{- end }}
      {{- if not $isGateway }}
      appProtocol: grpc
      {{- end }}
    {{- if and $root.Values.metrics.enabled (not $isGateway) }}
    - name: metrics
      port: {{ $root.Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
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
{{- if $values.pdb.enabled }}
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
