import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { api, data, page } from './api/client';
import type { Me } from './api/types';
import { Icon, Logo } from './components/icons';
import { Button, Loading } from './components/ui';
import { Link, navigate, RouterProvider, useLocation } from './lib/router';
import { LoginPage, MagicLinkPage, SignupPage } from './pages/auth';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/password-reset';
import { HomePage } from './pages/home';
import { ApiKeysPage } from './pages/api-keys';
import { WebhooksPage } from './pages/webhooks';
import { SplitsPage, SplitDetailPage } from './pages/splits';
import { ApprovalsPage } from './pages/approvals';
import { CheckoutPage } from './pages/checkout';
import { PayoutsPage } from './pages/payouts';
import { EarningsPage } from './pages/earnings';
import { areasFor, canSee, homeOf, partiesOf, type CompanyFacts, type Viewer } from './lib/access';
import { SplitFormPage } from './pages/split-form';
import { BillsPage } from './pages/bills';
import { BalancePage } from './pages/balance';
import { SandboxBanner } from './components/sandbox-banner';
import { TeamPage } from './pages/team';
import { CompanySwitcher } from './components/company-switcher';

const PUBLIC = new Set(['/login', '/signup', '/magic-link', '/forgot-password', '/reset-password']);

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
  const [facts, setFacts] = useState<CompanyFacts | null>(null);
  // Only the latest refresh counts: a sign-in or company switch while the first load is under way must not be
  // overwritten by the older answer (issue 30: a magic link opened in a browser signed in as someone else).
  const latest = useRef(0);
  const refresh = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const who = await data<Me>(api.GET('/api/auth/me'));
      const whatDone = who.kind === 'company' ? await companyFacts() : null;
      if (mine !== latest.current) return;
      setFacts(whatDone);
      setMe(who);
    } catch {
      if (mine === latest.current) setMe(null);
    }
  }, []);
  useEffect(() => {
    void refresh();
    const onUnauthorized = () => setMe(null);
    window.addEventListener('paysplit:unauthorized', onUnauthorized);
    return () => window.removeEventListener('paysplit:unauthorized', onUnauthorized);
  }, [refresh]);

  if (path === '/magic-link') return <MagicLinkPage onSignedIn={refresh} />;
  // Issue 29 item 9: forgot password, whoever is signed in in this browser (a reset signs every session out).
  if (path === '/forgot-password') return <ForgotPasswordPage />;
  if (path === '/reset-password') return <ResetPasswordPage />;
  if (me === undefined) return <Splash />;
  if (path === '/signup') return <SignupPage onSignedIn={refresh} />;
  if (me === null || path === '/login') return <LoginPage onSignedIn={refresh} />;
  return <Shell viewer={{ me, parties: partiesOf(me, facts) }} onSignedOut={() => setMe(null)} onChanged={() => void refresh()} />;
}

/** What the company has done, which decides whether it is shown the SME's pages, the enterprise's, or both (lib/access.ts). */
async function companyFacts(): Promise<CompanyFacts> {
  const [sent, received, contacts] = await Promise.all([
    page<unknown[]>(api.GET('/api/commerce/splits/outgoing', { params: { query: { limit: 1 } } })),
    page<unknown[]>(api.GET('/api/commerce/splits/incoming', { params: { query: { limit: 1 } } })),
    data<unknown[]>(api.GET('/api/commerce/business-profiles')),
  ]);
  return { splitsSent: sent.meta?.total ?? sent.data.length, splitsReceived: received.meta?.total ?? received.data.length, apContacts: contacts.length };
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

function Shell({ viewer, onSignedOut, onChanged }: { viewer: Viewer; onSignedOut: () => void; onChanged: () => void }) {
  const { me } = viewer;
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const areas = areasFor(viewer);
  const home = homeOf(viewer);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (PUBLIC.has(path) || (home !== '/' && path === '/')) navigate(home, true);
  }, [path, home]);
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
              <CompanySwitcher me={me} />
              <div className="email">{me.email}</div>
              <Button small icon="logout" busy={leaving} onClick={() => void logout()}>
                Sign out
              </Button>
            </div>
          </div>
        </aside>
        <main id="main" className="main" tabIndex={-1}>
          <SandboxBanner />
          {canSee(viewer, path) ? <Route path={path} viewer={viewer} onChanged={onChanged} /> : <NotForYou home={home} />}
        </main>
      </div>
    </>
  );
}

function Route({ path, viewer, onChanged }: { path: string; viewer: Viewer; onChanged: () => void }): ReactNode {
  const { me } = viewer;
  if (path === '/splits/new') return <SplitFormPage viewer={viewer} onSaved={onChanged} />;
  const edit = /^\/splits\/([^/]+)\/edit$/.exec(path);
  if (edit) return <SplitFormPage viewer={viewer} id={decodeURIComponent(edit[1]!)} onSaved={onChanged} />;
  const split = /^\/splits\/([^/]+)$/.exec(path);
  if (split) return <SplitDetailPage id={decodeURIComponent(split[1]!)} viewer={viewer} />;
  switch (path) {
    case '/':
      return <HomePage me={me} viewer={viewer} />;
    case '/api-keys':
      return <ApiKeysPage />;
    case '/webhooks':
      return <WebhooksPage />;
    case '/splits':
      return <SplitsPage viewer={viewer} />;
    case '/approvals':
      return <ApprovalsPage me={me} viewer={viewer} />;
    case '/bills':
      return <BillsPage viewer={viewer} />;
    case '/checkout':
      return <CheckoutPage viewer={viewer} />;
    case '/payouts':
      return <PayoutsPage viewer={viewer} />;
    case '/earnings':
      return <EarningsPage me={me} />;
    case '/balance':
      return <BalancePage viewer={viewer} />;
    case '/team':
      return <TeamPage viewer={viewer} />;
    default:
      return (
        <div className="panel">
          <h1>Page not found</h1>
          <p className="muted">
            There is nothing at this address. <Link to={homeOf(viewer)}>Go to your first page</Link>
          </p>
        </div>
      );
  }
}

/** A page another party uses (lib/access.ts): said plainly, never the other party's buttons. */
function NotForYou({ home }: { home: string }) {
  return (
    <div className="panel" role="alert">
      <h1>Not available to your account</h1>
      <p className="muted">
        This page belongs to another kind of account. <Link to={home}>Go to your first page</Link>
      </p>
    </div>
  );
}
