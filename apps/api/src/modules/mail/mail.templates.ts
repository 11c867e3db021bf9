/**
 * Every mail Palisade sends, in each console language. `{{key}}` takes the value of `key` from the
 * mail's data; `instance_name` is always filled from the settings. A template lists the keys its
 * sender must give (`needs`), checked when the mail is queued, not when it is sent.
 */
export const MAIL_LOCALES = ['en', 'ko', 'pl'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

interface Text {
  subject: string;
  text: string;
}

interface TemplateDefinition {
  needs: readonly string[];
  text: Record<MailLocale, Text>;
}

export const MAIL_TEMPLATES = {
  /** POST /mail/test. */
  test: {
    needs: [],
    text: {
      en: {
        subject: '{{instance_name}}: test email',
        text: 'This is a test email from {{instance_name}}.\n\nIf you can read it, outgoing mail is configured correctly.\n',
      },
      ko: {
        subject: '{{instance_name}}: 테스트 이메일',
        text: '{{instance_name}}에서 보낸 테스트 이메일입니다.\n\n이 메일을 읽을 수 있다면 발신 메일이 올바르게 설정된 것입니다.\n',
      },
      pl: {
        subject: '{{instance_name}}: wiadomość testowa',
        text: 'To jest wiadomość testowa z {{instance_name}}.\n\nJeśli ją czytasz, poczta wychodząca jest skonfigurowana poprawnie.\n',
      },
    },
  },
  /** An email code for multi-factor authentication (enabling the method or signing in). */
  mfa_email_code: {
    needs: ['code'],
    text: {
      en: {
        subject: '{{instance_name}}: your verification code {{code}}',
        text: 'Your verification code is:\n\n    {{code}}\n\nIt is valid for 10 minutes and can be used once. If you did not try to sign in, someone may know your password: change it.\n',
      },
      ko: {
        subject: '{{instance_name}}: 인증 코드 {{code}}',
        text: '인증 코드:\n\n    {{code}}\n\n이 코드는 10분 동안 유효하며 한 번만 사용할 수 있습니다. 로그인을 시도하지 않았다면 다른 사람이 비밀번호를 알고 있을 수 있으니 비밀번호를 변경하세요.\n',
      },
      pl: {
        subject: '{{instance_name}}: Twój kod weryfikacyjny {{code}}',
        text: 'Twój kod weryfikacyjny:\n\n    {{code}}\n\nJest ważny przez 10 minut i można go użyć tylko raz. Jeśli to nie Ty próbujesz się zalogować, ktoś może znać Twoje hasło: zmień je.\n',
      },
    },
  },
} as const satisfies Record<string, TemplateDefinition>;

export type MailTemplate = keyof typeof MAIL_TEMPLATES;
export type MailData = Record<string, string>;

export const isMailLocale = (value: string | null | undefined): value is MailLocale =>
  (MAIL_LOCALES as readonly string[]).includes(value ?? '');

/** The keys `template` needs that `data` lacks. */
export const missingKeys = (template: MailTemplate, data: MailData): string[] =>
  MAIL_TEMPLATES[template].needs.filter((key) => typeof data[key] !== 'string' || data[key] === '');

/** Subject and plain text of `template` in `locale` (English for an unknown one). */
export function renderMail(template: MailTemplate, locale: string, data: MailData): Text {
  const text = MAIL_TEMPLATES[template].text[isMailLocale(locale) ? locale : 'en'];
  const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (_, key: string) => data[key] ?? '');
  // A subject is one header line: values never break it.
  return { subject: fill(text.subject).replace(/[\r\n]+/g, ' '), text: fill(text.text) };
}
