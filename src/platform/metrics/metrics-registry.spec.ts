import { MetricsRegistry, renderLabels } from './metrics-registry';

describe('renderLabels', () => {
  it('renders plain values as they are, in the order given', () => {
    expect(renderLabels({ method: 'POST', route: '/api/commerce/integration/checkout', status: '201' })).toBe(
      '{method="POST",route="/api/commerce/integration/checkout",status="201"}',
    );
  });

  it('escapes backslashes, quotes and newlines as the Prometheus text format asks', () => {
    expect(renderLabels({ route: 'a\\b"c\nd' })).toBe('{route="a\\\\b\\"c\\nd"}');
  });

  it('renders no braces without labels', () => {
    expect(renderLabels({})).toBe('');
  });
});

describe('MetricsRegistry', () => {
  it('counts increments per label set', async () => {
    const metrics = new MetricsRegistry();
    metrics.describe('requests_total', 'Requests');
    metrics.increment('requests_total', { status: '200' });
    metrics.increment('requests_total', { status: '200' });
    metrics.increment('requests_total', { status: '500' }, 3);
    expect(await metrics.render()).toBe('# HELP requests_total Requests\n# TYPE requests_total counter\nrequests_total{status="200"} 2\nrequests_total{status="500"} 3\n');
  });
});
