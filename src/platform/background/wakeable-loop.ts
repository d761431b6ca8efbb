/**
 * A background loop that runs a pass, then sleeps until its poll interval ends or someone pokes it
 * (work became due now). The timer worker and the webhook delivery worker each run one; what a pass
 * does is theirs.
 */
export class WakeableLoop {
  private stopRequested = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** A poke that came while a pass ran: the next sleep returns at once. */
  private poked = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly options: {
      pollIntervalMs: number;
      /** A pass that throws is reported here and the loop goes on after its sleep. */
      onPassFailed: (error: unknown) => void;
    },
  ) {}

  /** True from start() until stop() is called. */
  get running(): boolean {
    return !this.stopRequested;
  }

  /** True while stop() waits for the current pass: long passes should end early. */
  get stopping(): boolean {
    return this.stopRequested && this.loop !== null;
  }

  start(): void {
    if (this.loop) return;
    this.stopRequested = false;
    this.loop = this.run();
  }

  /** Asks the loop to stop and waits for the pass under way to end. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    this.poke();
    await this.loop;
    this.loop = null;
  }

  /** Wakes the loop now, or makes its next sleep return at once if a pass is under way. */
  poke(): void {
    if (this.wake) this.wake();
    else this.poked = true;
  }

  private async run(): Promise<void> {
    while (!this.stopRequested) {
      try {
        await this.pass();
      } catch (error) {
        this.options.onPassFailed(error);
      }
      // A stop() during the pass found nothing to wake: without this check it would wait a poll interval.
      if (!this.stopRequested) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollIntervalMs);
      this.wake = done;
    });
  }
}
