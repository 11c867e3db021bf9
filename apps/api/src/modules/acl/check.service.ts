import type { AclCheckQuery, AclCheckResult } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { AclCheckRepo } from './check.repo.js';
import { compileFirewall, memberKey } from './compiler/compile.js';
import { decide } from './compiler/decide.js';

/**
 * The access check: compiles the location's deployed ACL exactly as for its gateways and runs the
 * agent's first-match decision for one packet. A user source is checked by membership: a stand-in
 * device (id 0, never a real id) of that user is added to the member sets, so the answer holds
 * for each of their devices, and for a user with no device in the location too.
 */
const USER_PROBE = 0;

export class AclCheckService {
  readonly #repo: AclCheckRepo;

  constructor(db: Db) {
    this.#repo = new AclCheckRepo(db);
  }

  check(query: AclCheckQuery): Promise<AclCheckResult> {
    return this.#repo.consistent(async (repo) => {
      if (!(await repo.locationExists(query.location))) throw new HttpProblem(404, 'network.not_found', 'No such location.');
      const [kind, idText] = query.source.split(':') as ['user' | 'device' | 'network_device', string];
      const id = Number(idText);
      let probes: { id: number; userId: number | null }[] = [];
      let sources: number[];
      let sourceDevices: number[];
      if (kind === 'user') {
        if (!(await repo.userExists(id))) throw new HttpProblem(404, 'user.not_found', 'No such user.');
        probes = [{ id: USER_PROBE, userId: id }];
        sources = [USER_PROBE];
        sourceDevices = await repo.userDevices(id);
      } else {
        const device = await repo.device(id);
        if (!device || device.kind !== (kind === 'device' ? 'user' : 'network')) {
          throw new HttpProblem(404, 'device.not_found', kind === 'device' ? 'No such user device.' : 'No such network device.');
        }
        sources = [id];
        sourceDevices = [id];
      }
      const now = new Date();
      const input = await repo.compileInput(query.location, now, { probes, withoutAddresses: true });
      if (!input) throw new HttpProblem(404, 'network.not_found', 'No such location.');
      const firewall = compileFirewall(input);
      const decision = decide(firewall, {
        sources: new Set(sources.map(memberKey)),
        destination: query.destination,
        port: query.port,
        protocol: query.protocol,
      });
      const mode = !input.aclEnabled ? 'unmanaged' : input.defaultAllow ? 'allow_by_default' : 'deny_by_default';
      const decidedBy: AclCheckResult['decided_by'] = decision.rule
        ? {
            kind: 'rule',
            rule_id: decision.rule.aclRuleId,
            rule_name: await repo.ruleName(decision.rule.aclRuleId),
            firewall_rule_id: decision.rule.id,
          }
        : { kind: 'default' };
      return { verdict: decision.verdict, decided_by: decidedBy, mode, source_devices: sourceDevices };
    });
  }
}
