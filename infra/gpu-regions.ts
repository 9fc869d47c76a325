import { priceCatalog } from '../shared/catalog';

const REGION_NAME = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/**
 * The GPU regions of a deployment from the `gpuRegions` context value
 * (comma-separated), validated at synth: AWS region names that the price
 * catalog sells GPU instances in, no repeats. The home region always comes
 * first, listed or not.
 */
export function parseGpuRegions(value: string | undefined, homeRegion: string): string[] {
  const listed = (value ?? '')
    .split(',')
    .map((region) => region.trim())
    .filter(Boolean);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const region of listed) {
    if (seen.has(region)) problems.push(`${region} is listed twice`);
    seen.add(region);
    if (!REGION_NAME.test(region)) problems.push(`${region} is not an AWS region name`);
    else if (priceCatalog.typesFor({}, [region]).length === 0) {
      problems.push(`${region} has no GPU instance prices in the catalog`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`Context gpuRegions: ${problems.join('; ')} (e.g. -c gpuRegions=us-east-1,us-west-2).`);
  }
  return [homeRegion, ...listed.filter((region) => region !== homeRegion)];
}
