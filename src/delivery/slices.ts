/**
 * Work over many notifications done in slices that give the event loop back (decisions 0200, 0209:
 * never held more than ~50 ms): before each piece, `if (slices.over()) await slices.turn()`, so
 * health, deliveries and events are served between slices (and a piece within the slice costs no
 * await).
 */
export class Slices {
  #start = performance.now();

  constructor(readonly ms: number) {}

  /** Whether this slice has run its `ms`. */
  over(): boolean {
    return performance.now() - this.#start >= this.ms;
  }

  /** Gives the event loop a turn, then starts the next slice. */
  async turn(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.#start = performance.now();
  }
}
