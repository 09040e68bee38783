import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { setTracingEnabled } from './tracing';

export interface TracingSettings {
  /** OTLP/HTTP traces endpoint (…/v1/traces); none: nothing is traced. */
  endpoint?: string;
  serviceName: string;
  /** This replica's name, so two replicas' spans can be told apart. */
  instance: string;
}

export interface Tracing {
  /** Sends what is buffered (a test, or before the process ends). */
  flush(): Promise<void>;
  /** Flushes and turns tracing off. */
  shutdown(): Promise<void>;
}

const off: Tracing = { flush: async () => {}, shutdown: async () => {} };

/**
 * Turns tracing on for this process when an OTLP endpoint is set: spans are batched and sent
 * over OTLP/HTTP, the caller's W3C traceparent is continued, and the context follows each
 * request and job across awaits. One per process (the tracer provider is global).
 */
export function startTracing(settings: TracingSettings): Tracing {
  if (!settings.endpoint) return off;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.instance.id': settings.instance }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.endpoint }), scheduledDelayMillis: 1000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  setTracingEnabled(true);
  return {
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      setTracingEnabled(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
