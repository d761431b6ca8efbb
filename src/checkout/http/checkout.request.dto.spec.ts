import { isHttpsUrl, isReturnUrlShape, RETURN_URL_MAX_LENGTH } from './checkout.request.dto';

describe('return URL checks', () => {
  // Each case: what it is, the value, whether it is a return URL (any scheme), whether it is an https one.
  it.each([
    ['an https URL', 'https://shop.example/thanks', true, true],
    ['an http URL', 'http://shop.example/thanks', true, false],
    ["an app's own scheme with a host", 'myapp://callback', true, false],
    ['a URL without a host', 'mailto:buyer@example.com', false, false],
    ['a URL with a user and password', 'https://user:secret@shop.example/', false, false],
    ['a URL with a user', 'https://user@shop.example/', false, false],
    ['a relative path', '/thanks', false, false],
    ['text', 'not a url', false, false],
    ['a URL over the length limit', `https://shop.example/${'a'.repeat(RETURN_URL_MAX_LENGTH)}`, false, false],
  ])('%s', (_label, value, shape, https) => {
    expect(isReturnUrlShape(value)).toBe(shape);
    expect(isHttpsUrl(value)).toBe(https);
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, { href: 'https://shop.example/' }]) {
      expect(isReturnUrlShape(value)).toBe(false);
      expect(isHttpsUrl(value)).toBe(false);
    }
  });
});
