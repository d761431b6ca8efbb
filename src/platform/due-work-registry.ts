import { Injectable } from '@nestjs/common';
import { DueWork } from './background.decorators';

/** Every `@DueWorkers()` provider of the module graph (PlatformRuntime fills it in at init). */
@Injectable()
export class DueWorkRegistry {
  private readonly registered: DueWork[] = [];

  add(work: DueWork): void {
    this.registered.push(work);
  }

  get all(): readonly DueWork[] {
    return this.registered;
  }

  /** Runs what each queue has due now; returns how many items ran in all. */
  async runDue(): Promise<number> {
    let ran = 0;
    for (const work of this.registered) ran += await work.runDue();
    return ran;
  }

  /** The earliest due time over every queue, or null. */
  async nextDueAt(): Promise<string | null> {
    const dues = (await Promise.all(this.registered.map((work) => work.nextDueAt()))).filter((due): due is string => due !== null);
    return dues.length === 0 ? null : dues.reduce((a, b) => (a < b ? a : b));
  }
}
