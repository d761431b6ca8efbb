import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { useLocation } from '../lib/router';

/** "1 day 2 h 5 min" from whole seconds; "" under a minute. */
export function offsetWords(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days ? `${days} day${days === 1 ? '' : 's'}` : '', hours ? `${hours} h` : '', minutes ? `${minutes} min` : ''].filter(Boolean).join(' ');
}

/**
 * Issue 29 item 10: with SANDBOX=true every page says so, and how far the sandbox clock runs ahead of real time
 * (POST /api/sandbox/clock/advance moves it). Outside the sandbox GET /api/sandbox/clock is not mounted (404) and
 * nothing is shown. Read again on every page change, so an advance made meanwhile shows.
 */
export function SandboxBanner() {
  const { path } = useLocation();
  const [offset, setOffset] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    api
      .GET('/api/sandbox/clock')
      .then(({ data, response }) => {
        if (live) setOffset(response.ok && data ? data.data.offsetSeconds : null);
      })
      .catch(() => live && setOffset(null));
    return () => {
      live = false;
    };
  }, [path]);
  if (offset === null) return null;
  const ahead = offsetWords(offset);
  return (
    <div className="sandbox-banner" role="note" aria-label="Sandbox" data-testid="sandbox-banner">
      <strong>Sandbox</strong> · test money only ·{' '}
      {ahead ? (
        <>
          clock <strong>{ahead} ahead</strong> of real time
        </>
      ) : (
        'clock on real time'
      )}
    </div>
  );
}
