/**
 * Runs the actions of triggered rules. The consumer records each (rule, event) once, as an execution with the
 * rule's actions as they were; the runner takes them in order, one action at a time, and records each one
 * done. A redelivered event finds its execution recorded and adds nothing; a crash between an action and its
 * record asks for that one action again, no more (at least once, as the bus is); content takes an action asked
 * for again under its key only once (`RuleContentAction.key`), so a content action's effect is not repeated.
 * Replicas on one store: a runner claims an execution before taking its actions and keeps the claim alive while
 * it works (a short lease, renewed on a timer), so two replicas never take the same rule's actions for one
 * event, and a runner that died lets go within one lease.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type ContentSnapshot, type Logger } from '@cms/shared';
import { ruleRequestId, type Trigger } from './rule-matching';
import { eventTitle, type RuleElement } from './rules';

export interface Execution {
  /** `<rule id>~<event id>`. */
  _id: string;
  ruleId: string;
  /** How many rule actions led to the event (0: a user's write). */
  depth: number;
  trigger: Trigger;
  actions: RuleElement[];
  /** The index of the next action to take. */
  next: number;
  done: boolean;
  /** When it was recorded, for the order of execution. */
  at: string;
  /** Why it stopped before its last action. */
  error?: string;
  /** The runner taking its actions now, and until when (milliseconds since the epoch) that claim holds. */
  claimed_by?: string;
  claimed_until?: number;
}

export interface ExecutionStore {
  /** Records it; false when an execution of that rule for that event already was. */
  record(execution: Execution): Promise<boolean>;
  /** Unfinished executions, oldest first, but those another runner (not `owner`) holds a claim on at `now`. */
  pending(limit: number, owner: string, now: number): Promise<Execution[]>;
  /** Claims (or renews `owner`'s claim on) an unfinished execution until `now + leaseMs`; null when another holds it. */
  claim(id: string, owner: string, now: number, leaseMs: number): Promise<Execution | null>;
  advance(id: string, next: number, done: boolean, error?: string): Promise<void>;
  /** Forgets finished executions recorded before `before`. */
  purge(before: string): Promise<number>;
}

/** A Notify action's message: an API has no user's screen to show it on, so it is kept (`rule_notifications`). */
export interface Notification {
  ruleId: string;
  eventId: string;
  uid: string;
  path: string;
  message: string;
  message_type: string;
  at: string;
}

export interface NotificationStore {
  add(notification: Notification): Promise<void>;
}

export interface RuleContentAction {
  uid: string;
  action: 'move' | 'copy' | 'delete' | 'transition' | 'version';
  target?: string;
  transition?: string;
  comment?: string;
  /** Names this action of this execution: content takes an action asked for again under its key only once. */
  key: string;
}

export interface ContentActions {
  /** Where the object is afterwards. */
  apply(action: RuleContentAction, requestId: string): Promise<string>;
}

export interface ContentObjects {
  byPath(path: string, requestId: string): Promise<ContentSnapshot | null>;
  byUid(uid: string, requestId: string): Promise<ContentSnapshot | null>;
}

/** Sends a Mail action's message; absent when the process has no mail sender. */
export interface RuleMailer {
  send(values: Record<string, unknown>, trigger: Trigger, requestId: string): Promise<void>;
}

/** A failure that taking the action again would not cure (the object is gone, the target is not a folder...). */
function isFinal(error: unknown): boolean {
  return error instanceof AppError && ['BadRequest', 'NotFound', 'Forbidden', 'Conflict'].includes(error.type);
}

/** Python's logging levels (the Logger action's `loggingLevel`) as the logger's. */
function levelOf(level: number): 'debug' | 'info' | 'warn' | 'error' | 'fatal' {
  if (level >= 50) return 'fatal';
  if (level >= 40) return 'error';
  if (level >= 30) return 'warn';
  if (level >= 20) return 'info';
  return 'debug';
}

const POLL_MS = 1000;
/**
 * How long a claim on an execution holds unless renewed: what a runner that died leaves its executions waiting
 * for. Renewed every third of it while the runner works, so an action may take longer (a slow SMTP server).
 */
export const CLAIM_LEASE_MS = 15_000;
const CLAIM_RENEW_MS = CLAIM_LEASE_MS / 3;
const BATCH = 50;
/**
 * How long a finished execution is remembered, so that a redelivered event does not run its rule again: longer
 * than any redelivery (the bus retries for minutes; a dead-lettered event replayed later than this runs again).
 */
const KEEP_DONE_MS = 7 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;

export class RuleRunner {
  /** Names this runner in its claims. */
  private readonly owner = randomUUID();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly executions: ExecutionStore,
    private readonly content: ContentActions,
    private readonly notifications: NotificationStore,
    private readonly log: Logger,
    private readonly mailer?: RuleMailer,
  ) {}

  /** Looks for work now and, until stopped, every second (what a crash or a failed call left). */
  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.purgeTimer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref();
    this.kick();
  }

  private async purge(): Promise<void> {
    try {
      await this.executions.purge(new Date(Date.now() - KEEP_DONE_MS).toISOString());
    } catch (err) {
      this.log.warn({ err }, 'content rules: purge of finished executions failed; tried again later');
    }
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.log.error({ err }, 'content rules: run failed; retried'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits for the run under way (tests, and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.purgeTimer);
    await this.idle();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = await this.executions.pending(BATCH, this.owner, Date.now());
      if (batch.length === 0 || this.stopped) return;
      for (const { _id } of batch) {
        const execution = await this.executions.claim(_id, this.owner, Date.now(), CLAIM_LEASE_MS);
        // Another replica's runner took it meanwhile.
        if (!execution) continue;
        // A call that may succeed later stops the run here; the timer takes it up again.
        if (!(await this.run(execution))) return;
      }
    }
  }

  /** Takes the execution's remaining actions; false when one must be tried again later. */
  private async run(execution: Execution): Promise<boolean> {
    const claim = this.keepClaim(execution._id);
    try {
      return await this.runClaimed(execution, claim);
    } finally {
      claim.release();
    }
  }

  /** Renews the claim on `id` on a timer until released; `lost` once another runner holds it. */
  private keepClaim(id: string): { readonly lost: boolean; release(): void } {
    const state = { lost: false, renewing: false };
    const timer = setInterval(() => {
      if (state.renewing || state.lost) return;
      state.renewing = true;
      this.executions
        .claim(id, this.owner, Date.now(), CLAIM_LEASE_MS)
        .then((held) => {
          if (!held) state.lost = true;
        })
        .catch((err: unknown) =>
          // Tried again on the next tick; should the lease run out meanwhile, content still takes each action once.
          this.log.warn({ err, execution: id }, 'content rules: renewing a claim failed'),
        )
        .finally(() => (state.renewing = false));
    }, CLAIM_RENEW_MS);
    timer.unref();
    return {
      get lost() {
        return state.lost;
      },
      release: () => clearInterval(timer),
    };
  }

  private async runClaimed(execution: Execution, claim: { readonly lost: boolean }): Promise<boolean> {
    const requestId = ruleRequestId(
      { depth: execution.depth + 1, ruleId: execution.ruleId },
      execution.trigger.eventId,
    );
    for (let index = execution.next; index < execution.actions.length; index++) {
      const action = execution.actions[index]!;
      // Lost (it ran out and another runner took it): the rest is that one's.
      if (claim.lost) return true;
      try {
        await this.take(action, execution, `${execution._id}#${index}`, requestId);
      } catch (error) {
        if (!isFinal(error)) {
          this.log.warn(
            { err: error, rule: execution.ruleId, action: action.type },
            'content rule action failed; retried',
          );
          return false;
        }
        // As in the reference, an action that cannot be taken ends the rule's execution.
        const message = error instanceof Error ? error.message : String(error);
        this.log.warn({ rule: execution.ruleId, action: action.type, reason: message }, 'content rule stopped');
        await this.executions.advance(execution._id, index, true, message);
        return true;
      }
      await this.executions.advance(execution._id, index + 1, index + 1 === execution.actions.length);
    }
    if (execution.next >= execution.actions.length) await this.executions.advance(execution._id, execution.next, true);
    return true;
  }

  /** Takes one action; `key` names it (this execution, this action) for content. */
  private async take(action: RuleElement, execution: Execution, key: string, requestId: string): Promise<void> {
    const { trigger } = execution;
    const v = action.values;
    switch (action.type) {
      case 'cms.actions.Logger': {
        const message = String(v.message ?? '')
          .replaceAll('&e', eventTitle(trigger.event))
          .replaceAll('&c', trigger.path)
          .replaceAll('&u', trigger.actor ?? '');
        const level = levelOf(Number(v.loggingLevel ?? 20));
        this.log[level](
          { contentRule: execution.ruleId, logger: v.targetLogger, eventId: trigger.eventId, uid: trigger.uid },
          message,
        );
        return;
      }
      case 'cms.actions.Notify':
        await this.notifications.add({
          ruleId: execution.ruleId,
          eventId: trigger.eventId,
          uid: trigger.uid,
          path: trigger.path,
          message: String(v.message ?? ''),
          message_type: String(v.message_type ?? 'info'),
          at: new Date().toISOString(),
        });
        return;
      case 'cms.actions.Move':
      case 'cms.actions.Copy':
        await this.content.apply(
          {
            uid: trigger.uid,
            action: action.type === 'cms.actions.Move' ? 'move' : 'copy',
            target: String(v.target_folder),
            key,
          },
          requestId,
        );
        return;
      case 'cms.actions.Delete':
        await this.content.apply({ uid: trigger.uid, action: 'delete', key }, requestId);
        return;
      case 'cms.actions.Workflow':
        await this.content.apply(
          { uid: trigger.uid, action: 'transition', transition: String(v.transition), key },
          requestId,
        );
        return;
      case 'cms.actions.Versioning':
        await this.content.apply(
          { uid: trigger.uid, action: 'version', comment: String(v.comment ?? ''), key },
          requestId,
        );
        return;
      case 'cms.actions.Mail':
        if (!this.mailer) throw new AppError('BadRequest', 'No mail sender is configured');
        await this.mailer.send(v, trigger, requestId);
        return;
      default:
        throw new AppError('BadRequest', `The ${action.type} action is not available here`);
    }
  }
}
