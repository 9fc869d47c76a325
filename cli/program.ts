import { Command, Option } from 'commander';
import {
  DEFAULT_MAX_WAIT_MINUTES,
  DEFAULT_PRIORITY,
  MAX_PRIORITY,
  MAX_WAIT_MINUTES,
  MIN_PRIORITY,
  MIN_WAIT_MINUTES,
} from '../shared/domain/admission/quota';
import { BUDGET_ACTIONS, BUDGET_BASES } from '../shared/domain/budgets/budget';
import { METRIC_PERIODS } from '../shared/domain/gpu-telemetry';
import {
  MAX_GPUS_PER_LEASE,
  MAX_LEASE_MINUTES,
  MIN_LEASE_MINUTES,
  RENTAL_MODES,
  WORKLOADS,
} from '../shared/domain/lease';
import { DEFAULT_USAGE_GROUPING, USAGE_GROUPINGS } from '../shared/domain/usage';
import { MAX_WARM_POOL_SIZE } from '../shared/domain/warm-pools/pool';
import { IDLE_ACTIONS } from '../shared/domain/waste/idle-policy';
import { ANOMALY_SENSITIVITIES } from '../shared/domain/waste/spend-anomaly';
import { type BudgetSetOptions, budgetList, budgetRemove, budgetSet, budgetShow } from './budgets';
import type { CliIo, OutputOptions } from './common';
import { usageError } from './errors';
import {
  type GroupFieldOptions,
  type GroupPutOptions,
  groupList,
  groupPut,
  groupRemove,
  groupSet,
  groupShow,
} from './groups';
import { type IdlePolicySetOptions, idlePolicySet, idlePolicyShow } from './idle-policy';
import {
  type CreateLeaseOptions,
  type LeaseListOptions,
  leaseCreate,
  leaseList,
  leaseRelease,
  leaseShow,
} from './leases';
import { type LoginOptions, login } from './login';
import { type LogsOptions, logs } from './logs';
import { leaseMetrics, type MetricsOptions } from './metrics';
import { type QuotaSetOptions, quotaSet, quotaShow, quotaShowFor } from './quota';
import { type AuditOptions, auditReport, type ProfileOptions, profile } from './reports';
import { type RunOptions, run } from './run';
import { type AnomaliesSetOptions, anomaliesSet, anomaliesShow } from './spend-anomalies';
import { type SshOptions, ssh } from './ssh';
import { type UsageExportOptions, type UsageOptions, usage, usageExport } from './usage';
import { VERSION } from './version';
import { type WarmPoolSetOptions, warmPoolList, warmPoolRemove, warmPoolSet } from './warm-pools';

const json = () => new Option('--json', 'print JSON instead of a table');
/** An option given once per value (`--param a=1 --param b=2`), collected in order. */
const repeated = (value: string, previous: string[]) => [...previous, value];

/**
 * Options an action cannot run without. Checked in a preAction hook, after
 * commander has refused unknown options: its own mandatory check runs first,
 * so a typo such as `--gpu 2` would read as "--gpus not specified".
 */
const REQUIRED = new WeakMap<Command, Option[]>();

function required(command: Command, option: Option): Command {
  option.description = `${option.description} (required)`;
  REQUIRED.set(command, [...(REQUIRED.get(command) ?? []), option]);
  return command.addOption(option);
}

function checkRequired(_program: Command, action: Command): void {
  for (const option of REQUIRED.get(action) ?? []) {
    if (action.getOptionValue(option.attributeName()) === undefined)
      throw usageError(`required option '${option.flags}' not specified`);
  }
}

/** `gpurent <parent> <name> <argument> [--json]`: a subcommand about one lease, budget or group. */
function onOne(
  parent: Command,
  name: string,
  description: string,
  argument: string,
  action: (id: string, options: OutputOptions) => Promise<void>,
): Command {
  return parent.command(name).description(description).argument(argument).addOption(json()).action(action);
}

/**
 * The gpurent command tree. Every list of choices is the domain's own constant,
 * so the CLI accepts what the API accepts. Actions throw CliError for the caller
 * (main.ts) to print as one line with its exit code.
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('gpurent')
    .description(
      'Rent GPUs on AWS with gpurent: leases, scaling groups, usage, budgets, audits, and the rental-mix planner.',
    )
    .version(VERSION, '--version', 'the version of this gpurent command')
    .showSuggestionAfterError(true)
    .hook('preAction', checkRequired)
    .addHelpText(
      'after',
      '\nExit codes: 0 done, 1 refused or failed (the API said no, or it could not be reached), 2 usage error, 130 stopped by Ctrl-C (run: the tasks go on).',
    );

  program
    .command('login')
    .description('remember the API URL and token (in $XDG_CONFIG_HOME/gpurent or ~/.config/gpurent)')
    .option('--api <url>', 'the API base URL (the ApiUrl stack output)')
    .option('--token <jwt>', 'an ID token of the user pool')
    .option(
      '--local',
      'use the stack `npm start` runs: .gpurent/local.json here or in a directory above (inside the checkout)',
    )
    .option('--manifest <file>', 'with --local: the manifest of the stack (default $GPURENT_LOCAL_MANIFEST)')
    .option(
      '--tenant <name>',
      'with --local: log in as a user of this tenant (any name; a separate $GPURENT_CONFIG_DIR per terminal keeps two tenants apart)',
    )
    .addOption(json())
    .action((options: LoginOptions) => login(options, io));

  program.addCommand(leaseCommand(io));
  program.addCommand(runCommand(io));

  program
    .command('logs')
    .description("the output of a lease's task (stdout here, stderr on stderr)")
    .argument('<lease-id>')
    .option('-f, --follow', 'keep printing new output until the task ends')
    .option('--attempt <n>', 'the attempt to show (default: the latest)')
    .action((id: string, options: LogsOptions) => logs(id, options, io));

  program
    .command('ssh')
    .description("a shell on a lease's instance through Session Manager (needs the AWS CLI and its plugin)")
    .argument('<lease-id>')
    .option('--instance <id>', 'which instance of the lease (default: the first)')
    .action((id: string, options: SshOptions) => ssh(id, options, io));

  const usageCommand = program
    .command('usage')
    .description('metered GPU seconds and cost in a time range (usage export: the CSV for simulate)')
    .option('--from <iso>', 'start, inclusive (default: start of this month, UTC)')
    .option('--to <iso>', 'end, exclusive (default: now)')
    .addOption(
      new Option('--group-by <key>', 'grouping').choices(USAGE_GROUPINGS).default(DEFAULT_USAGE_GROUPING),
    )
    .addOption(json())
    .action((options: UsageOptions) => usage(options, io));
  usageCommand
    .command('export')
    .description("the leases of a time range as CSV, the input of 'gpurent simulate --trace FILE'")
    .option('--from <iso>', 'start, inclusive (default: start of this month, UTC)')
    .option('--to <iso>', 'end, exclusive (default: now)')
    .option('--out <file>', 'write the CSV to this file instead of stdout')
    .action((options: UsageExportOptions) => usageExport(options, io));

  program.addCommand(budgetCommand(io));
  program.addCommand(groupCommand(io));
  program.addCommand(adminCommand(io));

  program
    .command('quota')
    .description('your quota in force and what you run against it (over it, leases wait in the queue)')
    .addOption(json())
    .action((options: OutputOptions) => quotaShow(options, io));

  const idlePolicy = program
    .command('idle-policy')
    .description('the idle policy in force: what happens to leases whose every GPU sits below the line')
    .addOption(json())
    .action((options: OutputOptions) => idlePolicyShow(options, io));
  required(
    idlePolicy
      .command('set')
      .description("set the tenant's own idle policy (refused when it loosens the admin's)"),
    new Option('--action <action>', 'what happens to an idle lease').choices(IDLE_ACTIONS),
  )
    .option('--below-percent <n>', 'GPU utilization line, 0-100 (default 5)')
    .option('--for-minutes <n>', 'window, 10-1440 whole minutes (default 30)')
    .option('--exempt-workloads <list>', 'comma-separated workloads never acted on')
    .option('--exempt-projects <list>', 'comma-separated projects never acted on')
    .addOption(json())
    .action((options: IdlePolicySetOptions) => idlePolicySet(options, io));

  const anomalies = program
    .command('anomalies')
    .description('spend-anomaly alerts: on or off, and how sensitive, for the tenant and each project')
    .addOption(json())
    .action((options: OutputOptions) => anomaliesShow(options, io));
  anomalies
    .command('set')
    .description("set the tenant's spend-anomaly settings, or a project's with --project")
    .option('--project <name>', "a project's own settings (default: the tenant's)")
    .addOption(
      new Option('--sensitivity <level>', 'how far above normal alerts (default medium)').choices(
        ANOMALY_SENSITIVITIES,
      ),
    )
    .option('--off', 'no spend-anomaly alerts for this scope')
    .addOption(json())
    .action((options: AnomaliesSetOptions) => anomaliesSet(options, io));

  program
    .command('metrics')
    .description("a lease's GPU utilization, memory, temperature and power (avg / p95 / max) and health")
    .argument('<lease-id>')
    .option('--from <iso>', 'start (default: an hour before --to)')
    .option('--to <iso>', 'end (default: now)')
    .addOption(new Option('--period <seconds>', 'seconds per datapoint').choices(METRIC_PERIODS))
    .addOption(json())
    .action((id: string, options: MetricsOptions) => leaseMetrics(id, options, io));

  program
    .command('audit')
    .description("a month's audit: cost by mode, spot savings, reserved capacity, and what to reserve next")
    .argument('<yyyy-mm>', 'this month (to date) or an earlier one')
    .option('--html <file>', 'write the report page (self-contained HTML) to this file instead')
    .addOption(json())
    .action((month: string, options: AuditOptions) => auditReport(month, options, io));

  program
    .command('profile')
    .description('demand per UTC day: GPU-hours, average and peak GPUs, wait to RUNNING')
    .option('--from <iso>', 'start (default: start of this month, UTC)')
    .option('--to <iso>', 'end (default: now)')
    .addOption(json())
    .action((options: ProfileOptions) => profile(options, io));

  program
    .command('simulate')
    .description('replay a demand trace through the rental policies (gpurent simulate --help)')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(async (args: string[]) => {
      // The planner parses its own flags; loaded (a chunk of its own) only when it runs.
      const { main } = await import('../planner/cli');
      process.exitCode = await main(['simulate', ...args]);
    });

  for (const command of withSubcommands(program)) {
    // One line, as every other error: "unknown option '--gpu' (Did you mean --gpus?)".
    command
      .exitOverride()
      .configureOutput({ outputError: (text, write) => write(`${text.trimEnd().replaceAll('\n', ' ')}\n`) });
  }
  return program;
}

/** The command and every subcommand under it, however deep (`admin warm-pool set`). */
const withSubcommands = (command: Command): Command[] => [
  command,
  ...command.commands.flatMap(withSubcommands),
];

/** The options that say what a lease asks for, shared by `lease create` and `run`. */
function leaseOptions(command: Command, gpus: 'required' | 'or-task-file' = 'required'): Command {
  const gpusOption = new Option(
    '--gpus <n>',
    `GPUs, 1-${MAX_GPUS_PER_LEASE} (single-GPU instances, or fewer larger ones where cheaper)`,
  );
  // `run task.yaml` takes the GPUs from the file; `run -- <command>` checks for them itself.
  if (gpus === 'required') required(command, gpusOption);
  else command.addOption(gpusOption.default(undefined, "the task file's; required without one"));
  return command
    .option('--instance-type <type>', 'EC2 type, e.g. g5.xlarge (default: the cheapest pool that fits)')
    .option('--gpu-model <model>', 'any instance type with this GPU, e.g. A10G, L4, A100, H100')
    .option('--regions <list>', 'comma-separated regions it may run in (default: every GPU region)')
    .option(
      '--data-region <region>',
      "where the lease's data lives; pools elsewhere pay latency and transfer",
    )
    .option('--data-gb <gb>', 'data moved to the lease when it runs away from --data-region')
    .option('--max-hourly-price <usd>', 'USD per hour for all its instances together')
    .option('--image <name:version>', 'pin a registered image version (default: the current one)')
    .addOption(new Option('--mode <mode>', 'rental mode (default: the policy chooses)').choices(RENTAL_MODES))
    .option('--project <label>', 'cost label for usage and project budgets')
    .option(
      '--duration <minutes>',
      `release on its own after this many minutes (${MIN_LEASE_MINUTES}-${MAX_LEASE_MINUTES})`,
    )
    .option(
      '--priority <n>',
      `its place among the tenant's queued leases, ${MIN_PRIORITY}-${MAX_PRIORITY} (default ${DEFAULT_PRIORITY})`,
    )
    .option(
      '--max-wait <minutes>',
      `with GPUs short, how long it may wait in the queue before it FAILS (${MIN_WAIT_MINUTES}-${MAX_WAIT_MINUTES}, default ${DEFAULT_MAX_WAIT_MINUTES})`,
    );
}

function leaseCommand(io: CliIo): Command {
  const lease = new Command('lease').description('ask for GPUs, list, show and release leases');
  const create = lease.command('create').description('ask for GPUs');
  required(create, new Option('--workload <kind>', 'what runs').choices(WORKLOADS));
  leaseOptions(create)
    .option('--wait', 'show progress until the lease is RUNNING (exit 1 if it FAILS)')
    .option('--timeout <seconds>', 'with --wait: give up waiting after this long', '600')
    .addOption(json())
    .action((options: CreateLeaseOptions) => leaseCreate(options, io));
  lease
    .command('ls')
    .description("the tenant's leases, newest first")
    .option('--limit <n>', 'leases per page', '25')
    .option('--cursor <cursor>', 'the next page (printed under the table)')
    .addOption(json())
    .action((options: LeaseListOptions) => leaseList(options, io));
  onOne(lease, 'show', 'one lease, its instances and cost', '<lease-id>', (id, options) =>
    leaseShow(id, options, io),
  );
  // `release` is the word the API and the docs use for it.
  onOne(lease, 'rm', 'release a lease (terminate, close the bill)', '<lease-id>', (id, options) =>
    leaseRelease(id, options, io),
  ).alias('release');
  return lease;
}

function runCommand(io: CliIo): Command {
  const command = new Command('run')
    .description(
      "run work on a new lease: create it with its task, follow the output, exit with the task's exit code",
    )
    .argument(
      '<task...>',
      'a task file (task.yaml; the flags below change its fields) or, after --, the command and its arguments',
    )
    .option(
      '--param <name=v1,v2,...>',
      'sweep: one lease per combination; NAME=value in the env, {name} in the command',
      repeated,
      [] as string[],
    )
    .option('--task-image <uri>', 'run the command in this container image (docker run --gpus all)')
    .option('--workdir <dir>', 'working directory of the command')
    .option('--max-runtime <minutes>', 'stop the task after this long (1-43200)')
    .addOption(
      new Option('--on-exit <what>', 'what the lease does when the task ends').choices(['release', 'keep']),
    )
    .option('--max-attempts <n>', 'attempts after spot interruptions (1-10, default 3)')
    .option('--retry-on-failure', 'also run again a task that exits non-zero')
    .option(
      '--deadline <date-time>',
      'finish by then, e.g. 2026-12-03T09:00Z: spot while ahead, on-demand when it must',
    )
    .option('--work <duration>', 'what the task needs on one machine, e.g. 48h (with --deadline)')
    .option('--restart <duration>', 'what a restart from checkpoint costs, e.g. 10m (default 5m)')
    .option('--timeout <seconds>', 'give up waiting for the task after this long', '3600')
    .addOption(json());
  command.addOption(
    new Option('--workload <kind>', "what runs (default: the task file's, else batch)").choices(WORKLOADS),
  );
  return leaseOptions(command, 'or-task-file').action((args: string[], options: RunOptions) =>
    run(args, options, io),
  );
}

function budgetCommand(io: CliIo): Command {
  const budget = new Command('budget').description('monthly budgets with alerts and limit actions');
  const set = budget
    .command('set')
    .description('create or replace a budget')
    .argument('<name>', '[a-z0-9-]{1,64}');
  required(set, new Option('--limit <usd>', 'monthly limit in USD'));
  set
    .option('--project <label>', 'count only leases with this project label')
    .option('--thresholds <percents>', 'alert thresholds, e.g. 50,80,100')
    .addOption(
      new Option('--basis <basis>', 'judge actual spend, the forecast or both').choices(BUDGET_BASES),
    )
    .addOption(new Option('--action <action>', 'what happens at 100%').choices(BUDGET_ACTIONS))
    .addOption(json())
    .action((name: string, options: BudgetSetOptions) => budgetSet(name, options, io));
  budget
    .command('ls')
    .description('budgets with spend and forecast')
    .addOption(json())
    .action((options: OutputOptions) => budgetList(options, io));
  onOne(budget, 'show', 'one budget and the thresholds crossed', '<name>', (name, options) =>
    budgetShow(name, options, io),
  );
  onOne(budget, 'rm', 'delete a budget (spend counters stay)', '<name>', (name, options) =>
    budgetRemove(name, options, io),
  );
  return budget;
}

/** The spec fields `group put` and `group set` take as flags. */
function groupFields(command: Command): Command {
  return command
    .option('--instance-type <type>', 'single-GPU EC2 type, e.g. g5.xlarge')
    .addOption(new Option('--workload <kind>', 'what the members run').choices(WORKLOADS))
    .option('--min <n>', 'the fewest GPUs')
    .option('--max <n>', 'the most GPUs (caps the cost)')
    .option('--desired <n>', 'the size to converge to now (default: min, or the current size)')
    .addOption(json());
}

function groupCommand(io: CliIo): Command {
  const group = new Command('group').description(
    'scaling groups: fleets of single-GPU leases sized by their GPU metrics',
  );
  groupFields(
    group
      .command('put')
      .description('create a scaling group or replace its whole spec (members change at the next evaluation)')
      .argument('<name>', '[a-z0-9][a-z0-9-]{0,62}')
      .option(
        '--spec <file>',
        'a JSON file with the whole spec (the API body: rules, cooldowns, …); flags override it',
      ),
  ).action((name: string, options: GroupPutOptions) => groupPut(name, options, io));
  groupFields(
    group
      .command('set')
      .description("change some fields of a group's spec and keep the others (reads, merges, replaces)")
      .argument('<name>', 'an existing group'),
  ).action((name: string, options: GroupFieldOptions) => groupSet(name, options, io));
  group
    .command('ls')
    .description("the tenant's scaling groups")
    .addOption(json())
    .action((options: OutputOptions) => groupList(options, io));
  onOne(
    group,
    'show',
    'one group: members, the last evaluation and the last decisions with their reasons',
    '<name>',
    (name, options) => groupShow(name, options, io),
  );
  onOne(group, 'rm', 'drain a group: release every member lease, then remove it', '<name>', (name, options) =>
    groupRemove(name, options, io),
  );
  return group;
}

/** Operator commands: the token must be in the admin group. */
function adminCommand(io: CliIo): Command {
  const admin = new Command('admin').description('for operators (the token must be in the admin group)');
  admin.addCommand(warmPoolCommand(io));
  admin.addCommand(quotaCommand(io));
  return admin;
}

function quotaCommand(io: CliIo): Command {
  const quota = new Command('quota').description(
    "tenants' quotas: leases over them wait in the admission queue",
  );
  const set = quota
    .command('set')
    .description("set a tenant's quota (waiting leases it now fits are admitted)")
    .argument('<tenant>', 'the tenant id');
  required(set, new Option('--max-gpus <n>', 'GPUs the tenant may run at once'));
  required(set, new Option('--max-hourly-usd <usd>', 'sum of the hourly prices of its running instances'));
  set
    .option('--max-on-demand-gpus <n>', 'cap on its on-demand GPUs')
    .option('--max-spot-gpus <n>', 'cap on its spot GPUs')
    .option('--max-reserved-gpus <n>', 'cap on its reserved GPUs')
    .option('--weight <w>', 'its weight in fair share, 0.01-100 (default 1)')
    .addOption(json())
    .action((tenant: string, options: QuotaSetOptions) => quotaSet(tenant, options, io));
  onOne(quota, 'show', "a tenant's quota in force and its use", '<tenant>', (tenant, options) =>
    quotaShowFor(tenant, options, io),
  );
  return quota;
}

function warmPoolCommand(io: CliIo): Command {
  const pool = new Command('warm-pool').description(
    'stopped GPU machines kept initialised, so on-demand leases start in seconds',
  );
  const set = pool
    .command('set')
    .description('create or redefine a warm pool (the filler launches, initialises and stops machines)')
    .argument('<name>', '[a-z0-9][a-z0-9-]{0,62}');
  required(set, new Option('--region <region>', 'GPU region of the machines'));
  required(set, new Option('--instance-type <type>', 'EC2 type, e.g. g5.xlarge'));
  required(set, new Option('--size <n>', `stopped machines kept ready, 0-${MAX_WARM_POOL_SIZE}`));
  required(
    set,
    new Option('--image <name[:version]>', 'image to build from: name follows its current version'),
  );
  set
    .option('--zone <zone>', 'availability zone (default: any zone of the region)')
    .option(
      '--pre-pull <ref>',
      'container image pulled on each machine while it initialises (repeat for more)',
      repeated,
      [] as string[],
    )
    .addOption(json())
    .action((name: string, options: WarmPoolSetOptions) => warmPoolSet(name, options, io));
  pool
    .command('ls')
    .description('every warm pool with its ready and initialising machines')
    .addOption(json())
    .action((options: OutputOptions) => warmPoolList(options, io));
  onOne(pool, 'rm', 'delete a warm pool (the filler ends its stopped machines)', '<name>', (name, options) =>
    warmPoolRemove(name, options, io),
  );
  return pool;
}
