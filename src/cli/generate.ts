import type { Command } from 'commander';
import { InputError } from '../errors.js';

const EVENTS = ['Issue', 'Void', 'Exchange'] as const;
const NOTIFIES = ['new', 'old', 'both'] as const;
/** Most events one `generate` run accepts. */
export const MAX_GENERATE_COUNT = 1_000_000;
const MAX_SEED = 2 ** 31 - 1;

interface GenerateFlags {
  event: string;
  count: string;
  seed?: string;
  at?: string;
  pretty?: boolean;
  exchangeNotifies: string;
}

/** `generate`: prints seeded notification bodies as NDJSON (faker loads only inside the action). */
export function registerGenerateCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('generate')
    .description(
      'print notification bodies as NDJSON, one per line; a Void or Exchange issues its booking first ' +
        'and prints what the event notifies (an Exchange: old and new, per --exchange-notifies)',
    )
    .option('--event <type>', `event to generate: ${EVENTS.join(' | ')}`, 'Issue')
    .option('--count <n>', 'number of events', '1')
    .option(
      '--seed <n>',
      `seed 0…${MAX_SEED}; same seed and --at ⇒ same bytes (default: random, shown on stderr)`,
    )
    .option('--at <iso>', 'event time (UpdateDate), ISO 8601 (default: now)')
    .option('--exchange-notifies <which>', `Exchange bodies to print: ${NOTIFIES.join(' | ')}`, 'both')
    .option('--pretty', 'indent each body (output is then not NDJSON)')
    .action(async (flags: GenerateFlags) => setExit(await runGenerate(flags)));
}

function oneOf<T extends string>(flag: string, value: string, accepted: readonly T[]): T {
  if ((accepted as readonly string[]).includes(value)) return value as T;
  throw new InputError(
    'invalid_option',
    `${flag}: "${value}" is not accepted; use one of ${accepted.join(', ')}.`,
    {
      accepted,
    },
  );
}

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new InputError(
      'invalid_option',
      `${flag}: "${value}" is not a whole number from ${min} to ${max}.`,
    );
  }
  return n;
}

async function runGenerate(flags: GenerateFlags): Promise<number> {
  const event = oneOf('--event', flags.event, EVENTS);
  const exchangeNotifies = oneOf('--exchange-notifies', flags.exchangeNotifies, NOTIFIES);
  const count = wholeNumber('--count', flags.count, 1, MAX_GENERATE_COUNT);
  let seed: number;
  if (flags.seed === undefined) {
    seed = Math.floor(Math.random() * MAX_SEED);
    process.stderr.write(`reportbo-emulator: --seed ${seed}\n`);
  } else {
    seed = wholeNumber('--seed', flags.seed, 0, MAX_SEED);
  }
  const atMs = flags.at === undefined ? Date.now() : Date.parse(flags.at);
  if (Number.isNaN(atMs)) {
    throw new InputError(
      'invalid_option',
      `--at: "${flags.at}" is not an ISO 8601 instant, e.g. 2026-04-27T10:00:00Z.`,
    );
  }
  const { notificationLines } = await import('../generate/ndjson.js');
  let chunk = '';
  for (const line of notificationLines({
    event,
    count,
    seed,
    atMs,
    exchangeNotifies,
    pretty: flags.pretty === true,
  })) {
    chunk += `${line}\n`;
    if (chunk.length > 1 << 16) {
      if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
      chunk = '';
    }
  }
  await new Promise<void>((resolve, reject) =>
    process.stdout.write(chunk, (err) => (err ? reject(err) : resolve())),
  );
  return 0;
}
