import { Enveloped, envelopeOf, Page } from './envelope';

describe('envelopeOf', () => {
  it('sends a result as {data}, nothing as {data: null}', () => {
    expect(envelopeOf({ id: 'spl_1' })).toEqual({ data: { id: 'spl_1' } });
    expect(envelopeOf(undefined)).toEqual({ data: null });
    expect(envelopeOf(null)).toEqual({ data: null });
    expect(envelopeOf([1, 2])).toEqual({ data: [1, 2] });
  });

  it('sends a page as {data, meta}', () => {
    expect(envelopeOf(Page.of(['a', 'b'], 2, 2, 5))).toEqual({ data: ['a', 'b'], meta: { page: 2, limit: 2, total: 5, totalPages: 3 } });
  });

  it('sends an answer that is already an envelope (a stored replay) as it is', () => {
    const stored = { data: { id: 'ord_1' } };
    expect(envelopeOf(new Enveloped(stored))).toBe(stored);
  });
});
