/** The one clock every fake and the use cases under test read: time moves only when a test moves it. */
export class FakeClock {
  constructor(private nowMs: number) {}

  now = (): number => this.nowMs;

  advance(ms: number): number {
    this.nowMs += ms;
    return this.nowMs;
  }

  set(ms: number): void {
    this.nowMs = ms;
  }
}
