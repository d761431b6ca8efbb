import { LookupAddress, LookupOptions } from 'node:dns';
import { DomainError } from '../../platform/domain/domain-error';
import { guardedLookup, isPublicAddress, legacyIPv4ToDotted, parseWebhookUrl, WebhookUrlRejectedError } from './ssrf-guard';

function rejection(url: string, allowPrivateNetworks = false): WebhookUrlRejectedError | undefined {
  try {
    parseWebhookUrl(url, allowPrivateNetworks);
    return undefined;
  } catch (error) {
    if (error instanceof WebhookUrlRejectedError) return error;
    throw error;
  }
}

describe('parseWebhookUrl', () => {
  it.each([
    ['https://127.0.0.1/x', /127\.0\.0\.1 is not a public address/],
    ['https://127.1/x', /127\.0\.0\.1 is not a public/],
    ['https://2130706433/x', /127\.0\.0\.1 is not a public/],
    ['https://0x7f000001/x', /127\.0\.0\.1 is not a public/],
    ['https://0177.0.0.1/x', /127\.0\.0\.1 is not a public/],
    ['https://0x7f.1/x', /127\.0\.0\.1 is not a public/],
    ['https://127.0.0.1./x', /not a public/],
    ['https://%31%32%37.0.0.1/x', /127\.0\.0\.1 is not a public/],
    ['https://0.0.0.0/x', /0\.0\.0\.0 is not a public/],
    ['https://0/x', /0\.0\.0\.0 is not a public/],
    ['https://10.0.0.1/x', /not a public/],
    ['https://172.16.0.1/x', /not a public/],
    ['https://172.31.255.255/x', /not a public/],
    ['https://192.168.1.1/x', /not a public/],
    ['https://169.254.169.254/latest/meta-data', /not a public/],
    ['https://100.64.0.1/x', /not a public/],
    ['https://198.18.0.1/x', /not a public/],
    ['https://224.0.0.1/x', /not a public/],
    ['https://255.255.255.255/x', /not a public/],
    ['https://[::1]/x', /::1 is not a public/],
    ['https://[::]/x', /not a public/],
    ['https://[fe80::1]/x', /not a public/],
    ['https://[fc00::1]/x', /not a public/],
    ['https://[fd12:3456::1]/x', /not a public/],
    ['https://[ff02::1]/x', /not a public/],
    ['https://[::ffff:127.0.0.1]/x', /::ffff:7f00:1 is not a public/],
    ['https://[::ffff:7f00:1]/x', /not a public/],
    ['https://[::ffff:10.0.0.1]/x', /not a public/],
    ['https://[64:ff9b::a9fe:a9fe]/x', /not a public/],
    ['https://[2001:db8::1]/x', /not a public/],
    ['https://localhost/x', /localhost is a local name/],
    ['https://LOCALHOST./x', /localhost is a local name/],
    ['https://api.localhost/x', /local name/],
    ['https://printer.local/x', /local name/],
    ['https://metadata.google.internal/x', /local name/],
    ['http://example.com/x', /scheme must be https/],
    ['ftp://example.com/x', /scheme must be https/],
    ['file:///etc/passwd', /scheme must be https/],
    ['javascript:alert(1)', /scheme must be https/],
    ['https://user:pw@example.com/x', /credentials/],
    ['https://user@example.com/x', /credentials/],
    ['https://:pw@example.com/x', /credentials/],
    ['/relative/hook', /not a valid absolute URL/],
    ['example.com/hook', /not a valid absolute URL/],
    ['https://', /not a valid absolute URL/],
    ['https://1.2.3.4.5/', /not a valid absolute URL/],
    ['https://exa mple.com/', /not a valid absolute URL/],
    ['', /not a valid absolute URL/],
  ])('rejects %s', (url, reason) => {
    const error = rejection(url);
    expect(error).toBeInstanceOf(WebhookUrlRejectedError);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'WEBHOOK_URL_REJECTED', kind: 'invalid' });
    expect(error!.message).toMatch(reason);
    expect(error!.details).toEqual([{ field: 'url', message: expect.any(String) }]);
  });

  it.each([
    ['https://example.com/hook', 'example.com'],
    ['https://Example.COM:8443/hook?x=1#frag', 'example.com'],
    ['https://93.184.216.34/x', '93.184.216.34'],
    ['https://[2606:4700::1111]/x', '[2606:4700::1111]'],
    ['https://[::ffff:93.184.216.34]/x', '[::ffff:5db8:d822]'],
    ['https://localhost.example.com/x', 'localhost.example.com'],
    ['https://local/x', 'local'],
    ['https://my.internal.example.com/x', 'my.internal.example.com'],
  ])('accepts %s', (url, hostname) => expect(parseWebhookUrl(url, false).hostname).toBe(hostname));

  it.each(['http://127.0.0.1:8080/x', 'http://localhost:3000/hook', 'https://[::1]/x', 'https://10.0.0.1/x', 'http://example.com/x'])(
    'accepts %s when private networks are allowed',
    (url) => expect(parseWebhookUrl(url, true).href).toBe(new URL(url).href),
  );

  it.each([
    ['ftp://127.0.0.1/x', /scheme must be https or http/],
    ['http://user:pw@127.0.0.1/x', /credentials/],
    ['not a url', /not a valid absolute URL/],
  ])('still rejects %s when private networks are allowed', (url, reason) => expect(rejection(url, true)?.message).toMatch(reason));
});

describe('how WHATWG URL normalises IPv4 forms (the guard relies on it)', () => {
  it.each([
    ['https://127.1/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://0x7f000001/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://0x7f.0.0.1/', '127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
  ])('%s has hostname %s', (url, hostname) => expect(new URL(url).hostname).toBe(hostname));
});

describe('legacyIPv4ToDotted (fallback for parsers that do not normalise)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['4294967295', '255.255.255.255'],
  ])('reads %s as %s', (host, dotted) => expect(legacyIPv4ToDotted(host)).toBe(dotted));

  it.each(['example.com', '1.2.3.4.5', '256.1.1.1', '4294967296', '1.16777216', '08.0.0.1', '1..2', '', '0xg'])('does not read %j as an address', (host) => {
    expect(legacyIPv4ToDotted(host)).toBeUndefined();
  });
});

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.0.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.255',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:0:0',
    '::127.0.0.1',
    '::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::1',
    '100::1',
    '100::ffff:ffff:ffff:ffff',
    'fc00::1',
    'fd00:abcd::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fec0::1',
    'ff00::1',
    'ff02::1',
    '2001:db8::1',
    '2001:db8:ffff::1',
    '2001::1',
    '2001:0:4136:e378::1',
    '2001:10::1',
    '2002:7f00:1::1',
    '2002:c0a8:101::1',
    '3fff::1',
    '4000::1',
    '[::1]',
    'not-an-ip',
    '',
    'localhost',
    '1.2.3',
    '127.1',
    '2130706433',
    '::ffff:999.0.0.1',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '2001:200::1',
    '2001:db9::1',
    '2002:5db8:d822::1',
    '::ffff:93.184.216.34',
    '::ffff:5db8:d822',
    '64:ff9b::8.8.8.8',
    '3ffe::1',
    '3fff:1000::1',
    '[2606:4700::1111]',
  ])('%s is public', (ip) => expect(isPublicAddress(ip)).toBe(true));
});

describe('guardedLookup', () => {
  function lookup(allowPrivateNetworks: boolean, hostname: string, options: LookupOptions) {
    return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
      guardedLookup(allowPrivateNetworks)(hostname, options, (error, address, family) => resolve({ error, address, family })),
    );
  }

  it.each([{}, { all: true }, { family: 4 }])('refuses a name resolving to loopback (options %j)', async (options) => {
    const { error } = await lookup(false, 'localhost', options);
    expect(error).toMatchObject({ code: 'ERR_WEBHOOK_SSRF', message: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/) });
  });

  it('refuses private IP literals too when asked to look them up', async () => {
    expect((await lookup(false, '169.254.169.254', {})).error?.code).toBe('ERR_WEBHOOK_SSRF');
    expect((await lookup(false, '::ffff:127.0.0.1', {})).error?.code).toBe('ERR_WEBHOOK_SSRF');
  });

  it('allows loopback when private networks are allowed, in single form', async () => {
    const { error, address, family } = await lookup(true, 'localhost', { family: 4 });
    expect(error).toBeNull();
    expect(address).toBe('127.0.0.1');
    expect(family).toBe(4);
  });

  it('allows loopback when private networks are allowed, in array form when options.all is set', async () => {
    const { error, address } = await lookup(true, 'localhost', { all: true });
    expect(error).toBeNull();
    expect(address).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })]));
  });

  it('passes a public address through in both forms (IP literals resolve without DNS)', async () => {
    expect(await lookup(false, '93.184.216.34', {})).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(await lookup(false, '2606:4700::1111', { all: true })).toEqual({ error: null, address: [{ address: '2606:4700::1111', family: 6 }], family: undefined });
  });
});
