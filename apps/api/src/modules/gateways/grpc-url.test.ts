import { describe, expect, it } from 'vitest';
import { isLoopbackHost, resolveGrpcUrl } from './grpc-url.js';

const base = { publicGrpcUrl: undefined, publicUrl: undefined, grpcPort: 50055, tls: false };

describe('resolveGrpcUrl', () => {
  it('takes GRPC_PUBLIC_URL as it is', () => {
    expect(
      resolveGrpcUrl({ ...base, publicGrpcUrl: 'https://gw.example.com:443', publicUrl: 'https://vpn.example.com' }, 'localhost'),
    ).toEqual({
      grpc_url: 'https://gw.example.com:443',
      grpc_url_source: 'grpc_public_url',
      grpc_url_is_loopback: false,
    });
  });

  it('derives the URL from the host of PUBLIC_URL, https with TLS', () => {
    expect(resolveGrpcUrl({ ...base, publicUrl: 'https://vpn.example.com:8443/', tls: true }, 'localhost:8000')).toEqual({
      grpc_url: 'https://vpn.example.com:50055',
      grpc_url_source: 'public_url',
      grpc_url_is_loopback: false,
    });
  });

  it('falls back to the request host and flags it as loopback when it is', () => {
    expect(resolveGrpcUrl(base, 'localhost:8000')).toEqual({
      grpc_url: 'http://localhost:50055',
      grpc_url_source: 'request',
      grpc_url_is_loopback: true,
    });
    expect(resolveGrpcUrl(base, '[::1]:8000')).toMatchObject({ grpc_url: 'http://[::1]:50055', grpc_url_is_loopback: true });
    expect(resolveGrpcUrl(base, '10.0.0.5')).toMatchObject({ grpc_url: 'http://10.0.0.5:50055', grpc_url_is_loopback: false });
  });

  it('flags a loopback GRPC_PUBLIC_URL or PUBLIC_URL too', () => {
    expect(resolveGrpcUrl({ ...base, publicGrpcUrl: 'http://127.0.0.1:50055' }, 'vpn.example.com').grpc_url_is_loopback).toBe(true);
    expect(resolveGrpcUrl({ ...base, publicUrl: 'http://localhost:8000' }, 'vpn.example.com').grpc_url_is_loopback).toBe(true);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'app.localhost',
    'localhost.',
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '::1',
    '[::1]',
    '::',
    '::ffff:127.0.0.1',
  ])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(['vpn.example.com', '10.0.0.1', '192.168.1.1', '128.0.0.1', 'localhost.example.com', '2001:db8::1', 'my-localhost'])(
    '%s is not',
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );
});
