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
  /** The data key holding the mail's HTML part, rendered and sanitised by the sender (optional). */
  html?: string;
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
  /** Enrollment started by an administrator (docs/enrollment.md): the link to the enrollment page. */
  enrollment_start: {
    needs: ['first_name', 'url', 'expires_at'],
    text: {
      en: {
        subject: '{{instance_name}}: set up your account',
        text: 'Hello {{first_name}},\n\nan account was created for you on {{instance_name}}. Open this link to set your password and add your first VPN device:\n\n    {{url}}\n\nThe link can be used once and is valid until {{expires_at}} (UTC). If you did not expect this email, ignore it.\n',
      },
      ko: {
        subject: '{{instance_name}}: 계정 설정',
        text: '{{first_name}}님, 안녕하세요.\n\n{{instance_name}}에 계정이 만들어졌습니다. 아래 링크를 열어 비밀번호를 설정하고 첫 VPN 장치를 추가하세요:\n\n    {{url}}\n\n이 링크는 한 번만 사용할 수 있으며 {{expires_at}}(UTC)까지 유효합니다. 이 이메일을 예상하지 않았다면 무시하세요.\n',
      },
      pl: {
        subject: '{{instance_name}}: skonfiguruj swoje konto',
        text: 'Dzień dobry {{first_name}},\n\nw {{instance_name}} utworzono dla Ciebie konto. Otwórz ten link, aby ustawić hasło i dodać pierwsze urządzenie VPN:\n\n    {{url}}\n\nLinku można użyć tylko raz; jest ważny do {{expires_at}} (UTC). Jeśli nie spodziewasz się tej wiadomości, zignoruj ją.\n',
      },
    },
  },
  /** A password reset link (asked for on the login page, or sent by an administrator). */
  password_reset: {
    needs: ['first_name', 'url'],
    text: {
      en: {
        subject: '{{instance_name}}: reset your password',
        text: 'Hello {{first_name}},\n\nsomeone asked to reset the password of your {{instance_name}} account. Open this link to choose a new password:\n\n    {{url}}\n\nThe link can be used once and is valid for 1 hour. If you did not ask for this, ignore this email: your password stays as it is.\n',
      },
      ko: {
        subject: '{{instance_name}}: 비밀번호 재설정',
        text: '{{first_name}}님, 안녕하세요.\n\n{{instance_name}} 계정의 비밀번호 재설정이 요청되었습니다. 아래 링크를 열어 새 비밀번호를 정하세요:\n\n    {{url}}\n\n이 링크는 한 번만 사용할 수 있으며 1시간 동안 유효합니다. 요청하지 않았다면 이 이메일을 무시하세요. 비밀번호는 그대로 유지됩니다.\n',
      },
      pl: {
        subject: '{{instance_name}}: zresetuj hasło',
        text: 'Dzień dobry {{first_name}},\n\nktoś poprosił o zresetowanie hasła do Twojego konta w {{instance_name}}. Otwórz ten link, aby wybrać nowe hasło:\n\n    {{url}}\n\nLinku można użyć tylko raz; jest ważny przez 1 godzinę. Jeśli to nie Ty, zignoruj tę wiadomość: hasło się nie zmieni.\n',
      },
    },
  },
  /** POST /mail/support: support data and logs as attachments (docs/support.md). */
  support: {
    needs: ['admin', 'version'],
    text: {
      en: {
        subject: '{{instance_name}}: support data',
        text: 'Support data of {{instance_name}} (Palisade {{version}}), sent by the administrator {{admin}}.\n\nAttached: the configuration with every secret replaced by [redacted], and the latest log lines, redacted.\n',
      },
      ko: {
        subject: '{{instance_name}}: 지원 데이터',
        text: '관리자 {{admin}}님이 보낸 {{instance_name}}(Palisade {{version}})의 지원 데이터입니다.\n\n첨부: 모든 비밀 값을 [redacted]로 바꾼 구성과 비밀 값을 가린 최근 로그입니다.\n',
      },
      pl: {
        subject: '{{instance_name}}: dane dla wsparcia technicznego',
        text: 'Dane dla wsparcia technicznego z {{instance_name}} (Palisade {{version}}), wysłane przez administratora {{admin}}.\n\nW załącznikach: konfiguracja, w której każdy sekret zastąpiono przez [redacted], oraz ostatnie wiersze logów, również bez sekretów.\n',
      },
    },
  },
  /** The welcome email at the end of enrollment: the administrator's subject and Markdown (settings). */
  enrollment_welcome: {
    // The sender also gives `subject` (the configured one, or a default in the mail's language).
    needs: ['body'],
    html: 'body_html',
    text: {
      en: { subject: '{{subject}}', text: '{{body}}\n' },
      ko: { subject: '{{subject}}', text: '{{body}}\n' },
      pl: { subject: '{{subject}}', text: '{{body}}\n' },
    },
  },
  /** Gateway notifications (docs/gateways.md#notifications): a gateway disconnected longer than the threshold. */
  gateway_disconnected: {
    needs: ['gateway', 'location', 'since', 'url'],
    text: {
      en: {
        subject: '{{instance_name}}: gateway {{gateway}} of {{location}} is disconnected',
        text: 'The gateway {{gateway}} of the location {{location}} has been disconnected since {{since}} (UTC).\n\nDevices that connect through it may not reach the VPN. Check the gateway host and its agent:\n\n    {{url}}\n\nYou will get one more email when it is connected again (if reconnect notifications are on).\n',
      },
      ko: {
        subject: '{{instance_name}}: {{location}}의 게이트웨이 {{gateway}} 연결 끊김',
        text: '위치 {{location}}의 게이트웨이 {{gateway}}이(가) {{since}}(UTC)부터 연결이 끊겨 있습니다.\n\n이 게이트웨이를 통해 연결하는 장치는 VPN에 접속하지 못할 수 있습니다. 게이트웨이 호스트와 에이전트를 확인하세요:\n\n    {{url}}\n\n다시 연결되면 이메일을 한 번 더 보내 드립니다(재연결 알림이 켜져 있는 경우).\n',
      },
      pl: {
        subject: '{{instance_name}}: brama {{gateway}} lokalizacji {{location}} jest rozłączona',
        text: 'Brama {{gateway}} lokalizacji {{location}} jest rozłączona od {{since}} (UTC).\n\nUrządzenia łączące się przez nią mogą nie mieć dostępu do VPN. Sprawdź host bramy i jej agenta:\n\n    {{url}}\n\nGdy brama połączy się ponownie, dostaniesz jeszcze jedną wiadomość (jeśli powiadomienia o ponownym połączeniu są włączone).\n',
      },
    },
  },
  /** Gateway notifications: a gateway is connected again after a disconnect mail. */
  gateway_reconnected: {
    needs: ['gateway', 'location', 'since', 'url'],
    text: {
      en: {
        subject: '{{instance_name}}: gateway {{gateway}} of {{location}} is connected again',
        text: 'The gateway {{gateway}} of the location {{location}} is connected again since {{since}} (UTC).\n\n    {{url}}\n',
      },
      ko: {
        subject: '{{instance_name}}: {{location}}의 게이트웨이 {{gateway}} 다시 연결됨',
        text: '위치 {{location}}의 게이트웨이 {{gateway}}이(가) {{since}}(UTC)부터 다시 연결되었습니다.\n\n    {{url}}\n',
      },
      pl: {
        subject: '{{instance_name}}: brama {{gateway}} lokalizacji {{location}} znów jest połączona',
        text: 'Brama {{gateway}} lokalizacji {{location}} jest znów połączona od {{since}} (UTC).\n\n    {{url}}\n',
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

/** Subject and plain text of `template` in `locale` (English for an unknown one), and its HTML part if it has one. */
export function renderMail(template: MailTemplate, locale: string, data: MailData): Text & { html?: string } {
  const definition: TemplateDefinition = MAIL_TEMPLATES[template];
  const text = definition.text[isMailLocale(locale) ? locale : 'en'];
  const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (_, key: string) => data[key] ?? '');
  const html = definition.html === undefined ? undefined : data[definition.html];
  // A subject is one header line: values never break it.
  return { subject: fill(text.subject).replace(/[\r\n]+/g, ' '), text: fill(text.text), ...(html ? { html } : {}) };
}
