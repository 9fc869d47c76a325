/** The Alibaba GPU pod list under the team's reference data (shared/adapters/reference-data.ts). */
export const ALIBABA_TRACE = 'alibaba-gpu-2023/openb_pod_list_default.csv';
