import type { EventType } from '../../api/types';
import { Badge, CopyButton, LoadError, Loading } from '../../components/ui';

export function Catalogue({ catalogue, error, retry }: { catalogue: EventType[] | undefined; error: Error | undefined; retry: () => void }) {
  if (error && !catalogue) return <LoadError error={error} retry={retry} />;
  if (!catalogue) return <Loading />;
  return (
    <section className="panel" aria-labelledby="catalogue-title">
      <h2 id="catalogue-title">Event catalogue</h2>
      <p className="muted">Every event type Paysplit sends, with a whole example delivery body.</p>
      {catalogue.map((type) => (
        <details key={type.type} style={{ borderTop: '1px solid var(--line)', padding: '0.65rem 0' }}>
          <summary>
            <code>{type.type}</code> <span className="muted">· {type.description}</span>
            {type.subscribable ? null : (
              <>
                {' '}
                <Badge>test only</Badge>
              </>
            )}
          </summary>
          <div className="spread" style={{ marginTop: '0.5rem' }}>
            <span className="small muted">Example payload</span>
            <CopyButton text={JSON.stringify(type.example, null, 2)} label="Copy example" />
          </div>
          <pre>{JSON.stringify(type.example, null, 2)}</pre>
        </details>
      ))}
    </section>
  );
}
