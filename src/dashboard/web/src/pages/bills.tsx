import { useMemo, useState } from 'react';
import { api, data, page } from '../api/client';
import type { Invoice } from '../api/types';
import { DataTable, FilterSelect, Notice } from '../components/data-list';
import { Button, EmptyState, ErrorAlert, PageHead, StatusBadge, useAction } from '../components/ui';
import { money, Time } from '../lib/format';
import { Link, setQuery, useLocation } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { canDo, type Viewer } from '../lib/access';
import { BillDetail } from './bills/bill-detail';

const DAY_MS = 86_400_000;
/** Bills due within this many days show under "Due soon". */
const DUE_SOON_DAYS = 7;

const VIEWS = [
  ['open', 'Open'],
  ['due-soon', 'Due soon'],
  ['overdue', 'Overdue'],
  ['paid', 'Paid'],
] as const;
type View = (typeof VIEWS)[number][0] | '';

const PAGE_SIZE = 20;
/** "Due soon" reads this many unpaid bills, soonest due first, in one page. */
const DUE_SOON_READ = 500;

/** What each view asks the API for (the list is soonest due first); "Due soon" then keeps the unpaid bills due within the week. */
const VIEW_STATUSES: Record<View, string | undefined> = { '': undefined, open: 'OPEN,PARTIALLY_PAID', 'due-soon': 'OPEN,PARTIALLY_PAID', overdue: 'OVERDUE', paid: 'PAID' };

const dueWithinAWeek = (bill: Invoice, now: number) => Date.parse(bill.dueAt) - now <= DUE_SOON_DAYS * DAY_MS;

/** The enterprise's bills (issue 27): one per funded Split, paid from the balance, by card, or by bank transfer. */
export function BillsPage({ viewer }: { viewer: Viewer }) {
  const mayPay = canDo(viewer, 'money');
  const { query } = useLocation();
  const view = (query.get('view') ?? '') as View;
  const selected = query.get('invoice');
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const dueSoon = view === 'due-soon';
  const bills = useResource(
    () =>
      page<Invoice[]>(
        api.GET('/api/commerce/invoices', { params: { query: { status: VIEW_STATUSES[view], page: dueSoon ? 1 : pageNumber, limit: dueSoon ? DUE_SOON_READ : PAGE_SIZE } } }),
      ),
    [view, pageNumber],
  );
  // The bill an address names (the payUrl of its emails) is read by id: it may be on no page shown.
  const bill = useResource(
    () => (selected ? data<Invoice>(api.GET('/api/commerce/invoices/{id}', { params: { path: { id: selected } } })) : Promise.resolve(undefined)),
    [selected],
  );
  const shownBill = bill.data;
  const [notice, setNotice] = useState<string | null>(null);
  const now = useMemo(() => Date.now(), [bills.data]);
  const shown = bills.data && dueSoon ? { data: bills.data.data.filter((item) => dueWithinAWeek(item, now)), meta: null } : bills.data;
  const card = useAction(async (target: Invoice) => {
    const started = await data<{ redirectUrl: string }>(api.POST('/api/commerce/invoices/{id}/card-payments', { params: { path: { id: target.id } }, body: {} }));
    window.location.assign(started.redirectUrl);
  });
  return (
    <>
      <PageHead title="Bills" lede="What you owe for the Splits you approved: pay from your Paysplit balance, by card, or by bank transfer quoting the reference." />
      <Notice>{notice}</Notice>
      <ErrorAlert error={bill.error} />
      {shownBill ? (
        <BillDetail
          bill={shownBill}
          onPaid={(paid) => {
            setNotice(`Paid ${money(paid.amountCents, paid.currency)} on bill ${paid.invoiceId}.`);
            bills.reload();
            bill.reload();
          }}
          onPayByCard={() => void card.run(shownBill)}
          cardBusy={card.busy}
          mayPay={mayPay}
          onClose={() => setQuery({ invoice: undefined })}
        />
      ) : null}
      <section className="panel" aria-labelledby="bills-title">
        <h2 id="bills-title">Your bills</h2>
        <ErrorAlert error={card.error} />
        <div className="filters">
          <FilterSelect
            id="bill-view"
            label="Show"
            value={view}
            anyLabel="All bills"
            options={VIEWS}
            onChange={(value) => setQuery({ view: value || undefined, page: undefined })}
            style={{ maxWidth: '16rem' }}
          />
        </div>
        <DataTable
          resource={{ ...bills, data: shown }}
          onPage={dueSoon ? undefined : (p) => setQuery({ page: String(p) })}
          empty={<EmptyState title={view ? 'No bills here' : 'No bills yet'}>{view ? 'Try another view.' : 'A bill arrives when a Split you approved is funded.'}</EmptyState>}
          rowKey={(item) => item.id}
          columns={[
            {
              header: 'Bill',
              cell: (item) => (
                <>
                  <code>{item.id}</code>
                  <div className="small muted">
                    Reference {item.paymentReference} · for <Link to={`/splits/${item.splitId}`}>Split {item.splitId}</Link>
                  </div>
                </>
              ),
            },
            { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
            { header: 'Amount', num: true, cell: (item) => money(item.amountCents, item.currency) },
            { header: 'Still owed', num: true, cell: (item) => money(item.outstandingCents, item.currency) },
            { header: 'Due', cell: (item) => <Time iso={item.dueAt} /> },
          ]}
          actions={(item) => (
            <Button
              small
              variant={item.status === 'PAID' || !mayPay ? undefined : 'primary'}
              onClick={() => setQuery({ invoice: item.id })}
              aria-label={`${item.status === 'PAID' || !mayPay ? 'Details' : 'Pay'} bill ${item.id}`}
            >
              {item.status === 'PAID' || !mayPay ? 'Details' : 'Pay'}
            </Button>
          )}
        />
      </section>
    </>
  );
}
