import { getErrorMessage } from '../util/errors.js';

export async function main(argv: string[]): Promise<number> {
  const [command] = argv;
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write('usage: gemini-run <command>\n');
    return 0;
  }
  process.stderr.write(`gemini-run: unknown command '${command}'. Run 'gemini-run --help' for the list.\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`gemini-run: ${getErrorMessage(error)}\n`);
    process.exit(1);
  },
);
