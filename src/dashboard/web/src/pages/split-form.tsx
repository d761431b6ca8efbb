import { useEffect, useState, type FormEvent } from 'react';
import { decimalToMinor, minorToDecimal } from '../../../../platform/money/format-amount';
import { api, ApiError, data, page } from '../api/client';
import type { Split } from '../api/types';
import { Button, ErrorAlert, LoadError, Loading, PageHead, useAction } from '../components/ui';
import { canDoOnSplit, type Viewer } from '../lib/access';
import { money } from '../lib/format';
import { Link, navigate } from '../lib/router';
import { useResource } from '../lib/use-resource';

/** Splits are billed in USD (SPLIT_CURRENCY); a revised Split keeps its own currency. */
const CURRENCY = 'USD';
/** The margin may be at most 20% of the total (docs/api.md: SPLIT_MARGIN_CAP_EXCEEDED). */
const MARGIN_CAP_PERCENT = 20n;

interface Row {
  key: number;
  /** A contractor paid before ("cpp_…" / "sv_…"), or "" to name one by email. */
  contractor: string;
  email: string;
  fullName: string;
  amount: string;
  instant: boolean;
  coverFee: boolean;
  forward: boolean;
}

interface Known {
  id: string;
  name: string;
  field: 'contractorPaymentProfileId' | 'subVendorId';
}

let nextKey = 1;
const emptyRow = (): Row => ({ key: nextKey++, contractor: '', email: '', fullName: '', amount: '', instant: false, coverFee: false, forward: false });

/**
 * The SME creates a Split (POST /api/commerce/integration/splits) or revises a pending one's roster
 * (PUT .../:id/roster) by session: rows by a contractor it paid before or by email, its margin on top, the elections,
 * a live total and the 20% margin cap checked before sending.
 */
export function SplitFormPage({ viewer, id, onSaved }: { viewer: Viewer; id?: string; onSaved: () => void }) {
  const sent = useResource(() => page<Split[]>(api.GET('/api/commerce/splits/outgoing', { params: { query: { limit: 100 } } })));
  const existing = useResource(() => (id ? data<Split>(api.GET('/api/commerce/splits/{id}', { params: { path: { id } } })) : Promise.resolve(null)), [id]);
  const [enterprise, setEnterprise] = useState('');
  const [enterpriseId, setEnterpriseId] = useState('');
  const [apContactId, setApContactId] = useState('');
  const [reference, setReference] = useState('');
  const [margin, setMargin] = useState('');
  const [rows, setRows] = useState<Row[]>([emptyRow()]);
  const [problem, setProblem] = useState<string | null>(null);
  const current = existing.data ?? null;
  const currency = current?.currency ?? CURRENCY;
  useEffect(() => {
    if (!current) return;
    setMargin(minorToDecimal(current.marginAmountCents, current.currency));
    setRows(
      current.distributions.map((row) => ({
        ...emptyRow(),
        contractor: row.contractorPaymentProfileId ?? row.subVendorId ?? '',
        amount: minorToDecimal(row.amountCents, current.currency),
        instant: row.earlyPayoutElected,
        coverFee: row.businessCoversFee,
        forward: row.autoWithdrawElected,
      })),
    );
  }, [current]);
  const save = useAction(async (body: { roster: Record<string, unknown>[]; totalAmountCents: string }) => {
    let saved: Split;
    if (current) {
      saved = await data<Split>(api.PUT('/api/commerce/integration/splits/{id}/roster', { params: { path: { id: current.id } }, body: body as never }));
    } else {
      const target = enterprises.find((e) => e.key === enterprise);
      saved = await data<Split>(
        api.POST('/api/commerce/integration/splits', {
          body: {
            ...body,
            enterpriseCompanyId: target?.enterpriseCompanyId ?? enterpriseId.trim(),
            apContactBusinessProfileId: target?.apContactBusinessProfileId ?? apContactId.trim(),
            clientIdempotencyKey: reference.trim(),
          } as never,
        }),
      );
    }
    onSaved();
    navigate(`/splits/${saved.id}`);
  });

  if (existing.error && !existing.data) return <LoadError error={existing.error} retry={existing.reload} />;
  if (id && !current) return <Loading />;
  if (current && !canDoOnSplit(viewer, current, 'revise'))
    return (
      <div className="panel" role="alert">
        <h1>This Split can no longer be revised</h1>
        <p className="muted">
          Only a Split waiting for approval can be changed. <Link to={`/splits/${current.id}`}>Back to the Split</Link>
        </p>
      </div>
    );

  // Enterprises and contractors this SME billed or paid before (its own Splits): picked by name, not by id.
  const enterprises = uniqueBy(
    (sent.data?.data ?? []).map((s) => ({
      key: `${s.enterpriseCompanyId}/${s.apContactBusinessProfileId}`,
      enterpriseCompanyId: s.enterpriseCompanyId,
      apContactBusinessProfileId: s.apContactBusinessProfileId,
      name: s.enterpriseCompanyName,
    })),
  );
  const known: Known[] = uniqueBy(
    (sent.data?.data ?? []).flatMap((s) =>
      s.distributions.map((row) =>
        row.contractorPaymentProfileId
          ? { key: row.contractorPaymentProfileId, id: row.contractorPaymentProfileId, name: row.contractorDisplayName, field: 'contractorPaymentProfileId' as const }
          : { key: row.subVendorId ?? '', id: row.subVendorId ?? '', name: row.contractorDisplayName, field: 'subVendorId' as const },
      ),
    ),
  ).filter((k) => k.id);

  const amounts = rows.map((row) => decimalToMinor(row.amount, currency));
  const marginCents = margin.trim() === '' ? '0' : decimalToMinor(margin, currency);
  const rosterSum = amounts.reduce<bigint>((sum, a) => sum + BigInt(a ?? '0'), 0n);
  const total = rosterSum + BigInt(marginCents ?? '0');
  const overCap = total > 0n && BigInt(marginCents ?? '0') * 100n > total * MARGIN_CAP_PERCENT;
  const maxMargin = (rosterSum * MARGIN_CAP_PERCENT) / (100n - MARGIN_CAP_PERCENT);
  const fields = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const change = (key: number, patch: Partial<Row>) => setRows((all) => all.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bad = amounts.findIndex((a) => a === null || a === '0');
    const missing = rows.findIndex((row) => !row.contractor && !row.email.trim());
    const why =
      !current && !enterprise && (!enterpriseId.trim() || !apContactId.trim())
        ? 'Choose the enterprise you bill, or enter its account id and AP contact id.'
        : !current && !reference.trim()
          ? 'Enter a reference (your invoice number): it tells this Split apart and makes a repeated send safe.'
          : missing >= 0
            ? `Row ${missing + 1}: choose a contractor or enter an email.`
            : bad >= 0
              ? `Row ${bad + 1}: enter an amount above zero.`
              : marginCents === null
                ? 'Enter the margin as an amount, or leave it empty.'
                : overCap
                  ? `The margin may be at most 20% of the total: at most ${money(String(maxMargin), currency)} on this roster.`
                  : null;
    setProblem(why);
    if (why) return;
    const roster = rows.map((row, index) => {
      const who = known.find((k) => k.id === row.contractor);
      return {
        ...(who ? { [who.field]: who.id } : { email: row.email.trim(), ...(row.fullName.trim() ? { fullName: row.fullName.trim() } : {}) }),
        amountCents: amounts[index]!,
        earlyPayoutElected: row.instant,
        businessCoversFee: row.coverFee,
        autoWithdrawElected: row.forward,
      };
    });
    void save.run({ roster, totalAmountCents: String(total) });
  };

  return (
    <>
      <p className="small" style={{ margin: '0 0 0.5rem' }}>
        <Link to={current ? `/splits/${current.id}` : '/splits'}>← {current ? 'Back to the Split' : 'Splits'}</Link>
      </p>
      <PageHead
        title={current ? `Revise the Split to ${current.enterpriseCompanyName}` : 'New Split'}
        lede={current ? 'The enterprise is asked to approve the new roster; its earlier review no longer counts.' : 'Bill an enterprise once; each contractor is paid its share.'}
      />
      <form className="panel form" onSubmit={submit} noValidate aria-labelledby="split-form-title">
        <h2 id="split-form-title" className="visually-hidden">
          Split
        </h2>
        {current ? null : (
          <div className="form-row">
            <div className="field">
              <label htmlFor="split-enterprise">Enterprise billed</label>
              <select id="split-enterprise" value={enterprise} onChange={(e) => setEnterprise(e.target.value)}>
                <option value="">Another enterprise (enter its ids)</option>
                {enterprises.map((e) => (
                  <option key={e.key} value={e.key}>
                    {e.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="split-reference">Reference (your invoice number)</label>
              <input
                id="split-reference"
                type="text"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                placeholder="INV-2026-0042"
                aria-invalid={Boolean(fields.clientIdempotencyKey)}
              />
            </div>
          </div>
        )}
        {!current && !enterprise ? (
          <div className="form-row">
            <div className="field">
              <label htmlFor="split-enterprise-id">Enterprise account id</label>
              <input id="split-enterprise-id" type="text" value={enterpriseId} onChange={(e) => setEnterpriseId(e.target.value)} placeholder="co_…" />
              <div className="hint">The enterprise finds it in its Approvals page.</div>
            </div>
            <div className="field">
              <label htmlFor="split-ap-contact">AP contact id</label>
              <input id="split-ap-contact" type="text" value={apContactId} onChange={(e) => setApContactId(e.target.value)} placeholder="bp_…" />
            </div>
          </div>
        ) : null}
        <fieldset className="roster">
          <legend>Contractors</legend>
          {rows.map((row, index) => (
            <div className="roster-row" key={row.key} data-testid={`roster-row-${index + 1}`}>
              <div className="form-row">
                <div className="field">
                  <label htmlFor={`row-${row.key}-who`}>Row {index + 1}: contractor</label>
                  <select id={`row-${row.key}-who`} value={row.contractor} onChange={(e) => change(row.key, { contractor: e.target.value })}>
                    <option value="">By email (new or known)</option>
                    {known.map((k) => (
                      <option key={k.id} value={k.id}>
                        {k.name}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`row-${row.key}-amount`}>
                    Row {index + 1}: amount ({currency})
                  </label>
                  <input
                    id={`row-${row.key}-amount`}
                    type="text"
                    inputMode="decimal"
                    value={row.amount}
                    onChange={(e) => change(row.key, { amount: e.target.value })}
                    placeholder="400.00"
                  />
                </div>
              </div>
              {row.contractor ? null : (
                <div className="form-row">
                  <div className="field">
                    <label htmlFor={`row-${row.key}-email`}>Row {index + 1}: email</label>
                    <input
                      id={`row-${row.key}-email`}
                      type="email"
                      value={row.email}
                      onChange={(e) => change(row.key, { email: e.target.value })}
                      placeholder="dana@contractor.test"
                    />
                  </div>
                  <div className="field">
                    <label htmlFor={`row-${row.key}-name`}>Row {index + 1}: full name (optional)</label>
                    <input id={`row-${row.key}-name`} type="text" value={row.fullName} onChange={(e) => change(row.key, { fullName: e.target.value })} />
                  </div>
                </div>
              )}
              <div className="row" style={{ flexWrap: 'wrap', justifyContent: 'flex-start' }}>
                <label className="check">
                  <input type="checkbox" checked={row.instant} onChange={(e) => change(row.key, { instant: e.target.checked })} /> Pay at funding (early-payout fee)
                </label>
                <label className="check">
                  <input type="checkbox" checked={row.coverFee} onChange={(e) => change(row.key, { coverFee: e.target.checked })} /> I pay the fee
                </label>
                <label className="check">
                  <input type="checkbox" checked={row.forward} onChange={(e) => change(row.key, { forward: e.target.checked })} /> Forward to their wallet
                </label>
                {rows.length > 1 ? (
                  <Button small variant="danger-ghost" onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))} aria-label={`Remove row ${index + 1}`}>
                    Remove
                  </Button>
                ) : null}
              </div>
            </div>
          ))}
          <Button small icon="plus" onClick={() => setRows((all) => [...all, emptyRow()])} disabled={rows.length >= 50}>
            Add a contractor
          </Button>
        </fieldset>
        <div className="form-row">
          <div className="field">
            <label htmlFor="split-margin">Your margin ({currency}, on top of the contractors)</label>
            <input
              id="split-margin"
              type="text"
              inputMode="decimal"
              value={margin}
              onChange={(e) => setMargin(e.target.value)}
              placeholder="0.00"
              aria-invalid={overCap}
              aria-describedby="split-margin-hint"
            />
            <div className={overCap ? 'field-error' : 'hint'} id="split-margin-hint">
              {overCap ? `Over the 20% cap: at most ${money(String(maxMargin), currency)}.` : 'At most 20% of the total.'}
            </div>
          </div>
          <div className="stat" aria-live="polite">
            <div className="label">Total billed</div>
            <div className="value" data-testid="split-total">
              {money(String(total), currency)}
            </div>
            <div className="sub">
              Contractors {money(String(rosterSum), currency)} + margin {money(marginCents ?? '0', currency)}
            </div>
          </div>
        </div>
        {problem ? (
          <div className="alert error" role="alert">
            {problem}
          </div>
        ) : null}
        <ErrorAlert error={save.error} />
        <div className="row" style={{ justifyContent: 'flex-start' }}>
          <Button type="submit" variant="primary" busy={save.busy}>
            {current ? 'Send the revised Split' : 'Send the Split for approval'}
          </Button>
        </div>
      </form>
    </>
  );
}

function uniqueBy<T extends { key: string }>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(item.key)) seen.set(item.key, item);
  return [...seen.values()];
}
