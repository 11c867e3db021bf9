import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface E2eSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** The 6-digit code of the `n`th received mail (1-based), waiting for it to arrive. */
  codeOfMail(n: number): Promise<string>;
  close(): Promise<void>;
}

/** A real SMTP server (the `smtp-server` package) on loopback that keeps what it receives; no authentication. */
export async function startSmtpServer(): Promise<E2eSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    async codeOfMail(n) {
      await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n);
      const code = /\b(\d{6})\b/.exec(bodyOf(received[n - 1]?.raw ?? ''))?.[1];
      if (!code) throw new Error(`no code in mail ${n}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A received message's text body (quoted-printable or base64 decoded). */
export function bodyOf(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}
