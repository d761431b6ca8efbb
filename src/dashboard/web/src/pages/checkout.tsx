import { useState, type FormEvent } from 'react';
import { decimalToMinor, fractionDigits } from '../../../../platform/money/format-amount';
import { api, ApiError, page } from '../api/client';
import type { Order, PaymentLink, Subscription } from '../api/types';
import { Button, CopyButton, EmptyState, ErrorAlert, Field, ListState, PageHead, Pager, StatusBadge, useAction } from '../components/ui';
import { humanize, money, Time } from '../lib/format';
import { setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';

const ORDER_STATUSES = ['OPEN', 'REQUIRES_ACTION', 'PAID', 'FAILED', 'EXPIRED'] as const;
const SUBSCRIPTION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'KWD'];

export const iframeSnippet = (url: string, title: string) =>
  `<iframe src="${url}${url.includes('?') ? '&' : '?'}embed=true" title="${title.replace(/"/g, '&quot;')}" style="width:100%;max-width:480px;height:640px;border:0"></iframe>`;

export function CheckoutPage() {
  const { query } = useLocation();
  const tab = query.get('tab') ?? 'links';
  return (
    <>
      <PageHead title="Checkout" lede="Payments your buyers made, recurring subscriptions, and links you can share or embed." />
      <div className="tabs" role="tablist" aria-label="Checkout">
        {[
          ['links', 'Payment links'],
          ['orders', 'Orders'],
          ['subscriptions', 'Subscriptions'],
        ].map(([value, label]) => (
          <button key={value} role="tab" aria-selected={tab === value} onClick={() => setQuery({ tab: value === 'links' ? undefined : value, status: undefined, page: undefined })}>
            {label}
          </button>
        ))}
      </div>
      {tab === 'orders' ? <Orders /> : tab === 'subscriptions' ? <Subscriptions /> : <PaymentLinks />}
    </>
  );
}

function PaymentLinks() {
  const [pageNumber, setPageNumber] = useState(1);
  const links = useResource(() => page<PaymentLink[]>(api.GET('/api/commerce/payment-links', { params: { query: { page: pageNumber, limit: 20 } } })), [pageNumber]);
  const [created, setCreated] = useState<PaymentLink | null>(null);
  return (
    <>
      <CreateLink
        onCreated={(link) => {
          setCreated(link);
          links.reload();
        }}
      />
      {created ? <LinkShare link={created} highlight /> : null}
      <section className="panel" aria-labelledby="links-title">
        <h2 id="links-title">Your payment links</h2>
        <ListState
          resource={{ ...links, data: links.data?.data }}
          empty={<EmptyState title="No payment links yet">Create one above and share it by email, chat or on your site.</EmptyState>}
        >
          {(items) => (
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {items.map((link) => (
                <li key={link.slug} style={{ borderTop: '1px solid var(--line)', padding: '0.75rem 0' }}>
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
                </li>
              ))}
            </ul>
          )}
        </ListState>
        <Pager meta={links.data?.meta ?? null} onPage={setPageNumber} />
      </section>
    </>
  );
}

function LinkShare({ link, highlight = false }: { link: PaymentLink; highlight?: boolean }) {
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

function CreateLink({ onCreated }: { onCreated: (link: PaymentLink) => void }) {
  const [title, setTitle] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [amountError, setAmountError] = useState<string | null>(null);
  const create = useAction(async (amountMinorUnits: string) => {
    const created = await page<{ slug: string; url: string }>(api.POST('/api/commerce/payment-links', { body: { title, amountMinorUnits, currency, provider: 'CARD_PROCESSOR' } }));
    onCreated({ ...created.data, title, amountMinorUnits, currency, provider: 'CARD_PROCESSOR', createdAt: new Date().toISOString() });
    setTitle('');
    setAmount('');
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = decimalToMinor(amount, currency);
    setAmountError(minor === null ? `Enter an amount like ${fractionDigits(currency) === 0 ? '2500' : '25.00'}.` : null);
    if (minor !== null) void create.run(minor);
  };
  const amountMessage = amountError ?? fields.amountMinorUnits;
  return (
    <section className="panel" aria-labelledby="new-link-title">
      <h2 id="new-link-title">New payment link</h2>
      {create.error && !fields.title && !fields.amountMinorUnits ? <ErrorAlert error={create.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="What is it for?" error={fields.title}>
            {(props) => <input {...props} type="text" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Beginner yoga class (60 min)" />}
          </Field>
          <Field label="Amount" error={amountMessage}>
            {(props) => (
              <input
                {...props}
                type="text"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                placeholder={fractionDigits(currency) === 0 ? '2500' : '25.00'}
              />
            )}
          </Field>
          <Field label="Currency">
            {(props) => (
              <select id={props.id} value={currency} onChange={(e) => setCurrency(e.target.value)}>
                {CURRENCIES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div>
          <Button type="submit" variant="primary" icon="plus" busy={create.busy}>
            Create link
          </Button>
        </div>
      </form>
    </section>
  );
}

function StatusFilter({ statuses, value }: { statuses: readonly string[]; value: string }) {
  return (
    <div className="filters">
      <div className="field" style={{ maxWidth: '16rem' }}>
        <label htmlFor="checkout-status">Status</label>
        <select id="checkout-status" value={value} onChange={(e) => setQuery({ status: e.target.value || undefined, page: undefined })}>
          <option value="">All statuses</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {humanize(s)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function Orders() {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as (typeof ORDER_STATUSES)[number] | '';
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const orders = useResource(
    () => page<Order[]>(api.GET('/api/commerce/checkout/orders', { params: { query: { status: status || undefined, page: pageNumber, limit: 20 } } })),
    [status, pageNumber],
  );
  return (
    <section className="panel" aria-labelledby="orders-title">
      <h2 id="orders-title" className="visually-hidden">
        Orders
      </h2>
      <StatusFilter statuses={ORDER_STATUSES} value={status} />
      <ListState
        resource={{ ...orders, data: orders.data?.data }}
        empty={<EmptyState title="No orders">{status ? 'Nothing with this status.' : 'Orders appear when buyers start paying.'}</EmptyState>}
      >
        {(items) => (
          <div className="table-wrap">
            <table className="responsive">
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Status</th>
                  <th>Payment</th>
                  <th className="num">Amount</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {items.map((order) => (
                  <tr key={order.id}>
                    <td data-label="Order">
                      <code>{order.id}</code>
                      {order.externalOrderRef ? <div className="small muted">{order.externalOrderRef}</div> : null}
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={order.status} />
                    </td>
                    <td data-label="Payment">{order.card ? `${humanize(order.card.brand)} ···· ${order.card.last4}` : humanize(order.provider)}</td>
                    <td data-label="Amount" className="num">
                      {money(order.amountMinorUnits, order.currency)}
                    </td>
                    <td data-label="Created">
                      <Time iso={order.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListState>
      <Pager meta={orders.data?.meta ?? null} onPage={(p) => setQuery({ page: String(p) })} />
    </section>
  );
}

function Subscriptions() {
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as (typeof SUBSCRIPTION_STATUSES)[number] | '';
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const subscriptions = useResource(
    () => page<Subscription[]>(api.GET('/api/commerce/checkout/subscriptions', { params: { query: { status: status || undefined, page: pageNumber, limit: 20 } } })),
    [status, pageNumber],
  );
  return (
    <section className="panel" aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title" className="visually-hidden">
        Subscriptions
      </h2>
      <StatusFilter statuses={SUBSCRIPTION_STATUSES} value={status} />
      <ListState
        resource={{ ...subscriptions, data: subscriptions.data?.data }}
        empty={<EmptyState title="No subscriptions">{status ? 'Nothing with this status.' : 'Subscriptions appear when a buyer pays a recurring checkout.'}</EmptyState>}
      >
        {(items) => (
          <div className="table-wrap">
            <table className="responsive">
              <thead>
                <tr>
                  <th>Subscription</th>
                  <th>Status</th>
                  <th>Every</th>
                  <th className="num">Amount</th>
                  <th>Current period ends</th>
                </tr>
              </thead>
              <tbody>
                {items.map((subscription) => (
                  <tr key={subscription.subscriptionId}>
                    <td data-label="Subscription">
                      <code>{subscription.subscriptionId}</code>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={subscription.status} />
                    </td>
                    <td data-label="Every">{humanize(subscription.intervalUnit)}</td>
                    <td data-label="Amount" className="num">
                      {money(subscription.amountMinorUnits, subscription.currency)}
                    </td>
                    <td data-label="Current period ends">
                      <Time iso={subscription.currentPeriodEnd} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListState>
      <Pager meta={subscriptions.data?.meta ?? null} onPage={(p) => setQuery({ page: String(p) })} />
    </section>
  );
}
