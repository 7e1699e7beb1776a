import net from 'node:net';

/** Rewrites one direction of a connection chunk by chunk (it may hold bytes back, or drop them); one per connection. */
export type StreamFilter = (chunk: Buffer) => Buffer;

export interface TcpProxyOptions {
  /** Made for each connection, for what the target sends to the client. */
  downstream?: () => StreamFilter;
}

/**
 * A TCP proxy in front of the broker, so a test can take "the broker" away and
 * bring it back without touching the real one other runs share: `cut()` drops
 * the live connections (a network blip), `down()` also refuses new ones (an
 * outage), `up()` accepts again on the same port. `refuse()` is an outage
 * whose connection attempts are counted (each is accepted and reset at once).
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private listenPort = 0;
  private refusing = false;
  private acceptedCount = 0;
  private refusedCount = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    private readonly options: TcpProxyOptions = {},
  ) {}

  /** Starts listening on a free local port. */
  static async start(target: { host: string; port: number }, options?: TcpProxyOptions): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port, options);
    await proxy.up();
    return proxy;
  }

  /** For a URL like `amqp://guest:guest@127.0.0.1:5672/vhost`: the proxy to its host and the same URL through it. */
  static async forUrl(url: string, options?: TcpProxyOptions): Promise<{ proxy: TcpProxy; url: string }> {
    const target = new URL(url);
    const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5672) }, options);
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    return { proxy, url: through.toString() };
  }

  get port(): number {
    return this.listenPort;
  }

  get accepting(): boolean {
    return this.server !== null && !this.refusing;
  }

  /** Connections carried to the target so far. */
  get accepted(): number {
    return this.acceptedCount;
  }

  /** Connection attempts reset while refusing. */
  get refused(): number {
    return this.refusedCount;
  }

  /** Connections currently carried. */
  get connections(): number {
    return this.sockets.size;
  }

  /** Accepts connections again, on the port it had before. */
  async up(): Promise<void> {
    this.refusing = false;
    if (this.server) return;
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listenPort = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Drops every live connection; new ones are still accepted. */
  cut(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Refuses new connections and drops the live ones. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.cut();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Drops the live connections and resets every new one, counting them (`refused`); `up()` ends it. */
  async refuse(): Promise<void> {
    await this.up();
    this.refusing = true;
    this.cut();
  }

  close(): Promise<void> {
    return this.down();
  }

  private accept(client: net.Socket): void {
    if (!this.refusing) {
      this.carry(client);
      return;
    }
    this.refusedCount++;
    client.on('error', () => {});
    client.resetAndDestroy();
  }

  private carry(client: net.Socket): void {
    this.acceptedCount++;
    const upstream = net.connect({ host: this.targetHost, port: this.targetPort });
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    const filter = this.options.downstream?.();
    if (!filter) {
      upstream.pipe(client);
      return;
    }
    upstream.on('data', (chunk: Buffer) => {
      const out = filter(chunk);
      if (out.length > 0 && !client.write(out)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    upstream.on('end', () => client.end());
  }
}
