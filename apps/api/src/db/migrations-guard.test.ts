import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Migrations never drop or rewrite data without an explicit, documented step
 * (docs/operations.md#upgrades):
 *
 * - A statement that drops or rewrites data (DROP TABLE, DROP COLUMN, TRUNCATE, DELETE FROM,
 *   ALTER COLUMN … TYPE, DROP SCHEMA) must carry, in a comment above it in the same statement, the
 *   marker `palisade:data-step docs/operations.md#<anchor>`, and that anchor must exist in
 *   docs/operations.md (the list of data steps). Function and trigger bodies are not checked: they
 *   run later as part of the product, not while migrating.
 * - Released migrations are frozen: drizzle/meta/released.json holds the sha256 of every migration
 *   a release shipped; a database that release upgraded already ran that exact text, so editing it
 *   changes nothing there and makes new installations differ from upgraded ones.
 */

const DRIZZLE = fileURLToPath(new URL('../../drizzle/', import.meta.url));
const OPERATIONS = fileURLToPath(new URL('../../../../docs/operations.md', import.meta.url));
const MARKER = /palisade:data-step\s+(\S+)/;

const DATA_CHANGES: { name: string; pattern: RegExp }[] = [
  { name: 'DROP TABLE', pattern: /\bdrop\s+table\b/i },
  { name: 'DROP COLUMN', pattern: /\bdrop\s+column\b/i },
  // Statement-leading only: `CREATE TRIGGER … AFTER TRUNCATE ON t` does not truncate anything.
  { name: 'TRUNCATE', pattern: /^truncate\b/i },
  { name: 'DELETE FROM', pattern: /\bdelete\s+from\b/i },
  { name: 'ALTER COLUMN … TYPE', pattern: /\balter\s+column\s+(?:"[^"]+"|\w+)\s+(?:set\s+data\s+)?type\b/i },
  { name: 'DROP SCHEMA', pattern: /\bdrop\s+schema\b/i },
];

interface Statement {
  /** The statement outside comments, string literals and dollar-quoted bodies. */
  code: string;
  /** The comments between the previous statement's `;` and this one's. */
  comments: string[];
}

/**
 * Splits SQL into statements at top-level `;`. Single-quoted literals and dollar-quoted bodies
 * (function bodies) are left out of `code`; the body of a `DO` block runs while migrating, so it
 * is kept.
 */
function splitStatements(text: string): Statement[] {
  const statements: Statement[] = [];
  let code = '';
  let comments: string[] = [];
  let i = 0;
  const end = () => {
    if (code.trim() !== '' || comments.length > 0) statements.push({ code: code.trim().replace(/\s+/g, ' '), comments });
    code = '';
    comments = [];
  };
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('--')) {
      const stop = text.indexOf('\n', i);
      const to = stop === -1 ? text.length : stop;
      comments.push(text.slice(i + 2, to).trim());
      i = to;
    } else if (rest.startsWith('/*')) {
      const stop = text.indexOf('*/', i + 2);
      const to = stop === -1 ? text.length : stop + 2;
      comments.push(text.slice(i + 2, to - 2).trim());
      i = to;
    } else if (rest[0] === "'") {
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" ? 2 : 1;
      code += " '' ";
      i = j + 1;
    } else if (/^\$[A-Za-z_]*\$/.test(rest)) {
      const tag = (/^\$[A-Za-z_]*\$/.exec(rest) as RegExpExecArray)[0];
      const stop = text.indexOf(tag, i + tag.length);
      const to = stop === -1 ? text.length : stop + tag.length;
      code += /^\s*do\s*$/i.test(code) ? ` ${text.slice(i + tag.length, to - tag.length)} ` : ' $body$ ';
      i = to;
    } else if (rest[0] === ';') {
      end();
      i += 1;
    } else {
      code += rest[0];
      i += 1;
    }
  }
  end();
  return statements.filter((s) => s.code !== '');
}

/** GitHub's heading anchors of a Markdown file, and explicit `<a id="…">` anchors. */
function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading?.[1]) {
      anchors.add(
        heading[1]
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .replace(/\s/g, '-'),
      );
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (match[1]) anchors.add(match[1]);
  }
  return anchors;
}

/** What is wrong with a migration's data-changing statements (empty: nothing). */
function dataChangeProblems(file: string, sql: string, anchors: Set<string>): string[] {
  const problems: string[] = [];
  for (const statement of splitStatements(sql)) {
    const changes = DATA_CHANGES.filter((c) => c.pattern.test(statement.code)).map((c) => c.name);
    if (changes.length === 0) continue;
    const marker = statement.comments.map((c) => MARKER.exec(c)?.[1]).find((m) => m !== undefined);
    const shown = `${file}: ${changes.join(', ')} in "${statement.code.slice(0, 120)}"`;
    if (!marker) {
      problems.push(`${shown} has no "-- palisade:data-step docs/operations.md#<anchor>" comment`);
      continue;
    }
    const [doc, anchor] = marker.split('#');
    if (doc !== 'docs/operations.md' || !anchor) problems.push(`${shown}: the marker must name docs/operations.md#<anchor>, not ${marker}`);
    else if (!anchors.has(anchor)) problems.push(`${shown}: docs/operations.md has no section #${anchor}`);
  }
  return problems;
}

const migrationFiles = () =>
  readdirSync(DRIZZLE)
    .filter((f) => f.endsWith('.sql'))
    .sort();

describe('the migration guard itself', () => {
  const anchors = new Set(['upgrades-step-one']);

  it('finds each data-changing statement and accepts none without a documented marker', () => {
    for (const sql of [
      'DROP TABLE "old";',
      'ALTER TABLE "users" DROP COLUMN "nickname";',
      'alter table users drop column if exists nickname',
      'TRUNCATE "events";',
      'DELETE FROM "sessions" WHERE expires < now();',
      'ALTER TABLE "users" ALTER COLUMN "age" SET DATA TYPE integer;',
      'ALTER TABLE users ALTER COLUMN age TYPE bigint USING age::bigint;',
      'DROP SCHEMA "legacy" CASCADE;',
      'DO $$ BEGIN DELETE FROM "sessions"; END $$;',
      '-- a comment without the marker\nDROP TABLE "old";',
    ]) {
      expect(dataChangeProblems('x.sql', sql, anchors), sql).toHaveLength(1);
    }
  });

  it('accepts a marker naming an existing anchor, refuses a missing anchor or another file', () => {
    const marked = (target: string) => `CREATE TABLE a (id int);\n-- palisade:data-step ${target}\nALTER TABLE "b" DROP COLUMN "c";`;
    expect(dataChangeProblems('x.sql', marked('docs/operations.md#upgrades-step-one'), anchors)).toEqual([]);
    expect(dataChangeProblems('x.sql', marked('docs/operations.md#upgrades-nowhere'), anchors)[0]).toMatch(/no section #upgrades-nowhere/);
    expect(dataChangeProblems('x.sql', marked('docs/install.md#upgrades-step-one'), anchors)[0]).toMatch(/must name docs\/operations/);
    // The marker belongs to the statement below it, not to the next one.
    expect(dataChangeProblems('x.sql', `${marked('docs/operations.md#upgrades-step-one')}\nDROP TABLE "d";`, anchors)).toHaveLength(1);
  });

  it('leaves alone what keeps data: indexes, triggers, constraints, function bodies, strings', () => {
    const sql = [
      'DROP INDEX IF EXISTS "users_email_idx";',
      'DROP TRIGGER users_count ON users;',
      'ALTER TABLE "users" DROP CONSTRAINT "users_language_check";',
      'CREATE TRIGGER users_count_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION f();',
      'CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN DELETE FROM row_counts; TRUNCATE x; RETURN NULL; END $$ LANGUAGE plpgsql;',
      'CREATE FUNCTION g() RETURNS void AS $fn$ BEGIN DROP TABLE t; END $fn$ LANGUAGE plpgsql;',
      "COMMENT ON TABLE users IS 'we never DROP TABLE users; or DELETE FROM them';",
      'ALTER TABLE users ADD COLUMN language text; --> statement-breakpoint',
      'ALTER TABLE "users" ALTER COLUMN "language" SET DEFAULT \'en\';',
    ].join('\n');
    expect(dataChangeProblems('x.sql', sql, anchors)).toEqual([]);
  });

  it('reads heading anchors as GitHub writes them', () => {
    const anchors = markdownAnchors('# Operations\n## Upgrades\n### Data steps: 0035 (users.nickname)\n<a id="upgrades-custom"></a>\n');
    expect([...anchors]).toEqual(['operations', 'upgrades', 'data-steps-0035-usersnickname', 'upgrades-custom']);
  });
});

describe('committed migrations', () => {
  it('drop or rewrite data only in explicit steps documented in docs/operations.md', () => {
    const anchors = markdownAnchors(readFileSync(OPERATIONS, 'utf8'));
    expect(anchors.has('upgrades'), 'docs/operations.md has an Upgrades section').toBe(true);
    const problems = migrationFiles().flatMap((file) => dataChangeProblems(file, readFileSync(join(DRIZZLE, file), 'utf8'), anchors));
    expect(problems).toEqual([]);
  });

  it('of a release are never edited (drizzle/meta/released.json)', () => {
    const released = JSON.parse(readFileSync(join(DRIZZLE, 'meta/released.json'), 'utf8')) as { migrations: Record<string, string> };
    const journal = JSON.parse(readFileSync(join(DRIZZLE, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const tags = journal.entries.map((e) => `${e.tag}.sql`);
    const names = Object.keys(released.migrations);
    expect(names.length).toBeGreaterThan(0);
    // Released migrations are the journal's first ones, in order: new migrations only append.
    expect(tags.slice(0, names.length)).toEqual(names);
    expect(migrationFiles()).toEqual([...tags].sort());
    const actual = Object.fromEntries(
      names.map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(DRIZZLE, name)))
          .digest('hex'),
      ]),
    );
    expect(actual, 'a released migration was edited: add a new migration instead').toEqual(released.migrations);
  });
});
