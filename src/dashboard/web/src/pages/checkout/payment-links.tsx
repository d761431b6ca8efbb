import { useState } from 'react';
import { api, page } from '../../api/client';
import type { PaymentLink } from '../../api/types';
import { DataList, ItemList } from '../../components/data-list';
import { CopyButton, EmptyState } from '../../components/ui';
import { money, Time } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { CreateLink } from './create-link';
import { iframeSnippet, LinkShare } from './link-share';

/** `mayCreate` (issue 30): creating a link is an owner's or admin's. */
export function PaymentLinks({ mayCreate = true }: { mayCreate?: boolean }) {
  const [pageNumber, setPageNumber] = useState(1);
  const links = useResource(() => page<PaymentLink[]>(api.GET('/api/commerce/payment-links', { params: { query: { page: pageNumber, limit: 20 } } })), [pageNumber]);
  const [created, setCreated] = useState<PaymentLink | null>(null);
  return (
    <>
      {mayCreate ? (
        <CreateLink
          onCreated={(link) => {
            setCreated(link);
            links.reload();
          }}
        />
      ) : null}
      {created ? <LinkShare link={created} highlight /> : null}
      <section className="panel" aria-labelledby="links-title">
        <h2 id="links-title">Your payment links</h2>
        <DataList
          resource={links}
          onPage={setPageNumber}
          empty={<EmptyState title="No payment links yet">Create one above and share it by email, chat or on your site.</EmptyState>}
        >
          {(items) => (
            <ItemList items={items} itemKey={(link) => link.slug}>
              {(link) => (
                <>
                  <div className="spread">
                    <strong>{link.title}</strong>
                    <span>{money(link.amountMinorUnits, link.currency)}</span>
                  </div>
                  <div className="spread small muted">
                    <a href={link.url} target="_blank" rel="noreferrer">
                      {link.url}
                    </a>
                    <span className="row">
                      <Time iso={link.createdAt} />
                      <CopyButton text={link.url} label="Copy URL" />
                      <CopyButton text={iframeSnippet(link.url, link.title)} label="Copy iframe" />
                    </span>
                  </div>
                </>
              )}
            </ItemList>
          )}
        </DataList>
      </section>
    </>
  );
}
