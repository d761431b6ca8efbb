/**
 * The document shell of every server-rendered page a person sees (hosted checkout, email landings):
 * the stylesheet and scripts come from the service's own origin (/assets/*, see security-headers.ts),
 * never inline. Modules render their own `<main>` content, with `chromeHeader` above it.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface HtmlPageOptions {
  /** Raw attributes for `<body>` (already escaped), e.g. ` class="full"`. */
  bodyAttributes?: string;
  /** Raw HTML before and after `<main>`. */
  header?: string;
  footer?: string;
  /** Same-origin script paths, loaded at the end of the body. */
  scripts?: string[];
  /** Same-origin stylesheet path (default: the shared /assets/pages.css). */
  stylesheet?: string;
  /** Sends no Referer from the page (a page whose links must not tell other sites where the person was). */
  noReferrer?: boolean;
}

/** The Paysplit bar above a page's content, e.g. "Paysplit secure checkout". */
export function chromeHeader(label: string): string {
  return `<header class="chrome"><img src="/favicon.svg" alt="" width="20" height="20"><span><strong>Paysplit</strong> ${escapeHtml(label)}</span></header>`;
}

export function htmlPage(title: string, main: string, options: HtmlPageOptions = {}): string {
  const scripts = (options.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}"></script>`).join('');
  const referrer = options.noReferrer ? '<meta name="referrer" content="no-referrer">' : '';
  const stylesheet = escapeHtml(options.stylesheet ?? '/assets/pages.css');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${referrer}
<title>${escapeHtml(title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${stylesheet}"></head>
<body${options.bodyAttributes ?? ''}>${options.header ?? ''}<main id="main">${main}</main>${options.footer ?? ''}${scripts}</body></html>`;
}
