import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCEPTORS, listenWide, type Listening } from '../../../src/host/listen';

const opened: Listening[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});

async function wide(server: Server = createServer((_req, res) => res.end('ok')), port = 0) {
  const listening = await listenWide(server, { port, host: '127.0.0.1' });
  opened.push(listening);
  return { server, listening };
}

/**
 * Connects `count` sockets from another thread while this one is blocked, so that they all wait
 * in the kernel's accept queues; resolves the sockets' closing function once the thread is done.
 */
function connectWhileBlocked(port: number, count: number): () => void {
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const net = require('node:net');
     const { workerData: { port, count, ready }, parentPort } = require('node:worker_threads');
     let connected = 0;
     const sockets = [];
     for (let i = 0; i < count; i++) sockets.push(net.connect(port, '127.0.0.1', () => {
       if (++connected === count) { Atomics.store(ready, 0, 1); Atomics.notify(ready, 0); }
     }));
     parentPort.once('message', () => { for (const s of sockets) s.destroy(); parentPort.close(); });`,
    { eval: true, workerData: { port, count, ready } },
  );
  // Blocks this thread's event loop until every handshake is done: nothing here accepts meanwhile.
  Atomics.wait(ready, 0, 0, 10_000);
  expect(Atomics.load(ready, 0)).toBe(1);
  return () => worker.postMessage('done');
}

/** Connections the server takes in during one turn of the event loop (between two check phases). */
function acceptedInOneTurn(server: Server): Promise<number> {
  let accepted = 0;
  const count = () => accepted++;
  server.on('connection', count);
  return new Promise((resolve) =>
    setImmediate(() => {
      const before = accepted;
      setImmediate(() => {
        server.off('connection', count);
        resolve(accepted - before);
      });
    }),
  );
}

describe('listenWide', () => {
  it('answers on every listening socket with the one server', async () => {
    let requests = 0;
    const { listening } = await wide(
      createServer((_req, res) => {
        requests++;
        res.end('ok');
      }),
    );
    // New connections each (no keep-alive pool): the kernel spreads them over the sockets.
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => fetch(`http://127.0.0.1:${listening.port}/`, { headers: { connection: 'close' } }).then((r) => r.text())),
    );
    expect(answers).toEqual(Array(64).fill('ok'));
    expect(requests).toBe(64);
  });

  it('takes in a burst of waiting connections several at a turn, not one per turn', async () => {
    const { server, listening } = await wide();
    const release = connectWhileBlocked(listening.port, 4 * ACCEPTORS);
    try {
      // One listening socket accepts one connection per turn; 64 spread over 16 sockets leave few empty.
      expect(await acceptedInOneTurn(server)).toBeGreaterThanOrEqual(4);
    } finally {
      release();
    }
  });

  it("applies the server's header timeout to connections from every socket (slow senders are cut off)", async () => {
    const { listening } = await wide(createServer({ connectionsCheckingInterval: 100, headersTimeout: 500, requestTimeout: 500 }, (_req, res) => res.end('ok')));
    const closed = Array.from(
      { length: 2 * ACCEPTORS },
      () =>
        new Promise<void>((resolve) => {
          const socket = net.connect(listening.port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: luxe\r\n'));
          socket.on('data', () => {});
          socket.on('close', () => resolve());
        }),
    );
    await Promise.all(closed);
  });

  it('refuses a port somebody listens on, a second copy of the product included', async () => {
    const { listening } = await wide();
    await expect(listenWide(createServer(), { port: listening.port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const plain = net.createServer();
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const port = (plain.address() as net.AddressInfo).port;
      await expect(listenWide(createServer(), { port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      plain.close();
    }
  });

  it('close() stops every socket: the port refuses connections and is free again', async () => {
    const { listening } = await wide();
    await listening.close();
    for (let i = 0; i < 2 * ACCEPTORS; i++) {
      await expect(fetch(`http://127.0.0.1:${listening.port}/`, { headers: { connection: 'close' } })).rejects.toThrow();
    }
    await wide(createServer(), listening.port);
  });
});
