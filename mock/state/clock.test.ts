import { describe, expect, it } from 'vitest';
import { ManualClock, MockClock } from './clock.ts';

describe('MockClock', () => {
  const setup = () => {
    const base = new ManualClock(1_000_000);
    return { base, clock: new MockClock(base) };
  };

  it('follows its base clock until moved', () => {
    const { base, clock } = setup();
    base.advance(500);
    expect(clock.now()).toBe(1_000_500);
  });

  it('moves forward by whole seconds and keeps running', () => {
    const { base, clock } = setup();
    clock.advance(90);
    base.advance(1000);
    expect(clock.now()).toBe(1_000_000 + 90_000 + 1000);
    expect(clock.state()).toMatchObject({ frozen: false, offsetSeconds: 90 });
  });

  it('stops when frozen, can still be advanced, and runs on from there when thawed', () => {
    const { base, clock } = setup();
    clock.freeze(true);
    base.advance(5000);
    expect(clock.now()).toBe(1_000_000);
    clock.advance(60);
    expect(clock.now()).toBe(1_060_000);
    clock.freeze(false);
    base.advance(1000);
    expect(clock.now()).toBe(1_061_000);
  });

  it('goes back to the base time on reset', () => {
    const { clock } = setup();
    clock.advance(3600);
    clock.freeze(true);
    clock.reset();
    expect(clock.state()).toMatchObject({ nowMs: 1_000_000, frozen: false, offsetSeconds: 0 });
  });
});
