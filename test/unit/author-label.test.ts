import { describe, expect, it } from 'vitest';
import { authorLabel, isUnknownAuthor, isUnknownTime } from '../../src/renderer/src/components/author-label';

// The app names an author known by id only (a withheld or suspended account missing from a twarc2
// page) instead of showing a bare "@" and "joined 1970".
describe('author labels', () => {
  it('says "unknown author (id …)" when the screen name is empty', () => {
    expect(authorLabel({ screen_name: '', id_str: '1358082450635829249' })).toBe('unknown author (id 1358082450635829249)');
    expect(authorLabel({ screen_name: 'vesna_v', id_str: '1' })).toBe('@vesna_v');
    expect(isUnknownAuthor({ screen_name: '' })).toBe(true);
  });

  it('treats the epoch as an unknown creation time in every form the API writes', () => {
    for (const t of ['1970-01-01T00:00:00.000000Z', '1970-01-01T00:00:00+00:00', '1970-01-01T00:00:00Z']) expect(isUnknownTime(t), t).toBe(true);
    expect(isUnknownTime('1970-01-01T00:00:00.000001Z')).toBe(false);
    expect(isUnknownTime('2013-03-16T18:01:48.000000Z')).toBe(false);
  });
});
