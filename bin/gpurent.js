#!/usr/bin/env node
// The gpurent command. The command tree is plain JavaScript so `--help` and usage
// errors answer without compiling anything; the TypeScript sources behind a
// command (cli/, planner/) are loaded through tsx only when that command runs.
import { Command, CommanderError, Option } from 'commander';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** Loads a TypeScript module of the package, registering tsx on first use. */
async function load(path) {
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL(path, import.meta.url).href);
}

const io = () => ({
  out: (text) => process.stdout.write(text),
  progress: (text) => process.stderr.write(text),
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

/** Runs a command implementation of cli/commands.ts; its CliError becomes one line and an exit code. */
const run =
  (name) =>
  async (...args) => {
    const commands = await load('../cli/commands.ts');
    const options = args.at(-2);
    const positionals = args.slice(0, -2);
    try {
      await commands[name](...positionals, options, io());
    } catch (error) {
      if (error?.name !== 'CliError') throw error;
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = error.exitCode;
    }
  };

const json = () => new Option('--json', 'print JSON instead of a table');

const program = new Command('gpurent')
  .description(
    'Rent GPUs on AWS with gpurent: leases, scaling groups, usage, budgets, audits, and the rental-mix planner.',
  )
  .showSuggestionAfterError(true)
  .exitOverride()
  .addHelpText(
    'after',
    '\nExit codes: 0 done, 1 refused or failed (the API said no, or it could not be reached), 2 usage error.',
  );

program
  .command('login')
  .description('remember the API URL and token (in $XDG_CONFIG_HOME/gpurent or ~/.config/gpurent)')
  .option('--api <url>', 'the API base URL (the ApiUrl stack output)')
  .option('--token <jwt>', 'an ID token of the user pool')
  .option('--local', 'use the stack `npm start` runs here (.gpurent/local.json)')
  .addOption(json())
  .action(run('login'));

const lease = program.command('lease').description('ask for GPUs, list, show and release leases');
lease
  .command('create')
  .description('ask for GPUs')
  .addOption(
    new Option('--workload <kind>', 'what runs')
      .choices(['training', 'inference', 'batch'])
      .makeOptionMandatory(),
  )
  .requiredOption('--gpus <n>', 'GPUs, 1-8 (single-GPU instances, or fewer larger ones where cheaper)')
  .option('--instance-type <type>', 'EC2 type, e.g. g5.xlarge (default: the cheapest pool that fits)')
  .option('--gpu-model <model>', 'any instance type with this GPU, e.g. A10G, L4, A100, H100')
  .option('--regions <list>', 'comma-separated regions it may run in (default: every GPU region)')
  .option('--data-region <region>', "where the lease's data lives; pools elsewhere pay latency and transfer")
  .option('--data-gb <gb>', 'data moved to the lease when it runs away from --data-region')
  .option('--max-hourly-price <usd>', 'USD per hour for all its instances together')
  .option('--image <name:version>', 'pin a registered image version (default: the current one)')
  .addOption(
    new Option('--mode <mode>', 'rental mode (default: the policy chooses)').choices([
      'on-demand',
      'reserved',
      'spot',
    ]),
  )
  .option('--project <label>', 'cost label for usage and project budgets')
  .option('--duration <minutes>', 'release on its own after this many minutes (1-43200)')
  .option('--wait', 'show progress until the lease is RUNNING (exit 1 if it FAILS)')
  .option('--timeout <seconds>', 'with --wait: give up waiting after this long', '600')
  .addOption(json())
  .action(run('leaseCreate'));
lease
  .command('ls')
  .description("the tenant's leases, newest first")
  .option('--limit <n>', 'leases per page', '25')
  .option('--cursor <cursor>', 'the next page (printed under the table)')
  .addOption(json())
  .action(run('leaseList'));
lease
  .command('show')
  .description('one lease, its instances and cost')
  .argument('<lease-id>')
  .addOption(json())
  .action(run('leaseShow'));
lease
  .command('rm')
  .description('release a lease (terminate, close the bill)')
  .argument('<lease-id>')
  .addOption(json())
  .action(run('leaseRelease'));

program
  .command('usage')
  .description('metered GPU seconds and cost in a time range')
  .option('--from <iso>', 'start, inclusive (default: start of this month, UTC)')
  .option('--to <iso>', 'end, exclusive (default: now)')
  .addOption(
    new Option('--group-by <key>', 'grouping')
      .choices(['mode', 'lease', 'instanceType', 'project'])
      .default('mode'),
  )
  .addOption(json())
  .action(run('usage'));

const budget = program.command('budget').description('monthly budgets with alerts and limit actions');
budget
  .command('set')
  .description('create or replace a budget')
  .argument('<name>', '[a-z0-9-]{1,64}')
  .requiredOption('--limit <usd>', 'monthly limit in USD')
  .option('--project <label>', 'count only leases with this project label')
  .option('--thresholds <percents>', 'alert thresholds, e.g. 50,80,100')
  .addOption(
    new Option('--basis <basis>', 'judge actual spend, the forecast or both').choices([
      'actual',
      'forecast',
      'both',
    ]),
  )
  .addOption(
    new Option('--action <action>', 'what happens at 100%').choices([
      'notify',
      'block-new-leases',
      'stop-interruptible',
    ]),
  )
  .addOption(json())
  .action(run('budgetSet'));
budget
  .command('ls')
  .description('budgets with spend and forecast')
  .addOption(json())
  .action(run('budgetList'));
budget
  .command('show')
  .description('one budget and the thresholds crossed')
  .argument('<name>')
  .addOption(json())
  .action(run('budgetShow'));
budget
  .command('rm')
  .description('delete a budget (spend counters stay)')
  .argument('<name>')
  .addOption(json())
  .action(run('budgetRemove'));

const group = program
  .command('group')
  .description('scaling groups: fleets of single-GPU leases sized by their GPU metrics');
group
  .command('put')
  .description('create a scaling group or replace its spec (members change at the next evaluation)')
  .argument('<name>', '[a-z0-9][a-z0-9-]{0,62}')
  .option(
    '--spec <file>',
    'a JSON file with the whole spec (the API body: rules, cooldowns, …); flags override it',
  )
  .option('--instance-type <type>', 'single-GPU EC2 type, e.g. g5.xlarge')
  .addOption(
    new Option('--workload <kind>', 'what the members run').choices(['training', 'inference', 'batch']),
  )
  .option('--min <n>', 'the fewest GPUs')
  .option('--max <n>', 'the most GPUs (caps the cost)')
  .option('--desired <n>', 'the size to converge to now (default: min, or the current size)')
  .addOption(json())
  .action(run('groupPut'));
group.command('ls').description("the tenant's scaling groups").addOption(json()).action(run('groupList'));
group
  .command('show')
  .description('one group: members, the last evaluation and the last decisions with their reasons')
  .argument('<name>')
  .addOption(json())
  .action(run('groupShow'));
group
  .command('rm')
  .description('drain a group: release every member lease, then remove it')
  .argument('<name>')
  .addOption(json())
  .action(run('groupRemove'));

program
  .command('metrics')
  .description("a lease's GPU utilization, memory, temperature and power (avg / p95 / max) and health")
  .argument('<lease-id>')
  .option('--from <iso>', 'start (default: an hour before --to)')
  .option('--to <iso>', 'end (default: now)')
  .addOption(new Option('--period <seconds>', 'seconds per datapoint').choices(['60', '300', '3600']))
  .addOption(json())
  .action(run('leaseMetrics'));

program
  .command('audit')
  .description("a month's audit: cost by mode, spot savings, reserved capacity, and what to reserve next")
  .argument('<yyyy-mm>', 'this month (to date) or an earlier one')
  .option('--html <file>', 'write the report page (self-contained HTML) to this file instead')
  .addOption(json())
  .action(run('auditReport'));

program
  .command('profile')
  .description('demand per UTC day: GPU-hours, average and peak GPUs, wait to RUNNING')
  .option('--from <iso>', 'start (default: start of this month, UTC)')
  .option('--to <iso>', 'end (default: now)')
  .addOption(json())
  .action(run('profile'));

program
  .command('simulate')
  .description('replay a demand trace through the rental policies (gpurent simulate --help)')
  .helpOption(false)
  .allowUnknownOption()
  .allowExcessArguments()
  .argument('[args...]')
  .action(async (args) => {
    const { main } = await load('../planner/cli.ts');
    process.exitCode = await main(['simulate', ...args]);
  });

for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
  command.exitOverride();
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the one-line message, or the help: asked for (exit code 0)
    // or shown because a subcommand is missing (a usage error).
    process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT_FAILED;
  }
}
