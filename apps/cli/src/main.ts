import { access } from 'node:fs/promises';
import { parseCommandLine, USAGE } from './args.js';
import { enroll } from './enroll.js';
import { readEnvironment } from './env.js';
import { CliError } from './errors.js';
import { hostSystem } from './system.js';
import { configPath, describeStatus, tunnelStatus, wgQuick } from './tunnel.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  try {
    const cmd = parseCommandLine(process.argv.slice(2), readEnvironment());
    switch (cmd.kind) {
      case 'help':
        process.stdout.write(USAGE);
        return 0;
      case 'enroll':
        await enroll(cmd, hostSystem, log);
        return 0;
      case 'down':
        await wgQuick(hostSystem, 'down', cmd, log);
        log(`${cmd.interfaceName} is down`);
        return 0;
      case 'status': {
        const status = await tunnelStatus(hostSystem, cmd);
        const configExists = await access(configPath(cmd)).then(
          () => true,
          () => false,
        );
        for (const line of describeStatus(cmd, status, configExists, Math.floor(Date.now() / 1000))) log(line);
        return status.up ? 0 : 3;
      }
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`palisade: ${error.message}\n`);
    return error.exitCode;
  }
}

process.exitCode = await main();
