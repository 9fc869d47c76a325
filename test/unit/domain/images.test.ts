import { describe, expect, it } from 'vitest';
import { type ImageVersion, summarizeImages } from '../../../shared/domain/images';

const version = (name: string, v: string, createdAtMs: number): ImageVersion => ({
  name,
  version: v,
  amiByRegion: { 'us-east-1': 'ami-0123456789abcdef0' },
  launchTemplateVersionByRegion: { 'us-east-1': '2' },
  createdAtMs,
});

describe('summarizeImages', () => {
  it('groups versions under their image by name, oldest first, with the current and previous version', () => {
    const summaries = summarizeImages(
      [{ name: 'gpu', current: 'v3', history: ['v1', 'v2'] }],
      [version('gpu', 'v3', 30), version('cuda', 'a', 5), version('gpu', 'v1', 10), version('gpu', 'v2', 20)],
    );
    expect(summaries.map((s) => [s.name, s.current, s.previous, s.versions.map((v) => v.version)])).toEqual([
      ['cuda', undefined, undefined, ['a']],
      ['gpu', 'v3', 'v2', ['v1', 'v2', 'v3']],
    ]);
  });

  it('orders versions registered in the same millisecond by name, and keeps an image with no version left', () => {
    const [gpu, old] = summarizeImages(
      [
        { name: 'gpu', current: 'b', history: [] },
        { name: 'old', current: undefined, history: [] },
      ],
      [version('gpu', 'b', 7), version('gpu', 'a', 7)],
    );
    expect(gpu?.versions.map((v) => v.version)).toEqual(['a', 'b']);
    expect(gpu?.previous).toBeUndefined();
    expect(old).toEqual({ name: 'old', current: undefined, previous: undefined, versions: [] });
  });

  it('is empty without images or versions', () => {
    expect(summarizeImages([], [])).toEqual([]);
  });
});
