import { createContext, useContext, useEffect, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

/** A tiny history router: the app's paths are under /dashboard, links are real <a href> (open in new tab works). */
export const BASE = '/dashboard';

interface Location {
  path: string;
  query: URLSearchParams;
}

const read = (): Location => ({ path: window.location.pathname.replace(/^\/dashboard/, '') || '/', query: new URLSearchParams(window.location.search) });
const RouterContext = createContext<Location>(read());

export function navigate(to: string, replace = false): void {
  const url = `${BASE}${to === '/' ? '' : to}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event('paysplit:navigate'));
  window.scrollTo(0, 0);
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const update = () => setLocation(read());
    window.addEventListener('popstate', update);
    window.addEventListener('paysplit:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('paysplit:navigate', update);
    };
  }, []);
  return <RouterContext.Provider value={location}>{children}</RouterContext.Provider>;
}

export const useLocation = () => useContext(RouterContext);

/** Replaces the query string (filters live in the URL so a reload or a shared link keeps them). */
export function setQuery(values: Record<string, string | undefined>): void {
  const query = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(values)) {
    if (value) query.set(key, value);
    else query.delete(key);
  }
  const search = query.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${search ? `?${search}` : ''}`);
  window.dispatchEvent(new Event('paysplit:navigate'));
}

export function Link({ to, children, ...rest }: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a {...rest} href={`${BASE}${to === '/' ? '' : to}`} onClick={onClick}>
      {children}
    </a>
  );
}
