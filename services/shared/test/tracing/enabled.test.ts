import { tracingEnabled } from '../../src/tracing/enabled';

/** Tracing is off by default and turned on only by the standard OTEL_* variables (issue 17, item 7). */
describe('tracingEnabled', () => {
  it('is off without OTEL variables', () => {
    expect(tracingEnabled({})).toBe(false);
  });

  it('is on when an exporter other than none is named, or an OTLP endpoint is set', () => {
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none,console' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('is off when OTEL_SDK_DISABLED is true, whatever else is set', () => {
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(false);
  });
});
