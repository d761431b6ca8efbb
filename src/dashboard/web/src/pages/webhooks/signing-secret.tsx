import { useState } from 'react';
import { api, data } from '../../api/client';
import { Button, Confirm, CopyButton, ErrorAlert, useAction } from '../../components/ui';

export function SigningSecret() {
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState(false);
  const reveal = useAction(async () => setSecret((await data<{ secret: string }>(api.GET('/api/commerce/webhooks/secret'))).secret));
  const rotate = useAction(async () => {
    const answer = await data<{ secret?: string }>(api.POST('/api/commerce/webhooks/secret/rotate'));
    setSecret(answer.secret ?? (await data<{ secret: string }>(api.GET('/api/commerce/webhooks/secret'))).secret);
    setConfirming(false);
    setRotated(true);
  });
  return (
    <section className="panel" aria-labelledby="secret-title">
      <div className="panel-head">
        <div>
          <h2 id="secret-title">Signing secret</h2>
          <p>Verify the X-Paysplit-Signature header of every delivery with it.</p>
        </div>
        <Button variant="danger-ghost" icon="refresh" onClick={() => (rotate.setError(null), setConfirming(true))}>
          Rotate secret
        </Button>
      </div>
      {rotated ? (
        <div className="alert success" role="status">
          The secret was rotated. Deliveries are signed with the new secret from now on: update your server.
        </div>
      ) : null}
      <ErrorAlert error={reveal.error} />
      <div className="secret-box">
        <code data-testid="signing-secret">{secret ?? 'whsec_••••••••••••••••••••••••••••••••'}</code>
        {secret ? (
          <>
            <CopyButton text={secret} label="Copy secret" />
            <Button small onClick={() => setSecret(null)}>
              Hide
            </Button>
          </>
        ) : (
          <Button small icon="eye" busy={reveal.busy} onClick={() => void reveal.run()}>
            Reveal
          </Button>
        )}
      </div>
      <Confirm
        open={confirming}
        title="Rotate the signing secret?"
        body="Deliveries are signed with a new secret from now on; signatures made with the old one stop verifying once your server uses the new one."
        confirmLabel="Rotate secret"
        busy={rotate.busy}
        error={rotate.error}
        onConfirm={() => void rotate.run()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
