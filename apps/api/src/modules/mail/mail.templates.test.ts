import { describe, expect, it } from 'vitest';
import { reasonOf } from './mail.service.js';
import { MAIL_LOCALES, MAIL_TEMPLATES, type MailTemplate, missingKeys, renderMail } from './mail.templates.js';

describe('mail templates', () => {
  it('has every template in every console language, each using the keys it needs', () => {
    for (const name of Object.keys(MAIL_TEMPLATES) as MailTemplate[]) {
      for (const locale of MAIL_LOCALES) {
        const text = MAIL_TEMPLATES[name].text[locale];
        expect(text.subject.length, `${name}/${locale}`).toBeGreaterThan(0);
        for (const key of MAIL_TEMPLATES[name].needs) expect(text.text, `${name}/${locale}`).toContain(`{{${key}}}`);
      }
    }
  });

  it('renders in the recipient language, English when unknown, with a one-line subject', () => {
    expect(renderMail('mfa_email_code', 'pl', { code: '123456', instance_name: 'Acme' }).subject).toBe(
      'Acme: Twój kod weryfikacyjny 123456',
    );
    expect(renderMail('mfa_email_code', 'de', { code: '123456', instance_name: 'Acme' }).subject).toBe(
      'Acme: your verification code 123456',
    );
    expect(renderMail('test', 'en', { instance_name: 'Evil\r\nBcc: x@example.com' }).subject).toBe('Evil Bcc: x@example.com: test email');
    expect(missingKeys('mfa_email_code', {})).toEqual(['code']);
  });

  it('never puts the SMTP password into a reason', () => {
    expect(reasonOf(new Error('Invalid login for hunter2-Secret\nat server'), 'hunter2-Secret')).toBe('Invalid login for *** at server');
    expect(reasonOf({ response: '535 5.7.8 Authentication credentials invalid', message: 'Invalid login' }, 'x')).toBe(
      '535 5.7.8 Authentication credentials invalid',
    );
  });
});
