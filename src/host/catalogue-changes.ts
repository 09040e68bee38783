import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../api/db/client';
import { catalogueVersion } from '../api/catalogue/catalogue';
import { CatalogueCache, type CatalogueCacheOptions, type ChangeChannel, type ChangeKind } from '../api/catalogue/cache/catalogue-cache';

/** The PostgreSQL channel replicas tell each other about writes on. Payload: `<kind>:<replica id>`. */
const CHANGES_CHANNEL = 'catalogue_changed';
const KINDS: readonly ChangeKind[] = ['catalogue', 'reservations'];

type Log = (level: 'info' | 'error', message: string, extra?: unknown) => void;

/**
 * Changes across replicas on PostgreSQL: a dedicated connection LISTENs on `catalogue_changed`
 * and sends this replica's NOTIFYs (after the write committed, so a replica that hears it reads
 * the new data). Two safety nets for notices that never arrive: after the connection drops
 * and comes back, everything is treated as changed; and the database's catalogue version (one
 * tiny query every `pollMs`, never per request) is compared with the last one seen, which also
 * catches writes by tools that do not NOTIFY (e.g. `npm run seed -- --reset`).
 */
export function pgChangeChannel(opts: {
  url: string;
  /** Sends a NOTIFY (e.g. through the app's pool, which outlives a dropped listener); default: the listening connection. */
  send?: (channel: string, payload: string) => Promise<unknown>;
  readVersion?: () => Promise<number>;
  pollMs?: number;
  log?: Log;
}): ChangeChannel & { ready: Promise<void> } {
  const id = randomBytes(6).toString('hex');
  const listeners: ((kind: ChangeKind) => void)[] = [];
  const emit = (kind: ChangeKind) => listeners.forEach((l) => l(kind));
  const log: Log = opts.log ?? (() => {});
  /** The connection being opened or in use; `client` once it listens. */
  let current: pg.Client | null = null;
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let connectedBefore = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const reconnect = () => {
    if (closed || retryTimer) return;
    client = null;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(failures++, 6));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    retryTimer.unref();
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: opts.url });
    current = c;
    const lost = (err?: Error) => {
      if (current !== c || closed) return;
      current = null;
      log('error', 'catalogue change listener lost its connection', err?.message);
      void c.end().catch(() => {});
      reconnect();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel !== CHANGES_CHANNEL || !msg.payload) return;
      const [kind, from] = msg.payload.split(':');
      if (from !== id && (KINDS as string[]).includes(kind)) emit(kind as ChangeKind);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (closed || current !== c) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    // Notices sent while this replica was not listening are lost: start over.
    if (connectedBefore) KINDS.forEach(emit);
    connectedBefore = true;
  };

  let lastVersion: number | undefined;
  const poll = async () => {
    if (!opts.readVersion) return;
    try {
      const version = await opts.readVersion();
      if (lastVersion !== undefined && version !== lastVersion) emit('catalogue');
      lastVersion = version;
    } catch {
      /* the next poll tries again */
    }
  };
  const pollTimer = opts.readVersion ? setInterval(() => void poll(), opts.pollMs ?? 10_000) : undefined;
  pollTimer?.unref();

  const ready = Promise.all([connect(), poll()]).then(() => {});
  return {
    ready,
    publish(kind) {
      const payload = `${kind}:${id}`;
      const sent = opts.send ? opts.send(CHANGES_CHANNEL, payload) : client?.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
      sent?.catch((err: Error) => log('error', 'catalogue change notice failed', err.message));
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pollTimer);
      const c = current;
      current = client = null;
      await c?.end().catch(() => {});
    },
  };
}

/** Replicas in one process (tests): every channel hears the others' publishes, never its own. */
export function memoryBus(): { channel(): ChangeChannel } {
  const members = new Set<(kind: ChangeKind) => void>();
  return {
    channel() {
      const listeners: ((kind: ChangeKind) => void)[] = [];
      const deliver = (kind: ChangeKind) => listeners.forEach((l) => l(kind));
      members.add(deliver);
      return {
        publish: (kind) => members.forEach((m) => m !== deliver && m(kind)),
        subscribe: (listener) => void listeners.push(listener),
        close: () => {
          members.delete(deliver);
          return Promise.resolve();
        },
      };
    },
  };
}

/**
 * The product's cache for a database: on PostgreSQL with the LISTEN/NOTIFY channel and the
 * version poll; on PGlite (one process owns the data folder) local bumps are the whole story.
 */
export async function openCatalogueCache(
  database: Database,
  opts: { url?: string; log?: Log; pollMs?: number; /** Hears other replicas' changes (the storefront rebuild follows them). */ onRemoteChange?: (kind: ChangeKind) => void } & Omit<CatalogueCacheOptions, 'channel'> = {},
): Promise<CatalogueCache> {
  if (database.kind !== 'postgres' || !opts.url) return new CatalogueCache(opts);
  const { db } = database;
  const channel = pgChangeChannel({
    url: opts.url,
    send: (name, payload) => db.execute(sql`SELECT pg_notify(${name}, ${payload})`),
    readVersion: () => catalogueVersion(db),
    pollMs: opts.pollMs,
    log: opts.log,
  });
  await channel.ready;
  if (opts.onRemoteChange) channel.subscribe(opts.onRemoteChange);
  return new CatalogueCache({ ...opts, channel });
}
