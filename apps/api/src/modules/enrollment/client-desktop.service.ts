import type { ActivatedDesktop, RedeemDesktopTokenBody } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import { deviceNameTaken, tx, uniqueDeviceProblem } from '#src/modules/devices/devices.service.js';
import type { RequestOrigin } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { lockLocationsOfUser, placeNewUserDevice } from '#src/modules/networks/device-placement.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import type { SettingsService } from '#src/modules/settings/settings.service.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { ClientCliRepo } from './client-cli.repo.js';
import { clientTokenInvalid, clientTunnel, countedRedemption } from './client-cli.service.js';

/**
 * Desktop activation (`start_desktop`, docs/cli.md): a client without a session sends the token,
 * a device name and the public key it generated; the device is added for the token's user and
 * placed in every location they may use, in the transaction that spends the token, and the answer
 * carries one tunnel per location. The device-management lock does not apply (an administrator
 * issued the token); with manual config disabled a non-admin's activation is refused before the
 * token is spent, as no route hands them a config then.
 */
export class ClientDesktopService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
  ) {}

  async redeem(body: RedeemDesktopTokenBody, origin: RequestOrigin): Promise<ActivatedDesktop> {
    return countedRedemption(this.db, origin, async () => {
      // Read before the transaction: on embedded PGlite (one connection) a read through `this.db`
      // inside it waits for the transaction to end, which never comes.
      const { disable_manual_config, disable_all_traffic } = await this.settings.getEnterprise();
      return tx(this.db, async (t) => {
        const repo = new ClientCliRepo(t);
        const token = await repo.consumeDesktop(sha256(body.token));
        const owner = token ? await new UsersRepo(t).findById(token.user_id) : undefined;
        if (!owner?.isActive) throw clientTokenInvalid();
        if (disable_manual_config && !(await repo.isAdmin(owner.id))) {
          throw new HttpProblem(
            403,
            'device.config_disabled',
            'Manual configuration is disabled: this client cannot receive a configuration.',
          );
        }
        const devices = new DevicesRepo(t);
        if (await devices.findUserDeviceByName(owner.id, body.name)) throw deviceNameTaken();
        // Locations first, as every device creation (lock order, see lockLocationsOfUser).
        await lockLocationsOfUser(t, owner.id);
        const device = await devices.insert({ kind: 'user', name: body.name, wireguardPubkey: body.wireguard_pubkey, userId: owner.id });
        await placeNewUserDevice(t, owner.id, device.id);
        await recordEvent(t, {
          type: 'device.added',
          actor: { type: 'user', userId: owner.id, username: owner.username, ...origin },
          object: { type: 'device', id: device.id, name: device.name },
          device: { id: device.id, name: device.name },
          details: { owner: owner.username, via: 'desktop_activation' },
        });
        const ips = await devices.ipsOf([device.id]);
        const networks = new NetworksRepo(t);
        const tunnels = [];
        for (const locationId of [...new Set(ips.map((r) => r.locationId))].sort((a, b) => a - b)) {
          const location = await networks.findById(locationId);
          if (!location) continue;
          const mine = ips.filter((r) => r.locationId === locationId).map((r) => r.ip);
          tunnels.push(clientTunnel(location, mine, disable_all_traffic));
        }
        return { device: { id: device.id, name: device.name }, user: { username: owner.username }, tunnels };
      }).catch(uniqueDeviceProblem);
    });
  }
}
