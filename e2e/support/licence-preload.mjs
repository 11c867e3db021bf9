// Loaded with `node --import` in front of the built API by the e2e suite only (playwright.config.ts),
// never in production (docs/licensing.md). It lets the product trust the TEST licence key
// (apps/api/test/support/licence.ts, scripts/mint-licence.mjs --test-key) and lifts the free
// limits: the whole suite shares one instance whose usage grows past them as specs add users and
// locations, and the specs of enterprise features must not depend on the order they run in. The
// gate itself is covered by the API's integration tests (apps/api/src/modules/licence).
globalThis[Symbol.for('palisade.test.licence-options')] = {
  publicKeys: ['MCowBQYDK2VwAyEAOknRmDMoICsWG7L0L7xllhAAOBHnFP3pE2iPboF49SY='],
  freeLimits: { users: null, devices: null, locations: null, gateways: null },
};
