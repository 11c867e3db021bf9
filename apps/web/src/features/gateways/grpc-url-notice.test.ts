import { describe, expect, it } from 'vitest';
import { grpcUrlNotice } from './grpc-url-notice';

describe('grpcUrlNotice', () => {
  it('warns about a loopback URL and names the setting behind it', () => {
    expect(grpcUrlNotice({ grpc_url_source: 'request', grpc_url_is_loopback: true })).toEqual({
      kind: 'warning',
      messages: ['gateways.grpcUrl.loopback', 'gateways.grpcUrl.fixPublic'],
    });
    expect(grpcUrlNotice({ grpc_url_source: 'public_url', grpc_url_is_loopback: true })?.messages[1]).toBe('gateways.grpcUrl.fixPublic');
    expect(grpcUrlNotice({ grpc_url_source: 'grpc_public_url', grpc_url_is_loopback: true })).toEqual({
      kind: 'warning',
      messages: ['gateways.grpcUrl.loopback', 'gateways.grpcUrl.fixGrpc'],
    });
  });

  it('notes a URL guessed from the console address, and says nothing about a configured one', () => {
    expect(grpcUrlNotice({ grpc_url_source: 'request', grpc_url_is_loopback: false })).toEqual({
      kind: 'info',
      messages: ['gateways.grpcUrl.fromRequest', 'gateways.grpcUrl.fixPublic'],
    });
    expect(grpcUrlNotice({ grpc_url_source: 'public_url', grpc_url_is_loopback: false })).toBeUndefined();
    expect(grpcUrlNotice({ grpc_url_source: 'grpc_public_url', grpc_url_is_loopback: false })).toBeUndefined();
  });
});
