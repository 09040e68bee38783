import net, { type AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/**
 * Listening sockets per process. libuv accepts one connection per listening socket per turn of
 * the event loop, and under load a turn answers every ready request first (tens of ms), so a
 * burst of 200 new connections waited 200 turns: first answers of up to 2 s while the requests
 * of connections already open took 30 ms. With 16 sockets on the port (SO_REUSEPORT, the kernel
 * spreads new connections over them) a turn accepts up to 16.
 */
export const ACCEPTORS = 16;

export interface Listening {
  port: number;
  /** `server.close()` for every socket: stops accepting at once, resolves when their connections have ended (idle ones are closed). */
  close: () => Promise<void>;
}

/**
 * `server.listen(port, host)` with `acceptors` listening sockets instead of one: the server
 * itself (so its timeouts and connection tracking work as usual) and `acceptors - 1` plain
 * sockets that hand their connections to it. A port someone already listens on is refused
 * (EADDRINUSE) as with one socket, never shared; where the platform has no SO_REUSEPORT the
 * server listens alone.
 */
export async function listenWide(server: Server, { port, host, acceptors = ACCEPTORS }: { port: number; host?: string; acceptors?: number }): Promise<Listening> {
  // SO_REUSEPORT would let a second copy of the product join this port: make sure nobody has it first.
  if (port !== 0) await close(await open(net.createServer(), { port, host }));
  await open(server, { port, host, reusePort: acceptors > 1 }).catch((err) => {
    if (!['ENOTSUP', 'EOPNOTSUPP', 'EINVAL'].includes(codeOf(err))) throw err;
    return open(server, { port, host });
  });
  const bound = (server.address() as AddressInfo).port;
  const extra: net.Server[] = [];
  for (let i = 1; i < acceptors; i++) {
    try {
      extra.push(await open(net.createServer((socket) => server.emit('connection', socket)), { port: bound, host, reusePort: true }));
    } catch (err) {
      // The port is ours: taken for the first extra socket means SO_REUSEPORT did not hold (a Node or platform without it).
      if (extra.length === 0 && codeOf(err) === 'EADDRINUSE') break;
      await Promise.all([server, ...extra].map(close));
      throw err;
    }
  }
  return { port: bound, close: () => Promise.all([server, ...extra].map(close)).then(() => {}) };
}

function open<T extends net.Server>(server: T, options: net.ListenOptions): Promise<T> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}

function codeOf(err: unknown): string {
  return String((err as { code?: string | number } | null)?.code ?? '');
}
