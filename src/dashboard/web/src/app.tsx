import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api, data } from './api/client';
import type { Me } from './api/types';
import { Icon, Logo, type IconName } from './components/icons';
import { Button, Loading } from './components/ui';
import { Link, navigate, RouterProvider, useLocation } from './lib/router';
import { LoginPage, MagicLinkPage, SignupPage } from './pages/auth';
import { HomePage } from './pages/home';
import { ApiKeysPage } from './pages/api-keys';
import { WebhooksPage } from './pages/webhooks';
import { SplitsPage, SplitDetailPage } from './pages/splits';
import { ApprovalsPage } from './pages/approvals';
import { CheckoutPage } from './pages/checkout';
import { PayoutsPage } from './pages/payouts';
import { EarningsPage } from './pages/earnings';
import { BillsPage } from './pages/bills';

interface Area {
  path: string;
  label: string;
  icon: IconName;
  for: Me['kind'][];
}

const AREAS: Area[] = [
  { path: '/', label: 'Home', icon: 'home', for: ['company'] },
  { path: '/splits', label: 'Splits', icon: 'split', for: ['company'] },
  { path: '/approvals', label: 'Approvals', icon: 'inbox', for: ['company'] },
  { path: '/bills', label: 'Bills', icon: 'wallet', for: ['company'] },
  { path: '/checkout', label: 'Checkout', icon: 'cart', for: ['company'] },
  { path: '/payouts', label: 'Payouts', icon: 'send', for: ['company'] },
  { path: '/api-keys', label: 'API keys', icon: 'key', for: ['company'] },
  { path: '/webhooks', label: 'Webhooks', icon: 'webhook', for: ['company'] },
  { path: '/earnings', label: 'Earnings', icon: 'wallet', for: ['contractor'] },
];

const PUBLIC = new Set(['/login', '/signup', '/magic-link']);

export function App() {
  return (
    <RouterProvider>
      <Session />
    </RouterProvider>
  );
}

/** Who is signed in (GET /api/auth/me through the cookie); signed-out visitors get the login page. */
function Session() {
  const { path } = useLocation();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    try {
      setMe(await data<Me>(api.GET('/api/auth/me')));
    } catch {
      setMe(null);
    }
  }, []);
  useEffect(() => {
    void refresh();
    const onUnauthorized = () => setMe(null);
    window.addEventListener('paysplit:unauthorized', onUnauthorized);
    return () => window.removeEventListener('paysplit:unauthorized', onUnauthorized);
  }, [refresh]);

  if (path === '/magic-link') return <MagicLinkPage onSignedIn={refresh} />;
  if (me === undefined) return <Splash />;
  if (path === '/signup') return <SignupPage onSignedIn={refresh} />;
  if (me === null || path === '/login') return <LoginPage onSignedIn={refresh} />;
  return <Shell me={me} onSignedOut={() => setMe(null)} />;
}

function Splash() {
  return (
    <div className="auth">
      <div className="card">
        <Loading label="Signing in" />
      </div>
    </div>
  );
}

function Shell({ me, onSignedOut }: { me: Me; onSignedOut: () => void }) {
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const areas = AREAS.filter((area) => area.for.includes(me.kind));
  const home = me.kind === 'contractor' ? '/earnings' : '/';
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (PUBLIC.has(path) || (me.kind === 'contractor' && path === '/')) navigate(home, true);
  }, [path, me.kind, home]);
  const current = areas.find((area) => (area.path === '/' ? path === '/' : path === area.path || path.startsWith(`${area.path}/`)));
  useEffect(() => {
    document.title = `${current?.label ?? 'Dashboard'} · Paysplit`;
  }, [current]);
  const logout = async () => {
    setLeaving(true);
    try {
      await api.POST('/api/auth/logout');
    } finally {
      setLeaving(false);
      onSignedOut();
      navigate('/login', true);
    }
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <header className="topbar">
          <Link className="brand" to={home}>
            <Logo size={24} /> Paysplit
          </Link>
          <button className="btn btn-ghost" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen((open) => !open)} style={{ color: '#fff' }}>
            <Icon name={menuOpen ? 'close' : 'menu'} /> Menu
          </button>
        </header>
        <aside id="sidebar" className={`sidebar${menuOpen ? ' open' : ''}`}>
          <div className="sidebar-inner">
            <Link className="brand" to={home}>
              <Logo /> Paysplit
            </Link>
            <nav aria-label="Dashboard">
              <ul className="nav">
                {areas.map((area) => (
                  <li key={area.path}>
                    <Link to={area.path} aria-current={current === area ? 'page' : undefined}>
                      <Icon name={area.icon} /> {area.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="sidebar-foot">
              <div className="who">{me.companyName}</div>
              <div className="email">{me.email}</div>
              <Button small icon="logout" busy={leaving} onClick={() => void logout()}>
                Sign out
              </Button>
            </div>
          </div>
        </aside>
        <main id="main" className="main" tabIndex={-1}>
          <Route path={path} me={me} />
        </main>
      </div>
    </>
  );
}

function Route({ path, me }: { path: string; me: Me }): ReactNode {
  const split = /^\/splits\/([^/]+)$/.exec(path);
  if (split) return <SplitDetailPage id={decodeURIComponent(split[1]!)} />;
  switch (path) {
    case '/':
      return <HomePage me={me} />;
    case '/api-keys':
      return <ApiKeysPage />;
    case '/webhooks':
      return <WebhooksPage />;
    case '/splits':
      return <SplitsPage />;
    case '/approvals':
      return <ApprovalsPage />;
    case '/bills':
      return <BillsPage />;
    case '/checkout':
      return <CheckoutPage />;
    case '/payouts':
      return <PayoutsPage />;
    case '/earnings':
      return <EarningsPage me={me} />;
    default:
      return (
        <div className="panel">
          <h1>Page not found</h1>
          <p className="muted">
            There is nothing at this address. <Link to="/">Go to Home</Link>
          </p>
        </div>
      );
  }
}
