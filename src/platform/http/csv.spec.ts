import { parse } from 'csv-parse/sync';
import { amountCsvColumns, csvField, csvText, csvTextOfBatches } from './csv';

describe('CSV exports', () => {
  it('quotes what needs quoting (RFC 4180) and neutralises formulas, but not plain numbers', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    for (const formula of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=1', '=HYPERLINK("http://x")']) expect(csvField(formula).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvField('-150')).toBe('-150');
    expect(csvField('-1.50')).toBe('-1.50');
  });

  it('writes a header row and CRLF records that a CSV parser reads back as they were', async () => {
    const rows = [
      { id: 'a', cents: '-5', currency: 'USD', note: '=cmd|" /C calc"!A0' },
      { id: 'b', cents: '1234', currency: 'JPY', note: 'comma, "quote"\r\nnewline' },
      { id: 'c', cents: '1234', currency: 'KWD', note: '' },
    ];
    const columns = [
      { header: 'id', value: (r: (typeof rows)[0]) => r.id },
      ...amountCsvColumns<(typeof rows)[0]>(
        'amount',
        (r) => r.cents,
        (r) => r.currency,
      ),
      { header: 'note', value: (r: (typeof rows)[0]) => r.note },
    ];
    let text = '';
    for await (const chunk of csvText(columns, rows)) text += chunk;
    expect(text.startsWith('id,amount,amountCents,note\r\n')).toBe(true);
    expect(parse(text, { columns: true })).toEqual([
      { id: 'a', amount: '-0.05', amountCents: '-5', note: `'=cmd|" /C calc"!A0` },
      { id: 'b', amount: '1234', amountCents: '1234', note: 'comma, "quote"\r\nnewline' },
      { id: 'c', amount: '1.234', amountCents: '1234', note: '' },
    ]);
  });

  it('writes batches as the same text as row by row, in chunks of at most ~32 K characters however large a batch', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({ id: `r${i}`, note: i % 7 === 0 ? `café, "${'x'.repeat(i)}"` : `note ${i}` }));
    const columns = [
      { header: 'id', value: (r: (typeof rows)[0]) => r.id },
      { header: 'note', value: (r: (typeof rows)[0]) => r.note },
    ];
    async function* batches() {
      for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000);
    }
    const chunks: string[] = [];
    for await (const chunk of csvTextOfBatches(columns, batches())) chunks.push(chunk);
    let text = '';
    for await (const chunk of csvText(columns, rows)) text += chunk;
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(32 * 1024 + 2600);
  });
});
