/**
 * The gateway protocol (palisade.gateway.v1), generated from proto/ by buf + protoc-gen-es.
 * Semantics of every message: proto/palisade/gateway/v1/gateway.proto and ADR-002.
 */
export * from './gen/palisade/gateway/v1/gateway_pb.js';
