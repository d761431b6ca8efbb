import type { PaymentLink } from '../../api/types';
import { CopyButton } from '../../components/ui';

export const iframeSnippet = (url: string, title: string) =>
  `<iframe src="${url}${url.includes('?') ? '&' : '?'}embed=true" title="${title.replace(/"/g, '&quot;')}" style="width:100%;max-width:480px;height:640px;border:0"></iframe>`;

export function LinkShare({ link, highlight = false }: { link: PaymentLink; highlight?: boolean }) {
  const snippet = iframeSnippet(link.url, link.title);
  return (
    <section className="panel" aria-labelledby="share-title" style={highlight ? { borderColor: '#a9dcbc' } : undefined}>
      <h2 id="share-title">“{link.title}” is ready to share</h2>
      <div className="stack">
        <div>
          <div className="small muted">Link</div>
          <div className="secret-box">
            <code data-testid="payment-link-url">{link.url}</code>
            <CopyButton text={link.url} label="Copy URL" />
          </div>
        </div>
        <div>
          <div className="small muted">Embed on your site</div>
          <div className="secret-box">
            <code data-testid="payment-link-snippet">{snippet}</code>
            <CopyButton text={snippet} label="Copy snippet" />
          </div>
        </div>
      </div>
    </section>
  );
}
