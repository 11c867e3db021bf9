import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { findOAuthClientRow } from './provider.repo.js';

/** Why an authorization request cannot go back to the app. */
type Reason = 'disabled' | 'unknown' | 'redirect' | 'other';

type Language = 'en' | 'ko' | 'pl';

interface PageText {
  title: string;
  reasons: Record<Reason, string>;
  next: string;
  code: string;
}

/** The page's sentences in the console's languages (the browser's Accept-Language picks one). */
const TEXT: Record<Language, PageText> = {
  en: {
    title: 'Sign-in failed',
    reasons: {
      disabled: 'This app is disabled: an administrator has turned off signing in to it with Palisade.',
      unknown: 'This app is not registered with Palisade, so it cannot sign you in.',
      redirect: 'This app asked to send you back to an address it has not registered with Palisade, so the sign-in was stopped.',
      other: 'The app’s sign-in request could not be completed.',
    },
    next: 'Go back to the app and try again later, or ask your administrator.',
    code: 'Error code',
  },
  ko: {
    title: '로그인 실패',
    reasons: {
      disabled: '이 앱은 비활성화되어 있습니다. 관리자가 Palisade로 이 앱에 로그인하는 기능을 껐습니다.',
      unknown: '이 앱은 Palisade에 등록되어 있지 않아 로그인할 수 없습니다.',
      redirect: '이 앱이 Palisade에 등록하지 않은 주소로 돌려보내도록 요청하여 로그인이 중단되었습니다.',
      other: '앱의 로그인 요청을 완료할 수 없습니다.',
    },
    next: '앱으로 돌아가 나중에 다시 시도하거나 관리자에게 문의하세요.',
    code: '오류 코드',
  },
  pl: {
    title: 'Logowanie nie powiodło się',
    reasons: {
      disabled: 'Ta aplikacja jest wyłączona: administrator wyłączył logowanie do niej przez Palisade.',
      unknown: 'Ta aplikacja nie jest zarejestrowana w Palisade, więc nie może Cię zalogować.',
      redirect:
        'Ta aplikacja poprosiła o odesłanie Cię pod adres, którego nie zarejestrowała w Palisade, więc logowanie zostało przerwane.',
      other: 'Nie udało się dokończyć żądania logowania aplikacji.',
    },
    next: 'Wróć do aplikacji i spróbuj ponownie później albo zapytaj administratora.',
    code: 'Kod błędu',
  },
};

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The console's colours and card (apps/web global.css), light and dark. */
const STYLE = `:root{color-scheme:light dark;--bg:#f3f5f8;--surface:#fff;--border:#e0e4ea;--text:#14171c;--muted:#5b6472;--error:#cf2e2e}
@media (prefers-color-scheme:dark){:root{--bg:#0e1116;--surface:#161a21;--border:#2a303a;--text:#e9ecf1;--muted:#9aa3b2;--error:#ff6b6b}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:28rem;margin:1.5rem;padding:2rem;background:var(--surface);border:1px solid var(--border);border-radius:14px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 1px 3px rgba(16,24,40,.08)}
.brand{margin:0 0 1.25rem;font-weight:600;color:var(--muted)}h1{margin:0 0 .75rem;font-size:1.25rem;color:var(--error)}
p{margin:0 0 .75rem}.code{margin:1.25rem 0 0;font-size:.85em;color:var(--muted)}code{font-family:ui-monospace,Menlo,Consolas,monospace}`;

async function reasonOf(db: Db, ctx: KoaContextWithOIDC, error: string): Promise<Reason> {
  if (error === 'invalid_redirect_uri') return 'redirect';
  if (error !== 'invalid_client') return 'other';
  const params = ctx.oidc?.params as { client_id?: unknown } | undefined;
  const clientId = params?.client_id ?? ctx.query?.client_id;
  if (typeof clientId !== 'string' || !clientId || clientId.length > 255) return 'unknown';
  const app = await findOAuthClientRow(db, clientId);
  return app && !app.enabled ? 'disabled' : 'unknown';
}

async function instanceName(db: Db): Promise<string> {
  return (await new SettingsRepo(db).get()).instanceName || 'Palisade';
}

/**
 * oidc-provider's `renderError`: the page a browser sees when an authorization request cannot go
 * back to the app (an unknown or disabled app, an unregistered redirect URI: the provider never
 * redirects to an address the app did not register). One plain sentence in the browser's language
 * in the console's look, and the protocol's error code for the administrator.
 */
export function errorPageRenderer(db: Db): NonNullable<Configuration['renderError']> {
  return async (ctx, out) => {
    const error = String(out.error ?? 'server_error');
    const language = (ctx.acceptsLanguages('en', 'ko', 'pl') || 'en') as Language;
    const text = TEXT[language];
    // The page must render even when the database does not answer: then the general sentence.
    const [reason, name] = await Promise.all([
      reasonOf(db, ctx, error).catch((): Reason => 'other'),
      instanceName(db).catch(() => 'Palisade'),
    ]);
    ctx.type = 'html';
    ctx.body = `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(text.title)} · ${escapeHtml(name)}</title><style>${STYLE}</style></head><body><main><p class="brand">${escapeHtml(name)}</p><h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text.reasons[reason])}</p><p>${escapeHtml(text.next)}</p><p class="code">${escapeHtml(text.code)}: <code>${escapeHtml(error)}</code></p></main></body></html>`;
  };
}
