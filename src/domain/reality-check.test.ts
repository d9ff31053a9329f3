import { describe, expect, it } from 'vitest';
import { checksDue, formatClock, formatNet, formatPlayingTime, playedMs } from './reality-check.ts';

const MINUTE = 60_000;
const session = { started_at: '2026-11-25T10:00:00Z', now: '2026-11-25T10:20:00Z' };

describe('reality-check timing', () => {
  it("counts the time played from the server's start and time, plus the time since the answer", () => {
    expect(playedMs(session, 1_000_000, 1_000_000)).toBe(20 * MINUTE);
    expect(playedMs(session, 1_000_000, 1_000_000 + 5 * MINUTE)).toBe(25 * MINUTE);
  });

  it("ignores what the device's clock says the time is (only how much passed since the answer)", () => {
    const wrongDeviceClock = Date.parse('2031-01-01T00:00:00Z');
    expect(playedMs(session, wrongDeviceClock, wrongDeviceClock + MINUTE)).toBe(21 * MINUTE);
  });

  it('is due at each full interval, not a moment before', () => {
    expect(checksDue(60 * MINUTE - 1, 60)).toBe(0);
    expect(checksDue(60 * MINUTE, 60)).toBe(1);
    expect(checksDue(119 * MINUTE, 60)).toBe(1);
    expect(checksDue(120 * MINUTE, 60)).toBe(2);
    expect(checksDue(45 * MINUTE, 15)).toBe(3);
  });

  it('never comes when the player turned reality checks off', () => {
    expect(checksDue(10 * 60 * MINUTE, null)).toBe(0);
  });

  it('says the time played in words and on the clock', () => {
    expect(formatPlayingTime(60 * MINUTE)).toBe('1 hour');
    expect(formatPlayingTime(65 * MINUTE + 59_000)).toBe('1 hour 5 minutes');
    expect(formatPlayingTime(121 * MINUTE)).toBe('2 hours 1 minute');
    expect(formatPlayingTime(15 * MINUTE)).toBe('15 minutes');
    expect(formatClock(65 * MINUTE)).toBe('1:05');
    expect(formatClock(0)).toBe('0:00');
  });

  it('shows the net result with its sign', () => {
    expect(formatNet(4000)).toBe('+₹4,000');
    expect(formatNet(-1500)).toBe('−₹1,500');
    expect(formatNet(0)).toBe('₹0');
  });
});
