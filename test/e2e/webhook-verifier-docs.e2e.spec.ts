import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signWebhook } from '../../src/webhooks';
import { tempDir } from '../support/temp-dir';

/**
 * The verifier snippets of docs/webhooks.md, run as written: the CommonJS `paysplit-webhooks.js` file,
 * the plain node:crypto function and the Python function, each against Paysplit's own signer.
 */
const webhooksDoc = readFileSync(join(__dirname, '../../docs/webhooks.md'), 'utf8');
const blocks = [...webhooksDoc.matchAll(/```(js|python)\n([\s\S]*?)```/g)].map((m) => ({ language: m[1]!, code: m[2]! }));
const blockStarting = (text: string) => {
  const found = blocks.find((block) => block.code.startsWith(text) || block.code.includes(text));
  if (!found) throw new Error(`docs/webhooks.md has no code block with ${text}`);
  return found.code;
};

const SECRET = 'whsec_docs_snippet_secret';
const NOW = 1_790_000_000;
const body = JSON.stringify({ type: 'split.settled', data: { note: 'Zoë paid 12,00 € – ✓' } });
const headersFor = (timestamp: number, rawBody = body, secret = SECRET) => ({
  'x-paysplit-event': 'split.settled',
  'x-paysplit-delivery-id': 'dlv_docs',
  'x-paysplit-timestamp': String(timestamp),
  'x-paysplit-signature': signWebhook(secret, timestamp, rawBody),
});
/** [what, headers, body, accepted] */
const cases: [string, Record<string, string>, string, boolean][] = [
  ['a genuine delivery with non-ASCII text', headersFor(NOW), body, true],
  ['a tampered body', headersFor(NOW), body.replace('12,00', '99,00'), false],
  ['a wrong secret', headersFor(NOW, body, 'whsec_other'), body, false],
  ['a stale timestamp', headersFor(NOW - 301), body, false],
  ['a missing signature', { ...headersFor(NOW), 'x-paysplit-signature': '' }, body, false],
  ['a signature that is not hex', { ...headersFor(NOW), 'x-paysplit-signature': 'zz'.repeat(32) }, body, false],
];

describe('docs/webhooks.md verifier snippets', () => {
  const dir = tempDir('webhook-docs');

  it('paysplit-webhooks.js: verifyWebhook accepts exactly the genuine delivery', () => {
    writeFileSync(join(dir, 'paysplit-webhooks.js'), blockStarting('// paysplit-webhooks.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { verifyWebhook } = require(join(dir, 'paysplit-webhooks.js')) as { verifyWebhook: (...args: unknown[]) => { ok: boolean } };
    expect(cases.map(([what, headers, raw]) => [what, verifyWebhook(SECRET, headers, Buffer.from(raw), 300, NOW).ok])).toEqual(cases.map(([what, , , ok]) => [what, ok]));
  });

  it('plain node:crypto: verifyPaysplitSignature accepts exactly the genuine delivery', () => {
    writeFileSync(join(dir, 'plain.js'), `${blockStarting('function verifyPaysplitSignature(')}\nmodule.exports = { verifyPaysplitSignature };\n`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { verifyPaysplitSignature } = require(join(dir, 'plain.js')) as { verifyPaysplitSignature: (...args: unknown[]) => boolean };
    expect(cases.map(([what, headers, raw]) => [what, verifyPaysplitSignature(SECRET, headers, Buffer.from(raw), 300, NOW)])).toEqual(cases.map(([what, , , ok]) => [what, ok]));
  });

  it('Python: verify_paysplit_signature accepts exactly the genuine delivery', () => {
    const script = `${blockStarting('def verify_paysplit_signature(')}
import json, sys
class Headers(dict):
    def get(self, key, default=None):
        return next((v for k, v in self.items() if k.lower() == key.lower()), default)
cases = json.loads(sys.stdin.read())
print(json.dumps([verify_paysplit_signature(${JSON.stringify(SECRET)}, Headers(h), b.encode("utf-8"), 300, ${NOW}) for h, b in cases]))
`;
    writeFileSync(join(dir, 'verify.py'), script);
    const run = spawnSync('python3', [join(dir, 'verify.py')], { input: JSON.stringify(cases.map(([, headers, raw]) => [headers, raw])), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(cases.map(([, , , ok]) => ok));
  });
});
