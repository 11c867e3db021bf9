import { generateKeyPair } from '@palisade/wireguard';
import type { FastifyInstance } from 'fastify';

export const newKey = () => generateKeyPair().publicKey;

export const locationBody = (overrides: Record<string, unknown> = {}) => ({
  name: `loc-${Math.random().toString(36).slice(2, 8)}`,
  address: ['10.20.0.1/24'],
  endpoint: 'vpn.example.com',
  port: 51820,
  dns: ['10.20.0.1'],
  allowed_ips: ['10.20.0.0/24'],
  allowed_groups: [],
  ...overrides,
});

export async function createLocation(app: FastifyInstance, cookie: string, overrides: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/network', headers: { cookie }, payload: locationBody(overrides) });
  if (res.statusCode !== 201) throw new Error(`create location: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; name: string; pubkey: string; address: string[] };
}

export async function addDevice(
  app: FastifyInstance,
  cookie: string,
  username: string,
  name = `dev-${Math.random().toString(36).slice(2, 8)}`,
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/device/${username}`,
    headers: { cookie },
    payload: { name, wireguard_pubkey: newKey() },
  });
  if (res.statusCode !== 201) throw new Error(`add device: ${res.statusCode} ${res.body}`);
  return res.json() as {
    device: { id: number; name: string; networks: { network_id: number; device_wireguard_ips: string[] }[] };
    configs: { network_id: number; assigned_ips: string[]; config: string }[];
  };
}
