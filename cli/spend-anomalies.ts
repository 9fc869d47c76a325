import type { AnomalySensitivity, SpendAnomalySettings } from '../shared/domain/waste/spend-anomaly';
import { type CliIo, callApi, type OutputOptions, print } from './common';
import { table } from './table';

type SettingsView = { tenant: SpendAnomalySettings; projects: Record<string, SpendAnomalySettings> };

const row = (scope: string, settings: SpendAnomalySettings) => [
  scope,
  settings.enabled ? 'on' : 'off',
  settings.sensitivity,
];

/** The tenant's row, then each project with settings of its own. */
export const settingsTable = (body: SettingsView) =>
  table(
    ['SCOPE', 'ALERTS', 'SENSITIVITY'],
    [
      row('(tenant)', body.tenant),
      ...Object.entries(body.projects).map(([project, s]) => row(`project ${project}`, s)),
    ],
  );

const show = (io: CliIo, options: OutputOptions, body: SettingsView) =>
  print(io, options, body, () => settingsTable(body));

export interface AnomaliesSetOptions extends OutputOptions {
  readonly project?: string;
  readonly sensitivity?: AnomalySensitivity;
  readonly off?: boolean;
}

/** `gpurent anomalies`: the spend-anomaly settings of the tenant and its projects. */
export async function anomaliesShow(options: OutputOptions, io: CliIo) {
  show(io, options, await callApi<SettingsView>('GET', 'v1/spend-anomaly-settings'));
}

/** The PUT body: the sensitivity left out stays the API's default (medium). */
export const anomaliesSetBody = (options: AnomaliesSetOptions) => ({
  project: options.project,
  sensitivity: options.sensitivity,
  enabled: !options.off,
});

/** `gpurent anomalies set`: one scope's sensitivity, or `--off` to stop its alerts. */
export async function anomaliesSet(options: AnomaliesSetOptions, io: CliIo) {
  const body = anomaliesSetBody(options);
  show(io, options, await callApi<SettingsView>('PUT', 'v1/spend-anomaly-settings', { body }));
}
