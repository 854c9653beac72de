import {
  daysBetween, END_OF_LIFE_WARNING_DAYS, endOfLifeWarning, endOfLifeWords, isCalendarDay, Lifecycle, lifecycleStatus, utcDay,
} from '../../../lib/triton/releases/lifecycle';

const DATED: Lifecycle = { cycle: '1.30', released: '2026-05-18', endOfLife: '2026-11-30', basis: 'published', moveTo: '1.31', source: 's' };
const UNDATED: Lifecycle = { cycle: 'v0.10', released: '2026-08-11', basis: 'not-stated', source: 's' };

describe('the end-of-life calendar', () => {
  test('warns 60 days ahead', () => {
    expect(END_OF_LIFE_WARNING_DAYS).toBe(60);
  });

  test.each([
    ['2026-09-30', 'ok'], // 61 days before
    ['2026-10-01', 'near-end-of-life'], // 60 days before
    ['2026-11-29', 'near-end-of-life'],
    ['2026-11-30', 'past-end-of-life'], // the end-of-life day itself
    ['2027-01-01', 'past-end-of-life'],
  ])('a release whose end of life is 2026-11-30, on %s: %s', (day, status) => {
    expect(lifecycleStatus(DATED, day)).toBe(status);
  });

  test('a release without a stated end of life is undated on any day, and never warned about', () => {
    expect(lifecycleStatus(UNDATED, '2030-01-01')).toBe('undated');
    expect(endOfLifeWarning('lws 0.10.0', UNDATED, '2030-01-01')).toBeUndefined();
    expect(endOfLifeWords(UNDATED)).toBe('not stated by the project');
    expect(endOfLifeWords({ ...UNDATED, basis: 'policy' })).toBe('not dated yet by its policy');
    expect(endOfLifeWords(DATED)).toBe('2026-11-30 (published)');
  });

  test('the warning names the part, the date and the release to move to', () => {
    expect(endOfLifeWarning('istiod 1.30.3', DATED, '2026-12-05')).toBe('istiod 1.30.3 reached its end of life on 2026-11-30; move to 1.31');
    expect(endOfLifeWarning('istiod 1.30.3', DATED, '2026-11-01')).toBe('istiod 1.30.3 reaches its end of life on 2026-11-30, in 29 days; move to 1.31');
    expect(endOfLifeWarning('istiod 1.30.3', { ...DATED, moveTo: undefined }, '2026-12-05'))
      .toBe('istiod 1.30.3 reached its end of life on 2026-11-30; no newer release was read when it was pinned');
    expect(endOfLifeWarning('istiod 1.30.3', DATED, '2026-09-01')).toBeUndefined();
  });

  test('days are UTC calendar days written YYYY-MM-DD', () => {
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2027-03-01', '2027-02-28')).toBe(-1);
    expect(['2026-12-05', '2028-02-29'].map(isCalendarDay)).toEqual([true, true]);
    expect(['2026-02-30', '2026-12-5', '05.12.2026', ''].map(isCalendarDay)).toEqual([false, false, false, false]);
    expect(utcDay(new Date(Date.UTC(2026, 11, 5, 23, 59)))).toBe('2026-12-05');
    expect(() => daysBetween('2026-13-01', '2026-12-01')).toThrow("daysBetween: '2026-13-01' is not a YYYY-MM-DD day");
  });
});
