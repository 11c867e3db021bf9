import { StationApi } from './api.js';
import type { CardPort } from './card/card-port.js';
import { SimulatedCard } from './card/simulated-card.js';
import { YubikeyCard } from './card/yubikey-card.js';
import { type Config, ConfigError, parseCommandLine, USAGE } from './config.js';
import { readEnvironment } from './env.js';
import { runStation } from './station.js';

function cardOf(config: Config): CardPort {
  if (config.card === 'simulated') {
    return new SimulatedCard({
      dir: config.simulatedCardDir,
      error: config.simulatedCardError,
      delayMs: config.simulatedCardDelaySeconds * 1000,
    });
  }
  return new YubikeyCard(config.adminPin);
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(readEnvironment(), process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`palisade-provisioner: ${error.message}\n`);
    return 2;
  }
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { config } = parsed;
  const controller = new AbortController();
  for (const s of ['SIGTERM', 'SIGINT'] as const) process.once(s, () => controller.abort());
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  log(`station "${config.name}" for ${config.url} (${config.keyAlgorithm}, ${config.card} card)`);
  await runStation(
    new StationApi(config.url),
    cardOf(config),
    {
      name: config.name,
      registrationToken: config.token,
      keyAlgorithm: config.keyAlgorithm,
      pollWaitSeconds: config.pollWaitSeconds,
      log,
    },
    controller.signal,
  );
  log('stopped');
  return 0;
}

process.exitCode = await main();
