import type { MfaDisableBodySchema, MfaStatus, RecoveryCodes } from '@palisade/contracts';
import type { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { verifyPassword } from '#src/lib/password.js';
import { HttpProblem } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { withEvents } from '#src/modules/events/record-event.js';
import { userObject } from '#src/modules/users/users.events.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { type Actor, userNotFound } from '#src/modules/users/users.service.js';
import { endSessionsForMfaRemoval } from '#src/modules/vpn-sessions/vpn-sessions.service.js';
import type { MfaCore, MfaMethod } from './mfa.core.js';
import { MfaRepo } from './mfa.repo.js';
import type { TotpService } from './totp.service.js';

const notEnabled = () => new HttpProblem(400, 'mfa.not_enabled', 'Enable a method of two-factor authentication first.');

/** The MFA switch (status, default method, turning off), recovery codes and the admin reset. */
export class MfaService {
  constructor(
    private readonly db: Db,
    private readonly core: MfaCore,
    private readonly totp: TotpService,
  ) {}

  async status(userId: number, db: Db = this.db): Promise<MfaStatus> {
    const repo = new MfaRepo(db);
    const methods = await repo.enabledMethods(userId);
    const current = (await repo.defaultMethod(userId)) as MfaMethod | null;
    return {
      mfa_enabled: methods.length > 0,
      methods,
      ...(current && methods.includes(current) ? { default_method: current } : {}),
      recovery_codes_left: await repo.recoveryCodesLeft(userId),
    };
  }

  async setDefault(actor: Actor, method: MfaMethod): Promise<MfaStatus> {
    return withEvents(this.db, async (tx) => {
      if (!(await this.core.setDefault(tx, actor.userId, method))) {
        throw new HttpProblem(400, 'mfa.method_not_enabled', 'This method is not enabled.', [
          { path: 'default_method', code: 'invalid', message: 'Invalid value' },
        ]);
      }
      return {
        result: await this.status(actor.userId, tx),
        events: [{ type: 'mfa.default_changed', actor: userActor(actor), object: userObject(me(actor)), details: { method } }],
      };
    });
  }

  async regenerateRecoveryCodes(actor: Actor): Promise<RecoveryCodes> {
    return withEvents(this.db, async (tx) => {
      if ((await new MfaRepo(tx).enabledMethods(actor.userId)).length === 0) throw notEnabled();
      const codes = await this.core.regenerateRecoveryCodes(tx, actor.userId);
      return {
        result: { codes },
        events: [{ type: 'mfa.recovery_codes_generated', actor: userActor(actor), object: userObject(me(actor)) }],
      };
    });
  }

  /** Turns MFA off after proving the user again: the password, or a fresh authenticator code (counted like a sign-in step). */
  async disable(actor: Actor, body: z.infer<typeof MfaDisableBodySchema>): Promise<void> {
    const repo = new MfaRepo(this.db);
    if ((await repo.enabledMethods(actor.userId)).length === 0) throw notEnabled();
    const code = body.code;
    if (code !== undefined) {
      // A wrong code counts against the sign-in lockout.
      await this.core.guardedCheck(
        actor,
        'totp',
        'mfa_disable',
        async () => (await this.totp.check(this.db, actor.userId, code)) || undefined,
      );
    } else {
      // So does a wrong password (else it would be an unlimited password oracle).
      await this.core.guardedPasswordCheck(actor, 'mfa_disable', async () =>
        verifyPassword(await repo.passwordHash(actor.userId), body.password ?? ''),
      );
    }
    await withEvents(this.db, async (tx) => {
      await this.core.disableAll(tx, actor.userId);
      // VPN sessions authorised by the removed second factor end with it.
      const ended = await endSessionsForMfaRemoval(tx, userActor(actor), actor.userId);
      return {
        result: undefined,
        events: [{ type: 'mfa.disabled', actor: userActor(actor), object: userObject(me(actor)) }, ...ended],
      };
    });
  }

  /** An admin removes another user's (or their own) second factors, e.g. after a lost phone. */
  async reset(actor: Actor, username: string): Promise<void> {
    await withEvents(this.db, async (tx) => {
      const target = await new UsersRepo(tx).findByUsername(username);
      if (!target) throw userNotFound(username);
      await this.core.disableAll(tx, target.id);
      const ended = await endSessionsForMfaRemoval(tx, userActor(actor), target.id);
      return {
        result: undefined,
        events: [
          {
            type: 'mfa.reset',
            actor: userActor(actor),
            object: userObject(target),
            ...(target.id === actor.userId ? {} : { subjectUserId: target.id }),
          },
          ...ended,
        ],
      };
    });
  }
}

const me = (actor: Actor) => ({ id: actor.userId, username: actor.username });
