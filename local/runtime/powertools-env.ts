/**
 * Powertools' settings for functions run locally: logs from WARN up (unless
 * the user set POWERTOOLS_LOG_LEVEL, e.g. INFO), no metrics blobs, no tracing.
 * Powertools reads them when the shared logger and metrics are built, at the
 * first import of shared/lambda/observability, which `local/stack.ts` reaches
 * through its static imports before it sets the functions' environment; so the
 * entry imports this module first, and the functions' environment repeats them.
 */
export function localPowertoolsEnv(): Record<string, string> {
  return {
    POWERTOOLS_SERVICE_NAME: 'gpurent',
    POWERTOOLS_METRICS_NAMESPACE: 'gpurent',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  };
}

Object.assign(process.env, localPowertoolsEnv());
