#!/usr/bin/env node
// A webhook receiver for trying Paysplit out (README, "Your first Split in five minutes"): listens on
// 127.0.0.1:<port>, checks each delivery's signature with WEBHOOK_SECRET exactly as docs/webhooks.md
// section 4 says (the timestamp against this machine's clock, 300 s tolerance), answers 200, and prints
// one line per delivery: `<event type> <delivery id> signature ok|BAD <body>`.
const { createServer } = require('node:http');
const { createHmac, timingSafeEqual } = require('node:crypto');

const port = Number(process.argv[2] ?? 4000);
const secret = process.env.WEBHOOK_SECRET ?? '';

function verified(headers, rawBody) {
  const timestamp = headers['x-paysplit-timestamp'];
  const signature = headers['x-paysplit-signature'];
  if (typeof timestamp !== 'string' || !/^\d{1,15}$/.test(timestamp)) return false;
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    const ok = verified(request.headers, body);
    console.log(`${request.headers['x-paysplit-event']} ${request.headers['x-paysplit-delivery-id']} signature ${ok ? 'ok' : 'BAD'} ${body.toString('utf8')}`);
    response.writeHead(ok ? 200 : 400).end();
  });
}).listen(port, '127.0.0.1', () => console.error(`webhook receiver on http://127.0.0.1:${port}`));
