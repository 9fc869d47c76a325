/**
 * Powertools' settings for functions run locally: logs from WARN up, no
 * metrics blobs, no tracing. Powertools reads them when the shared logger and
 * metrics are built, at the first import of shared/lambda/observability, which
 * `local/stack.ts` reaches through its static imports before it sets the
 * functions' environment; so the entry imports this module first, and a user's
 * own setting (e.g. POWERTOOLS_LOG_LEVEL=INFO) wins.
 */
export const LOCAL_POWERTOOLS_ENV = {
  POWERTOOLS_SERVICE_NAME: 'gpurent',
  POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
  POWERTOOLS_TRACE_ENABLED: 'false',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'WARN',
} as const;

for (const [name, value] of Object.entries(LOCAL_POWERTOOLS_ENV)) process.env[name] ??= value;
