import MarkdownIt from 'markdown-it';

/**
 * The administrator's Markdown rendered as the console renders it (docs/enrollment.md): raw HTML
 * is shown as text, links and images only to http(s) and mail addresses (never `javascript:` or
 * `data:`), no automatic links.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
markdown.validateLink = (url: string) => /^(https?:|mailto:)/i.test(url.trim());

export function renderWelcomeMarkdown(source: string): string {
  return markdown.render(source);
}

/** The HTML part of the welcome email: the rendered Markdown in a minimal document. */
export function welcomeEmailHtml(source: string, lang: string): string {
  return `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"></head><body>\n${renderWelcomeMarkdown(source)}</body></html>\n`;
}

/** What the welcome email says: its own Markdown, or the welcome message when the settings reuse it. */
export function welcomeEmailSource(settings: {
  enrollmentUseWelcomeMessageAsEmail: boolean;
  enrollmentWelcomeMessage: string;
  enrollmentWelcomeEmail: string;
}): string {
  return settings.enrollmentUseWelcomeMessageAsEmail ? settings.enrollmentWelcomeMessage : settings.enrollmentWelcomeEmail;
}

const DEFAULT_SUBJECT: Record<string, string> = {
  en: 'Welcome to {{instance_name}}',
  ko: '{{instance_name}}에 오신 것을 환영합니다',
  pl: 'Witamy w {{instance_name}}',
};

/** The configured subject, or a default in the mail's language. */
export function welcomeEmailSubject(configured: string, locale: string, instanceName: string): string {
  const subject = configured.trim() !== '' ? configured : (DEFAULT_SUBJECT[locale] ?? DEFAULT_SUBJECT.en ?? '');
  return subject.replaceAll('{{instance_name}}', instanceName);
}
