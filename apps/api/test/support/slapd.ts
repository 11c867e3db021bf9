/**
 * A private OpenLDAP server for tests (ENVIRONMENT.md): its own config, database and certificates
 * in a temp dir, loaded with `slapadd` before it starts, listening on 127.0.0.1 only, stopped by
 * its PID. Needs `slapd` and `ldap-utils` (`apt-get install -y slapd ldap-utils`; run-tests.sh
 * installs them).
 *
 * Layout (suffix `dc=example,dc=com` unless given):
 * - `cn=admin,<suffix>` the root DN (password `rootPassword`), usable as the bind user;
 * - `ou=people,<suffix>` users (`peopleBase`), `ou=groups,<suffix>` groups (`groupsBase`);
 * - the memberof overlay keeps `memberOf` on users for groups' `member` values, as AD does.
 *
 * `ad: true` loads a small schema with Active Directory's names: object classes `user` (users,
 * with `sAMAccountName`, `userPrincipalName`, `unicodePwd`) and `group` (with `member`), so the AD
 * attribute settings can be tested against a real server.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SLAPD_BIN = ['/usr/sbin/slapd', 'slapd'];
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';

export interface SlapdUser {
  /** The RDN value and `uid` (`sAMAccountName` in AD mode). */
  uid: string;
  password: string;
  givenName?: string;
  sn?: string;
  mail?: string;
}

export interface SlapdGroup {
  cn: string;
  /** Member uids (users under `peopleBase`). */
  members: string[];
}

export interface SlapdOptions {
  suffix?: string;
  rootPassword?: string;
  users?: SlapdUser[];
  groups?: SlapdGroup[];
  /** More LDIF (add records) loaded with slapadd after the base entries. */
  ldif?: string;
  /** Generate a throw-away CA and a server certificate; the server offers StartTLS and ldaps. */
  tls?: boolean;
  /** Active Directory names (object classes `user` / `group`, `sAMAccountName`). */
  ad?: boolean;
  /** How long to wait for the server to accept connections (default 15 s). */
  startTimeoutMs?: number;
}

export interface Slapd {
  /** `ldap://127.0.0.1:<port>` (StartTLS on it when `tls`). */
  url: string;
  /** `ldaps://127.0.0.1:<port>` when `tls`. */
  ldapsUrl: string | undefined;
  port: number;
  suffix: string;
  rootDn: string;
  rootPassword: string;
  peopleBase: string;
  groupsBase: string;
  /** The PEM CA certificate that signed the server's certificate (when `tls`). */
  caCert: string | undefined;
  /** The DN of a user under `peopleBase` (`uid=<uid>` / `cn=<uid>` in AD mode). */
  userDn(uid: string): string;
  groupDn(cn: string): string;
  /** Runs `ldapmodify -a` as the root DN (add records, or `changetype:` records). */
  modify(ldif: string): Promise<void>;
  /** `ldapsearch` as the root DN: the LDIF output. */
  search(base: string, filter: string, attributes?: string[]): Promise<string>;
  stop(): Promise<void>;
}

export function slapdBinary(): string | undefined {
  for (const bin of SLAPD_BIN) {
    try {
      execFileSync(bin, ['-VV'], { stdio: 'pipe' });
      return bin;
    } catch (e) {
      // `slapd -VV` exits non-zero after printing its version; a missing binary throws ENOENT.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return bin;
    }
  }
  return undefined;
}

const AD_SCHEMA = `
attributetype ( 1.3.6.1.4.1.99999.1.1 NAME 'sAMAccountName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.99999.1.2 NAME 'userPrincipalName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.99999.1.3 NAME 'unicodePwd' SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.99999.1.4 NAME 'userAccountControl' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.99999.2.1 NAME 'user' SUP inetOrgPerson STRUCTURAL MAY ( sAMAccountName $ userPrincipalName $ unicodePwd $ userAccountControl ) )
objectclass ( 1.3.6.1.4.1.99999.2.2 NAME 'group' SUP top STRUCTURAL MUST cn MAY ( member $ sAMAccountName $ description ) )
`;

/** A TCP port free on 127.0.0.1 now (slapd cannot listen on port 0; a clash is retried). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1');
  });

function makeCertificates(dir: string): void {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-days', '2', '-subj', '/CN=Palisade LDAP test CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl('req', ...ec, '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr'));
  writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial'],
    ...['-days', '2', '-extfile', file('ext.cnf'), '-out', file('server.pem')],
  );
}

function baseLdif(o: Required<Pick<SlapdOptions, 'suffix' | 'users' | 'groups' | 'ad'>>, userDn: (uid: string) => string): string {
  const dc = /^dc=([^,]+)/i.exec(o.suffix)?.[1] ?? 'example';
  const entries = [
    `dn: ${o.suffix}\nobjectClass: dcObject\nobjectClass: organization\ndc: ${dc}\no: ${dc}`,
    `dn: ou=people,${o.suffix}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${o.suffix}\nobjectClass: organizationalUnit\nou: groups`,
  ];
  for (const u of o.users) {
    // slapadd runs no overlay: the loaded users get their memberOf values here.
    const memberOf = o.groups.filter((g) => g.members.includes(u.uid)).map((g) => `memberOf: cn=${g.cn},ou=groups,${o.suffix}`);
    const given = u.givenName ?? u.uid;
    const sn = u.sn ?? 'Tester';
    const lines = [
      `dn: ${userDn(u.uid)}`,
      ...(o.ad
        ? ['objectClass: user', `cn: ${u.uid}`, `sAMAccountName: ${u.uid}`]
        : ['objectClass: inetOrgPerson', `uid: ${u.uid}`, `cn: ${given} ${sn}`]),
      `givenName: ${given}`,
      `sn: ${sn}`,
      `mail: ${u.mail ?? `${u.uid}@example.com`}`,
      `userPassword: ${u.password}`,
      ...memberOf,
    ];
    entries.push(lines.join('\n'));
  }
  for (const g of o.groups) {
    const lines = [`dn: cn=${g.cn},ou=groups,${o.suffix}`, `objectClass: ${o.ad ? 'group' : 'groupOfNames'}`, `cn: ${g.cn}`];
    // groupOfNames needs a member: the suffix stands in for "nobody" (as OpenLDAP setups do).
    const members = g.members.length > 0 ? g.members.map(userDn) : o.ad ? [] : [o.suffix];
    for (const m of members) lines.push(`member: ${m}`);
    entries.push(lines.join('\n'));
  }
  return `${entries.join('\n\n')}\n`;
}

function config(dir: string, o: { suffix: string; rootDn: string; rootPassword: string; tls: boolean; ad: boolean }): string {
  const schemas = ['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include ${SCHEMA_DIR}/${s}.schema`);
  if (o.ad) schemas.push(`include ${join(dir, 'ad.schema')}`);
  return [
    ...schemas,
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    `modulepath ${MODULE_DIR}`,
    'moduleload back_mdb',
    'moduleload memberof',
    ...(o.tls
      ? [
          `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
          `TLSCertificateFile ${join(dir, 'server.pem')}`,
          `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
        ]
      : []),
    'database mdb',
    'maxsize 1073741824',
    `suffix "${o.suffix}"`,
    `rootdn "${o.rootDn}"`,
    `rootpw ${o.rootPassword}`,
    `directory ${join(dir, 'db')}`,
    'index objectClass eq',
    'index uid,cn,mail eq',
    ...(o.ad ? ['index sAMAccountName eq'] : []),
    'index member,memberOf eq',
    'overlay memberof',
    `memberof-group-oc ${o.ad ? 'group' : 'groupOfNames'}`,
    'memberof-member-ad member',
    'memberof-memberof-ad memberOf',
    'memberof-refint true',
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by self write by users read by anonymous auth',
    '',
  ].join('\n');
}

/** Starts a private slapd; call `stop()` in afterAll. */
export async function startSlapd(options: SlapdOptions = {}): Promise<Slapd> {
  const bin = slapdBinary();
  if (!bin) throw new Error('slapd is not installed: apt-get install -y slapd ldap-utils');
  const suffix = options.suffix ?? 'dc=example,dc=com';
  const rootPassword = options.rootPassword ?? 'root-Secret-1';
  const rootDn = `cn=admin,${suffix}`;
  const ad = options.ad ?? false;
  const tls = options.tls ?? false;
  const peopleBase = `ou=people,${suffix}`;
  const groupsBase = `ou=groups,${suffix}`;
  const userDn = (uid: string) => `${ad ? 'cn' : 'uid'}=${uid},${peopleBase}`;
  const groupDn = (cn: string) => `cn=${cn},${groupsBase}`;

  const dir = mkdtempSync(join(tmpdir(), 'palisade-slapd-'));
  execFileSync('mkdir', ['-p', join(dir, 'db')]);
  if (ad) writeFileSync(join(dir, 'ad.schema'), AD_SCHEMA);
  if (tls) makeCertificates(dir);
  const conf = join(dir, 'slapd.conf');
  writeFileSync(conf, config(dir, { suffix, rootDn, rootPassword, tls, ad }));
  const ldif =
    baseLdif({ suffix, users: options.users ?? [], groups: options.groups ?? [], ad }, userDn) + (options.ldif ? `\n${options.ldif}` : '');
  writeFileSync(join(dir, 'base.ldif'), ldif);
  try {
    // -q: no checks while loading (fast for big fixtures); memberOf is then computed by the overlay only for later writes.
    execFileSync(bin.replace(/slapd$/, 'slapadd'), ['-q', '-f', conf, '-l', join(dir, 'base.ldif')], { stdio: 'pipe' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`slapadd failed: ${(e as { stderr?: Buffer }).stderr?.toString() ?? e}`);
  }

  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  let child: ChildProcess | undefined;
  let port = 0;
  let tlsPort = 0;
  let stderr = '';
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freePort();
    tlsPort = tls ? await freePort() : 0;
    const urls = [`ldap://127.0.0.1:${port}/`, ...(tls ? [`ldaps://127.0.0.1:${tlsPort}/`] : [])].join(' ');
    // -d 0: stay in the foreground, so the PID is ours to stop.
    const started = spawn(bin, ['-f', conf, '-h', urls, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    let exited = false;
    started.once('exit', () => {
      exited = true;
    });
    while (!exited && Date.now() < deadline) {
      if ((await canConnect(port)) && (!tls || (await canConnect(tlsPort)))) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!exited && Date.now() < deadline) child = started;
    else if (!exited) {
      started.kill('SIGKILL');
      break;
    }
  }
  if (!child) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`slapd did not start: ${stderr}`);
  }
  const running = child;
  const url = `ldap://127.0.0.1:${port}`;
  const rootArgs = ['-x', '-H', url, '-D', rootDn, '-w', rootPassword];

  return {
    url,
    ldapsUrl: tls ? `ldaps://127.0.0.1:${tlsPort}` : undefined,
    port,
    suffix,
    rootDn,
    rootPassword,
    peopleBase,
    groupsBase,
    caCert: tls ? readFileSync(join(dir, 'ca.pem'), 'utf8') : undefined,
    userDn,
    groupDn,
    async modify(changes: string) {
      const file = join(dir, `change-${Date.now()}-${Math.random().toString(36).slice(2)}.ldif`);
      writeFileSync(file, changes);
      await run('ldapmodify', [...rootArgs, '-a', '-f', file]);
    },
    async search(base: string, filter: string, attributes: string[] = []) {
      const { stdout } = await run('ldapsearch', [...rootArgs, '-LLL', '-b', base, filter, ...attributes], { maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    },
    async stop() {
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((r) => running.once('exit', r));
        running.kill('SIGTERM');
        const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
