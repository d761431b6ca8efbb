import { useMemo, useState } from 'react';
import { api, data } from '../api/client';
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

function inView(bill: Invoice, view: View, now: number): boolean {
  const unpaid = bill.status !== 'PAID';
  switch (view) {
    case 'open':
      return bill.status === 'OPEN' || bill.status === 'PARTIALLY_PAID';
    case 'due-soon':
      return unpaid && bill.status !== 'OVERDUE' && Date.parse(bill.dueAt) - now <= DUE_SOON_DAYS * DAY_MS;
    case 'overdue':
      return bill.status === 'OVERDUE';
    case 'paid':
      return bill.status === 'PAID';
    default:
      return true;
  }
}

/** The enterprise's bills (issue 27): one per funded Split, paid from the balance, by card, or by bank transfer. */
export function BillsPage({ viewer }: { viewer: Viewer }) {
  const mayPay = canDo(viewer, 'money');
  const { query } = useLocation();
  const view = (query.get('view') ?? '') as View;
  const selected = query.get('invoice');
  const bills = useResource(() => data<Invoice[]>(api.GET('/api/commerce/invoices')), []);
  const [notice, setNotice] = useState<string | null>(null);
  const now = useMemo(() => Date.now(), [bills.data]);
  const shown = bills.data ? bills.data.filter((bill) => inView(bill, view, now)) : undefined;
  const card = useAction(async (bill: Invoice) => {
    const started = await data<{ redirectUrl: string }>(api.POST('/api/commerce/invoices/{id}/card-payments', { params: { path: { id: bill.id } }, body: {} }));
    window.location.assign(started.redirectUrl);
  });
  const bill = selected ? bills.data?.find((candidate) => candidate.id === selected) : undefined;
  return (
    <>
      <PageHead title="Bills" lede="What you owe for the Splits you approved: pay from your Paysplit balance, by card, or by bank transfer quoting the reference." />
      <Notice>{notice}</Notice>
      {bill ? (
        <BillDetail
          bill={bill}
          onPaid={(paid) => {
            setNotice(`Paid ${money(paid.amountCents, paid.currency)} on bill ${paid.invoiceId}.`);
            bills.reload();
          }}
          onPayByCard={() => void card.run(bill)}
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
            onChange={(value) => setQuery({ view: value || undefined })}
            style={{ maxWidth: '16rem' }}
          />
        </div>
        <DataTable
          resource={{ ...bills, data: shown }}
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
