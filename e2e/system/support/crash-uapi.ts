import { createConnection } from 'node:net';

/**
 * The peers of a wireguard-go interface read straight from its control socket (the UAPI `get`,
 * what `wg show` does, without spawning `ip netns exec wg`): fast enough to poll an apply in
 * progress. The socket lives in /var/run/wireguard whatever the network namespace.
 * Keys come back base64, as the API and `wg show` spell them.
 */
export function uapiPeers(ifname: string, timeoutMs = 10_000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(`/var/run/wireguard/${ifname}.sock`);
    let text = '';
    const timer = setTimeout(() => socket.destroy(new Error(`no answer from the ${ifname} control socket`)), timeoutMs);
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (!text.endsWith('\n\n')) return;
      clearTimeout(timer);
      socket.end();
      if (!/^errno=0$/m.test(text)) return reject(new Error(`UAPI get failed: ${text.slice(-100)}`));
      resolve(
        text
          .split('\n')
          .filter((line) => line.startsWith('public_key='))
          .map((line) => Buffer.from(line.slice('public_key='.length), 'hex').toString('base64')),
      );
    });
    socket.write('get=1\n\n');
  });
}
