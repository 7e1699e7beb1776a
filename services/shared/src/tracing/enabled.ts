/**
 * Traces are off unless the standard OpenTelemetry variables say where they go: OTEL_TRACES_EXPORTER naming an
 * exporter other than `none`, or an OTLP endpoint. OTEL_SDK_DISABLED=true turns them off whatever else is set.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',').map((e) => e.trim().toLowerCase());
  if (exporters && exporters.some(Boolean)) return exporters.some((e) => e && e !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
