import nodemailer from 'nodemailer';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SettingsRepo, type SettingsRow } from '#src/modules/settings/settings.repo.js';
import { isSmtpConfigured } from '#src/modules/settings/settings.service.js';
import { MailRepo, type MailOutboxRow } from './mail.repo.js';
import { type MailData, type MailTemplate, missingKeys, renderMail } from './mail.templates.js';

export type { MailData, MailLocale, MailTemplate } from './mail.templates.js';

export interface OutgoingMail {
  to: string;
  template: MailTemplate;
  /** The recipient's language (en, ko, pl); English when unknown. */
  locale?: string | null | undefined;
  data?: MailData;
}

/** A file sent with a mail (POST /mail/support); only `sendNow` takes them, the queue does not. */
export interface MailAttachment {
  filename: string;
  content: string;
  contentType: string;
}

export const SEND_FAILED_DETAIL = 'Error sending email';

/** A mail the SMTP server did not take: `reason` is the server's answer (never the password). */
export class MailError extends HttpProblem {
  readonly reason: string;

  constructor(reason: string) {
    super(400, 'mail.send_failed', `${SEND_FAILED_DETAIL}: ${reason}`);
    this.name = 'MailError';
    this.reason = reason;
  }
}

export const mailNotConfigured = () =>
  new HttpProblem(
    400,
    'mail.not_configured',
    'Outgoing mail is not configured: set the SMTP server, port and sender address in the settings.',
  );

export interface MailServiceOptions {
  /**
   * Extra trusted CA certificates for the SMTP server's TLS certificate (tests). Operators make a
   * private CA trusted with NODE_EXTRA_CA_CERTS (docs/mail.md).
   */
  ca?: string | Buffer;
  /** Connection, greeting and socket timeout. */
  timeoutMs?: number;
}

const REASON_MAX = 500;

/**
 * The one way Palisade sends mail. Senders queue mail in their own transaction (`enqueue`); the
 * mail job (`mail.job.ts`) delivers it with retries. `sendNow` sends at once and reports the
 * server's answer (POST /mail/test).
 */
export class MailService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly options: MailServiceOptions = {},
  ) {}

  async isConfigured(db: Db = this.db): Promise<boolean> {
    return isSmtpConfigured(await new SettingsRepo(db).get());
  }

  /**
   * Queues `mail` in the caller's transaction `tx`: it is sent only if `tx` commits (by the mail
   * job, with retries). Throws `mail.not_configured` (400) when SMTP is not configured, and an
   * Error when the template's data is incomplete (a programming error).
   */
  async enqueue(tx: Db, mail: OutgoingMail): Promise<void> {
    const data = mail.data ?? {};
    const missing = missingKeys(mail.template, data);
    if (missing.length > 0) throw new Error(`mail template ${mail.template} needs ${missing.join(', ')}`);
    if (!(await this.isConfigured(tx))) throw mailNotConfigured();
    await new MailRepo(tx).insert({
      to: mail.to,
      template: mail.template,
      locale: mail.locale ?? 'en',
      data: this.secrets.encrypt(JSON.stringify(data)),
    });
  }

  /** Sends `mail` now. Throws `mail.not_configured`, or a MailError with the server's reason. */
  async sendNow(mail: OutgoingMail, attachments: MailAttachment[] = []): Promise<void> {
    const row = await new SettingsRepo(this.db).get();
    if (!isSmtpConfigured(row)) throw mailNotConfigured();
    await this.#send(row, mail, attachments);
  }

  /** Sends one queued mail (the mail job); throws like `sendNow`. */
  async deliver(queued: MailOutboxRow): Promise<void> {
    const row = await new SettingsRepo(this.db).get();
    if (!isSmtpConfigured(row)) throw mailNotConfigured();
    const data = JSON.parse(this.secrets.decrypt(queued.data)) as MailData;
    await this.#send(row, { to: queued.to, template: queued.template as MailTemplate, locale: queued.locale, data });
  }

  async #send(row: SettingsRow, mail: OutgoingMail, attachments: MailAttachment[] = []): Promise<void> {
    const password = row.smtpPassword ? this.secrets.decrypt(row.smtpPassword) : '';
    const timeout = this.options.timeoutMs ?? 15_000;
    const transport = nodemailer.createTransport({
      host: row.smtpServer,
      port: row.smtpPort ?? 25,
      secure: row.smtpEncryption === 'tls',
      requireTLS: row.smtpEncryption === 'starttls',
      ignoreTLS: row.smtpEncryption === 'none',
      ...(row.smtpUser !== '' && { auth: { user: row.smtpUser, pass: password } }),
      ...(this.options.ca !== undefined && { tls: { ca: this.options.ca } }),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      logger: false,
      debug: false,
    });
    const { subject, text, html } = renderMail(mail.template, mail.locale ?? 'en', { ...mail.data, instance_name: row.instanceName });
    try {
      await transport.sendMail({
        from: { name: row.instanceName, address: row.smtpSender },
        to: mail.to,
        subject,
        text,
        ...(html === undefined ? {} : { html }),
        ...(attachments.length > 0 ? { attachments } : {}),
      });
    } catch (err) {
      throw new MailError(reasonOf(err, password));
    } finally {
      transport.close();
    }
  }
}

/** The SMTP server's answer (or the connection error), without the password. */
export function reasonOf(err: unknown, password: string): string {
  const e = err as { response?: unknown; message?: unknown };
  const raw = typeof e.response === 'string' && e.response !== '' ? e.response : typeof e.message === 'string' ? e.message : String(err);
  const clean = password === '' ? raw : raw.split(password).join('***');
  return clean.replace(/\s+/g, ' ').trim().slice(0, REASON_MAX);
}
