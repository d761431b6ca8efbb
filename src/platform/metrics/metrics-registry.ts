type Labels = Record<string, string>;

/**
 * A small Prometheus text-format registry: counters incremented in process, gauges sampled at scrape
 * time by collectors (projection lag, queue depth) so they always show the stores' truth.
 */
export class MetricsRegistry {
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();
  private readonly collectors: (() => Promise<string[]>)[] = [];

  describe(name: string, help: string): void {
    if (!this.counters.has(name)) this.counters.set(name, { help, values: new Map() });
  }

  increment(name: string, labels: Labels = {}, by = 1): void {
    this.describe(name, name);
    const values = this.counters.get(name)!.values;
    const key = renderLabels(labels);
    values.set(key, (values.get(key) ?? 0) + by);
  }

  /** A collector returns complete exposition lines (with HELP/TYPE) for gauges read at scrape time. */
  addCollector(collect: () => Promise<string[]>): void {
    this.collectors.push(collect);
  }

  async render(): Promise<string> {
    const lines: string[] = [];
    for (const [name, counter] of this.counters) {
      lines.push(`# HELP ${name} ${counter.help}`, `# TYPE ${name} counter`);
      for (const [labels, value] of counter.values) lines.push(`${name}${labels} ${value}`);
    }
    for (const collect of this.collectors) lines.push(...(await collect()));
    return lines.join('\n') + '\n';
  }
}

export function renderLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

/** Label values rarely hold a character to escape (they are methods, routes, statuses): most skip the three replaces. */
const escapeLabelValue = (value: string): string => (/[\\"\n]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : value);
